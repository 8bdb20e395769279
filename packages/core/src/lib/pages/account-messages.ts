/**
 * Every user-facing text of the built-in account page, by key (English). The page and its
 * script read texts only from here, so a translation is this object with other values; `notice`
 * and `error` query parameters are only ever used as keys into it (the raw value is never
 * printed).
 */
export const ACCOUNT_MESSAGES = {
  title: "Your account",
  subtitle: "Manage how you sign in and where you are signed in.",
  signOut: "Sign out",
  profileHeading: "Profile",
  nameLabel: "Name",
  saveName: "Save name",
  emailLabel: "E-mail",
  emailNone: "No e-mail address",
  emailUnverified: "not verified",
  changeEmail: "Change e-mail",
  sessionsHeading: "Sessions and devices",
  sessionsHint: "Where you are signed in. End a session you do not recognise.",
  unknownDevice: "Unknown device",
  thisDevice: "This device",
  lastSeen: "Last active",
  signedInAt: "Signed in",
  endSession: "End session",
  endOtherSessions: "Sign out all other devices",
  methodsHeading: "Sign-in methods",
  methodsHint: "Accounts you can sign in with. Link another, or unlink one you no longer use.",
  unlink: "Unlink",
  lastMethod: "Your only way to sign in: link another before unlinking it.",
  linkProvider: "Link {provider}",
  noLinkedAccounts: "No linked accounts yet.",
  passkeysHeading: "Passkeys",
  passkeysHint: "Sign in with your fingerprint, face or screen lock instead of a password.",
  noPasskeys: "No passkeys yet.",
  unnamedPasskey: "Unnamed passkey",
  passkeyName: "Passkey name",
  rename: "Rename",
  delete: "Delete",
  synced: "Synced",
  thisDeviceOnly: "On one device",
  created: "Created",
  lastUsed: "Last used",
  never: "never",
  addPasskey: "Add a passkey",
  twoFactorHeading: "Two-factor authentication",
  twoFactorOn: "On. {count} backup codes left.",
  twoFactorOff: "Off. Add a code from an authenticator app to every sign-in.",
  manageTwoFactor: "Manage two-factor authentication",
  setUpTwoFactor: "Set up two-factor authentication",
  passwordHeading: "Password",
  passwordSet: "You sign in with a password.",
  passwordNotSet: "You have no password.",
  changePassword: "Change password",
  deleteAccount: "Delete account",
  requestFailed: "That did not work. Reload the page and try again.",
  passkeyLastWayIn:
    "This passkey is your only way to sign in. Link another method (or add another passkey) first.",
  // Notices after a change (the `notice` query parameter).
  "notice.name-saved": "Your name was saved.",
  "notice.unlinked": "The sign-in method was unlinked.",
  // Refusals (the `error` query parameter).
  "error.MissingCSRF": "The form expired. Please try again.",
  "error.NameInvalid": "Use a name of at most 100 characters.",
  "error.NotLinked": "That sign-in method is not linked to your account.",
  "error.LastSignInMethod":
    "That is your only way to sign in. Link another method (or add a passkey) first.",
  "error.StepUpRequired": "Sign in again to confirm it's you, then unlink it.",
  "error.Failed": "Something went wrong. Please try again.",
} as const;

/** A key of {@link ACCOUNT_MESSAGES}. */
export type AccountMessageKey = keyof typeof ACCOUNT_MESSAGES;

/**
 * The text of `key` with `{name}` placeholders filled in.
 *
 * @example
 * ```ts
 * accountText("linkProvider", { provider: "GitHub" }) // "Link GitHub"
 * ```
 */
export function accountText(key: AccountMessageKey, values: Record<string, string> = {}): string {
  return ACCOUNT_MESSAGES[key].replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(values, name) ? (values[name] ?? whole) : whole,
  );
}

/** The message for a notice or error query value, or undefined when it names none. */
export function accountQueryText(
  kind: "notice" | "error",
  value: string | undefined,
): string | undefined {
  if (value === undefined) return undefined;
  const key = `${kind}.${value}`;
  // hasOwn, not `in`: `?error=constructor` must not reach Object.prototype.
  return Object.hasOwn(ACCOUNT_MESSAGES, key)
    ? ACCOUNT_MESSAGES[key as AccountMessageKey]
    : undefined;
}
