/**
 * The English texts of the password pages and their refusals: the reference dictionary of the
 * extension, loaded only by apps that use it. Each translation (translations.ts) has the same keys.
 */
export const en = {
  "password.email": "Email",
  "password.password": "Password",
  "password.code": "Code",
  "password.continue": "Continue",
  "password.signIn.title": "Sign in",
  "password.signIn.subtitle": "Sign in with your e-mail address and password.",
  "password.signIn.submit": "Sign in",
  "password.signIn.createAccount": "Create account",
  "password.signIn.forgot": "Forgot password?",
  "password.signUp.title": "Create account",
  "password.signUp.subtitle": "Use at least {minLength} characters; a long phrase is best.",
  "password.signUp.name": "Name (optional)",
  "password.signUp.submit": "Create account",
  "password.signUp.haveAccount": "I have an account",
  "password.verify.title": "Check your e-mail",
  "password.verify.subtitle":
    "Enter the 6-digit code we e-mailed you, or follow the link in that e-mail.",
  "password.forgot.title": "Reset your password",
  "password.forgot.subtitle": "We will e-mail you a link and a code.",
  "password.forgot.submit": "Send",
  "password.reset.title": "Choose a new password",
  "password.reset.subtitle": "Enter the 6-digit code we e-mailed you and your new password.",
  "password.reset.submit": "Set password and sign in",
  "password.change.title": "Change password",
  "password.change.subtitle": "Other devices are signed out; this one stays signed in.",
  "password.change.current": "Current password",
  "password.change.submit": "Change password",
  "password.delete.title": "Delete account",
  "password.delete.subtitle":
    "This removes your account and signs you out everywhere. It cannot be undone.",
  "password.delete.submit": "Delete my account",
  "password.notice.sent": "If that address can receive mail, we sent it a message with a code.",
  "password.error.tooShort": "Use at least {minLength} characters.",
  "password.error.tooLong": "Use at most {maxLength} characters.",
  "password.error.breached": "This password appears in known data breaches. Choose another one.",
  "password.error.checkUnavailable":
    "Passwords cannot be checked right now. Try again in a few minutes.",
  "password.error.wrongCode":
    "That code did not work, or it expired. Check it, or ask for a new one.",
  "password.error.tooMany": "Too many attempts. Wait a minute, then try again.",
  "password.error.signInFirst": "Sign in first.",
  "password.error.wrongCurrentPassword": "That is not your current password.",
  "password.error.wrongPassword": "That is not your password.",
  "password.error.emailRequired": "Enter an e-mail address.",
  "password.error.sameEmail": "That is already your address.",
  "password.changeEmail.title": "Change e-mail address",
  "password.changeEmail.subtitle":
    "We will e-mail a code to the new address; your account moves there once you enter it.",
  "password.changeEmail.newEmail": "New e-mail address",
  "password.changeEmail.submit": "Send code",
  "password.confirmEmail.title": "Confirm your new address",
  "password.confirmEmail.subtitle":
    "Enter the 6-digit code we e-mailed to the new address, or follow the link in that e-mail.",
  "password.confirmEmail.submit": "Confirm",
  // The change-of-address e-mails: the code to the new address, the notice to the old one.
  "password.changeEmailMail.subject": "Confirm your new address for {host}",
  "password.changeEmailMail.preheader":
    "Confirm {email} as your address for {host}. It expires in {lifetime}.",
  "password.changeEmailMail.heading": "Confirm your new e-mail address",
  "password.changeEmailMail.intro":
    "You asked to use {email} for your account on {host}. Press the button below, or enter the code, to confirm it. Until then your old address stays in use.",
  "password.changeEmailMail.expiry":
    "The link and the code expire in {lifetime} and can be used only once.",
  "password.changeEmailMail.button": "Confirm new address",
  "password.changeEmailMail.codeLabel": "Or enter this code:",
  "password.changeEmailMail.footer":
    "If you did not ask for this, ignore this e-mail: nothing changes until the code is entered.",
  "password.emailChangedMail.subject": "Your address for {host} was changed",
  "password.emailChangedMail.preheader": "Your account on {host} now uses {email}.",
  "password.emailChangedMail.heading": "Your e-mail address was changed",
  "password.emailChangedMail.intro":
    "The e-mail address of your account on {host} was changed to {email}. Sign-in e-mails and password resets now go there, and every session of the account was signed out.",
  "password.emailChangedMail.action":
    "If you did not make this change, someone else may control your account: reset your password from the button below at once, and contact the site.",
  "password.emailChangedMail.button": "Reset password",
  "password.emailChangedMail.footer":
    "This notice went to your previous address, which the account no longer uses.",
} as const;

/** The keys and English texts of the password dictionary. */
export type PasswordMessages = typeof en;
