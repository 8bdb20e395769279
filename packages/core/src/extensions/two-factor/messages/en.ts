/**
 * The English texts of the two-factor pages: the reference dictionary of the extension, loaded
 * only by apps that use it. Each translation (messages/<locale>.ts) has the same keys.
 */
export const en = {
  "twoFactor.title": "Two-factor authentication",
  "twoFactor.challenge.subtitle": "Enter the 6-digit code from your authenticator app.",
  "twoFactor.challenge.codeLabel": "Authentication code",
  "twoFactor.challenge.verify": "Verify",
  "twoFactor.challenge.trust": "Don't ask again on this browser for {days} days",
  "twoFactor.backup.use": "Use a backup code",
  "twoFactor.backup.label": "Backup code",
  "twoFactor.backup.submit": "Use backup code",
  "twoFactor.passkey.use": "Use a passkey",
  "twoFactor.emailCode.send": "E-mail me a code",
  "twoFactor.emailCode.sent": "We sent a code. It works for 10 minutes.",
  "twoFactor.emailCode.sentTo": "We sent a code to {address}. It works for 10 minutes.",
  "twoFactor.emailCode.label": "Code from the e-mail",
  "twoFactor.emailCode.submit": "Verify e-mailed code",
  "twoFactor.enrol.title": "Set up two-factor authentication",
  "twoFactor.enrol.required":
    "This site asks for a second factor. Set up an authenticator app to finish signing in.",
  "twoFactor.enrol.optional": "Protect your account with a code from an authenticator app.",
  "twoFactor.enrol.start": "Set up authenticator app",
  "twoFactor.enrol.scanHeading": "Scan the QR code",
  "twoFactor.enrol.scanSubtitle":
    "Scan it with your authenticator app, then enter the code it shows.",
  "twoFactor.enrol.qrLabel": "QR code for your authenticator app",
  "twoFactor.enrol.manualKey": "Or enter this key by hand:",
  "twoFactor.enrol.codeLabel": "Code from the app",
  "twoFactor.enrol.confirm": "Confirm",
  "twoFactor.backupCodes.title": "Backup codes",
  "twoFactor.backupCodes.heading": "Save your backup codes",
  "twoFactor.backupCodes.newHeading": "Your new backup codes",
  "twoFactor.backupCodes.subtitle":
    "Each code signs you in once if you lose your authenticator app. They are shown only now: print them or keep them somewhere safe.",
  "twoFactor.backupCodes.continue": "Continue",
  "twoFactor.manage.on": "Two-factor authentication is on. {count} backup codes left.",
  "twoFactor.manage.off": "Two-factor authentication is off.",
  "twoFactor.manage.codeLabel": "Authentication or backup code",
  "twoFactor.manage.newBackupCodes": "New backup codes",
  "twoFactor.manage.turnOff": "Turn off two-factor authentication",
  "twoFactor.reauthenticate.title": "Confirm it's you",
  "twoFactor.reauthenticate.subtitle":
    "Enter a code from your authenticator app (or a backup code) to continue.",
  "twoFactor.reauthenticate.continue": "Continue",
  "twoFactor.error.wrongCode": "That code did not work. Check it and try again.",
  "twoFactor.error.tooMany": "Too many attempts. Wait a minute, then try again.",
} as const;

/** The keys and English texts of the two-factor dictionary. */
export type TwoFactorMessages = typeof en;
