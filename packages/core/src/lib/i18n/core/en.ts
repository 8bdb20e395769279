/**
 * The English texts of the core's pages, e-mail and error messages: the reference dictionary.
 * Every other language is a translation of these keys (lib/i18n/core/<locale>.ts); a test fails
 * when one of them lacks a key this file has.
 */
export const en = {
  "signIn.title": "Sign in",
  "signIn.continueTo": "to continue to {host}",
  "signIn.withProvider": "Sign in with {provider}",
  "signIn.email": "Email",
  "signIn.emailForLink": "Email for the sign-in link",
  "signIn.emailForPasskey": "Email for the passkey",
  "signIn.passkey.signIn": "Sign in with passkey",
  "signIn.passkey.create": "Create a passkey",
  "signIn.passkey.needsScript": "Passkeys need JavaScript to be enabled.",
  "signIn.passkey.error.closed": "The passkey prompt was closed or timed out. Try again.",
  "signIn.passkey.error.exists": "This device already holds a passkey for this account.",
  "signIn.passkey.error.refused":
    "A passkey cannot be created for this address. If you already have an account, sign in first.",
  "signIn.passkey.error.createFailed": "The passkey could not be created. Try again.",
  "signIn.passkey.error.signInFailed": "Signing in with a passkey failed. Try again.",
  "signIn.passkey.error.unsupported": "This browser does not support passkeys.",
  "signIn.group.email": "Email me a sign-in link",
  "signIn.group.password": "Password",
  "signIn.group.passkey": "Passkey",
  "signIn.group.oauth": "Use an account you have",
  "signIn.signedInAs": "Signed in as {user} — link another method below, or {signOut}.",
  "signIn.signedInAs.signOut": "sign out",
  "signIn.or": "or",
  "signIn.noMethods": "No sign-in methods are configured.",

  "signIn.error.Signin": "Sign in failed. Try again, or choose another way to sign in.",
  "signIn.error.OAuthSignin":
    "We couldn't start signing you in with that provider. Please try again.",
  "signIn.error.OAuthCallbackError":
    "Signing in with that provider didn't complete. Please try again.",
  "signIn.error.CreateAccount":
    "We couldn't create your account. Try again, or choose another way to sign in.",
  "signIn.error.Callback": "Something went wrong while signing you in. Please try again.",
  "signIn.error.AccountNotLinked":
    "To confirm your identity, sign in with the same method you used when you first signed up.",
  "signIn.error.EmailSignin":
    "We couldn't send the sign-in email. Check the address and try again.",
  "signIn.error.CredentialsSignin": "Sign in failed. Check the details you provided are correct.",
  "signIn.error.SessionRequired": "Please sign in to access this page.",
  "signIn.error.MissingCSRF": "Your sign-in form expired. Please try again.",
  "signIn.error.Verification":
    "That sign-in link is no longer valid. It may have been used already or it may have expired.",
  "signIn.error.WebAuthnVerificationError": "We couldn't verify your passkey. Please try again.",
  "signIn.error.RateLimited": "Too many sign-in attempts. Please wait a minute, then try again.",
  "signIn.error.default": "Unable to sign in. Please try again.",
  "signIn.error.addressRefused":
    "That e-mail address was not accepted. {reason} Correct it and try again.",

  "address.address-required": "Enter your e-mail address.",
  "address.address-too-long": "That e-mail address is too long.",
  "address.address-at-lookalike":
    "That e-mail address contains a character that looks like @ but is not one.",
  "address.address-quoted": "E-mail addresses with quotes are not accepted.",
  "address.address-one-at": "An e-mail address has exactly one @.",
  "address.address-local-part": "The part before the @ contains characters an address cannot have.",
  "address.address-domain": "The part after the @ is not a domain name (like example.com).",

  "signOut.title": "Sign out",
  "signOut.question": "Are you sure you want to sign out?",
  "signOut.submit": "Sign out",
  "signOut.cancel": "Cancel",

  "error.Configuration.title": "Server error",
  "error.Configuration.message":
    "There is a problem with the server configuration. Check the server logs for more information.",
  "error.AccessDenied.title": "Access denied",
  "error.AccessDenied.message": "You do not have permission to sign in.",
  "error.Verification.title": "Unable to sign in",
  "error.Verification.message":
    "The sign-in link is no longer valid. It may have been used already or it may have expired.",
  "error.UserBanned.title": "Account suspended",
  "error.UserBanned.message":
    "This account is suspended and cannot sign in. If you think this is a mistake, contact the site's support.",
  "error.SignOutError.title": "Sign-out incomplete",
  "error.SignOutError.message":
    "You are signed out on this device, but your session could not be ended everywhere right now: a copy of it on another device may still be signed in. If you signed in on a device you no longer control, contact the site's support.",
  "error.default.title": "Something went wrong",
  "error.default.message": "An unexpected error occurred. Please try again.",
  "error.homePage": "Go to the home page",
  "error.backToSignIn": "Back to sign in",
  "error.details": "Details (debug mode)",

  "page.goTo": "Go to {host}",

  "verifyRequest.title": "Check your email",
  "verifyRequest.sent": "We sent you a sign-in link.",
  "verifyRequest.openLink":
    "Open the link in the email to finish signing in. You can close this tab.",
  "verifyRequest.noEmail": "No email? Check your spam folder or {tryAgain}.",
  "verifyRequest.tryAgain": "try again",
  "verifyRequest.code.label": "Or enter the 6-digit code from the email",
  "verifyRequest.code.submit": "Sign in",
  "verifyRequest.code.CodeInvalid": "That code is not right. Check the email and try again.",
  "verifyRequest.code.CodeExpired":
    "This code can no longer be used: it expired, was already used, or was tried too often. Request a new email.",
  "verifyRequest.code.RateLimited": "Too many attempts. Wait a minute, then try again.",

  "email.subject": "Sign in to {host}",
  "email.preview": "Your sign-in link for {host}. It expires in {lifetime}.",
  "email.pressButton": "Press the button below to sign in.",
  "email.thisLinkExpires": "This link expires in {lifetime} and can be used only once.",
  "email.theLinkExpires": "The link expires in {lifetime} and can be used only once.",
  "email.button": "Sign in",
  "email.orCode": "Or enter this code:",
  "email.copyLink": "If the button does not work, copy this link into your browser:",
  "email.openLink": "Open this link to sign in:",
  "email.ignore": "If you did not ask to sign in, you can safely ignore this e-mail.",
  "email.neverForward": "Never forward it: anyone with the link can sign in as you.",
} as const;

/** The keys and English texts of the core's dictionary. */
export type CoreMessages = typeof en;
