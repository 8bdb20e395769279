/**
 * The English texts of the built-in invitation page: the reference dictionary of the
 * organisations extension, loaded only by apps that use it. Each translation (translations.ts)
 * has the same keys; `{organization}`, `{role}` and `{email}` are filled in (escaped).
 */
export const en = {
  "organizations.invitation.title": "Invitation",
  "organizations.invitation.heading": "You're invited",
  "organizations.invitation.openSubtitle": "{organization} invites you to join as {role}.",
  "organizations.invitation.accept": "Accept invitation",
  "organizations.invitation.decline": "Decline",
  "organizations.invitation.signedOutSubtitle":
    "Sign in with the e-mail address this invitation was sent to, to see and answer it.",
  "organizations.invitation.signIn": "Sign in",
  "organizations.invitation.otherAddressSubtitle":
    "This invitation was sent to another address. You're signed in as {email}: sign out, then sign in with the invited address.",
  "organizations.invitation.signOut": "Sign out",
  "organizations.invitation.closedHeading": "Invitation no longer open",
  "organizations.invitation.closedSubtitle":
    "This invitation was already answered, revoked, or has expired. Ask for a new one if you still want to join.",
  "organizations.invitation.acceptedHeading": "Welcome",
  "organizations.invitation.acceptedSubtitle": "You're now a member of {organization}.",
  "organizations.invitation.declinedHeading": "Invitation declined",
  "organizations.invitation.declinedSubtitle": "You declined the invitation to {organization}.",
  "organizations.invitation.continue": "Continue",
} as const;

/** The keys and English texts of the organisations dictionary. */
export type OrganizationMessages = typeof en;
