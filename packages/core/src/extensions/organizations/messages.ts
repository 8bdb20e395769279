/**
 * Every text of the built-in invitation page, by key, so that a translation replaces this one
 * object. `{organization}`, `{role}` and `{email}` are filled in (escaped) where a text names them.
 */
export const INVITATION_MESSAGES = {
  title: "Invitation",
  heading: "You're invited",
  openSubtitle: "{organization} invites you to join as {role}.",
  accept: "Accept invitation",
  decline: "Decline",
  signedOutSubtitle:
    "Sign in with the e-mail address this invitation was sent to, to see and answer it.",
  signIn: "Sign in",
  otherAddressSubtitle:
    "This invitation was sent to another address. You're signed in as {email}: sign out, then sign in with the invited address.",
  signOut: "Sign out",
  closedHeading: "Invitation no longer open",
  closedSubtitle:
    "This invitation was already answered, revoked, or has expired. Ask for a new one if you still want to join.",
  acceptedHeading: "Welcome",
  acceptedSubtitle: "You're now a member of {organization}.",
  declinedHeading: "Invitation declined",
  declinedSubtitle: "You declined the invitation to {organization}.",
  continue: "Continue",
  expiredForm: "The form expired. Reload the page and try again.",
} as const;

/** The keys of {@link INVITATION_MESSAGES}. */
export type InvitationMessageKey = keyof typeof INVITATION_MESSAGES;

/** The text of `key` with its `{placeholders}` filled in from `values` (unknown ones left out). */
export function invitationText(
  key: InvitationMessageKey,
  values: Readonly<Record<string, string>> = {},
): string {
  return INVITATION_MESSAGES[key].replace(/\{(\w+)\}/g, (_, name: string) =>
    Object.hasOwn(values, name) ? (values[name] ?? "") : "",
  );
}
