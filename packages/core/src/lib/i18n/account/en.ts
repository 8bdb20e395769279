/**
 * The English texts of the built-in account page: the reference for its translations
 * (translations.ts). `notice` and `error` query parameters are only ever used as keys into this
 * dictionary (the raw value is never printed).
 */
export const en = {
  "account.title": "Your account",
  "account.subtitle": "Manage how you sign in and where you are signed in.",
  "account.signOut": "Sign out",
  "account.profileHeading": "Profile",
  "account.nameLabel": "Name",
  "account.saveName": "Save name",
  "account.emailLabel": "E-mail",
  "account.emailNone": "No e-mail address",
  "account.emailUnverified": "not verified",
  "account.changeEmail": "Change e-mail",
  "account.sessionsHeading": "Sessions and devices",
  "account.sessionsHint": "Where you are signed in. End a session you do not recognise.",
  "account.unknownDevice": "Unknown device",
  "account.thisDevice": "This device",
  "account.lastSeen": "Last active",
  "account.signedInAt": "Signed in",
  "account.endSession": "End session",
  "account.endOtherSessions": "Sign out all other devices",
  "account.methodsHeading": "Sign-in methods",
  "account.methodsHint":
    "Accounts you can sign in with. Link another, or unlink one you no longer use.",
  "account.unlink": "Unlink",
  "account.lastMethod": "Your only way to sign in: link another before unlinking it.",
  "account.linkProvider": "Link {provider}",
  "account.noLinkedAccounts": "No linked accounts yet.",
  "account.passkeysHeading": "Passkeys",
  "account.passkeysHint":
    "Sign in with your fingerprint, face or screen lock instead of a password.",
  "account.noPasskeys": "No passkeys yet.",
  "account.unnamedPasskey": "Unnamed passkey",
  "account.passkeyName": "Passkey name",
  "account.rename": "Rename",
  "account.delete": "Delete",
  "account.synced": "Synced",
  "account.thisDeviceOnly": "On one device",
  "account.created": "Created",
  "account.lastUsed": "Last used",
  "account.never": "never",
  "account.addPasskey": "Add a passkey",
  "account.twoFactorHeading": "Two-factor authentication",
  "account.twoFactorOn": "On. {count} backup codes left.",
  "account.twoFactorOff": "Off. Add a code from an authenticator app to every sign-in.",
  "account.manageTwoFactor": "Manage two-factor authentication",
  "account.setUpTwoFactor": "Set up two-factor authentication",
  "account.passwordHeading": "Password",
  "account.passwordSet": "You sign in with a password.",
  "account.passwordNotSet": "You have no password.",
  "account.changePassword": "Change password",
  "account.deleteAccount": "Delete account",
  "account.requestFailed": "That did not work. Reload the page and try again.",
  "account.passkeyLastWayIn":
    "This passkey is your only way to sign in. Link another method (or add another passkey) first.",
  // Notices after a change (the `notice` query parameter).
  "account.notice.name-saved": "Your name was saved.",
  "account.notice.unlinked": "The sign-in method was unlinked.",
  // Refusals (the `error` query parameter).
  "account.error.MissingCSRF": "The form expired. Please try again.",
  "account.error.NameInvalid": "Use a name of at most 100 characters.",
  "account.error.NotLinked": "That sign-in method is not linked to your account.",
  "account.error.LastSignInMethod":
    "That is your only way to sign in. Link another method (or add a passkey) first.",
  "account.error.StepUpRequired": "Sign in again to confirm it's you, then unlink it.",
  "account.error.Failed": "Something went wrong. Please try again.",
} as const;

/** The keys and English texts of the account page's dictionary. */
export type AccountMessages = typeof en;
