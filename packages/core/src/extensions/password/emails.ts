/**
 * The password extension's own e-mails where the sign-in e-mail's wording would be wrong: the code
 * that confirms a new address, and the notice to the old address once the account moved. The
 * strings are keyed (`PASSWORD_EMAIL_MESSAGES`) so that a translation replaces them as a whole.
 */
import { renderEmailCard } from "../../lib/email/card.js";
import { describeLifetime, type VerificationEmail } from "../../lib/email/template.js";
import type { Theme } from "../../types.js";

/** The wording of the password e-mails, keyed; `{host}`, `{email}`, `{lifetime}` are filled in. */
export const PASSWORD_EMAIL_MESSAGES = {
  changeEmailSubject: "Confirm your new address for {host}",
  changeEmailPreheader: "Confirm {email} as your address for {host}. It expires in {lifetime}.",
  changeEmailHeading: "Confirm your new e-mail address",
  changeEmailIntro:
    "You asked to use {email} for your account on {host}. Press the button below, or enter the code, to confirm it. Until then your old address stays in use.",
  changeEmailExpiry: "The link and the code expire in {lifetime} and can be used only once.",
  changeEmailButton: "Confirm new address",
  changeEmailCodeLabel: "Or enter this code:",
  changeEmailFooter:
    "If you did not ask for this, ignore this e-mail: nothing changes until the code is entered.",
  emailChangedSubject: "Your address for {host} was changed",
  emailChangedPreheader: "Your account on {host} now uses {email}.",
  emailChangedHeading: "Your e-mail address was changed",
  emailChangedIntro:
    "The e-mail address of your account on {host} was changed to {email}. Sign-in e-mails and password resets now go there, and every session of the account was signed out.",
  emailChangedAction:
    "If you did not make this change, someone else may control your account: reset your password from the button below at once, and contact the site.",
  emailChangedButton: "Reset password",
  emailChangedFooter:
    "This notice went to your previous address, which the account no longer uses.",
} as const;

/** The keys of {@link PASSWORD_EMAIL_MESSAGES}. */
export type PasswordEmailMessages = Record<keyof typeof PASSWORD_EMAIL_MESSAGES, string>;

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}

/** What both e-mails are built from. */
export interface PasswordNoticeInput {
  /** The confirmation link (change) or the "forgot password" page (notice). */
  url: string;
  /** The new address. */
  newEmail: string;
  expires: Date;
  /** The code (the change e-mail only). */
  code?: string;
  theme?: Theme;
  messages?: Partial<PasswordEmailMessages>;
}

/**
 * The e-mail to the new address that confirms a change of address: a button, the code, and
 * that the old address stays until it is confirmed.
 *
 * @example
 * ```ts
 * renderChangeEmail({ url, newEmail: "ada@example.com", code: "123456", expires }).subject
 * // "Confirm your new address for app.test"
 * ```
 */
export function renderChangeEmail(input: PasswordNoticeInput): VerificationEmail {
  const m = { ...PASSWORD_EMAIL_MESSAGES, ...input.messages };
  const values = {
    host: new URL(input.url).host,
    email: input.newEmail,
    lifetime: describeLifetime(input.expires),
  };
  return renderEmailCard({
    subject: fill(m.changeEmailSubject, values),
    preheader: fill(m.changeEmailPreheader, values),
    heading: fill(m.changeEmailHeading, values),
    paragraphs: [fill(m.changeEmailIntro, values), fill(m.changeEmailExpiry, values)],
    button: { label: fill(m.changeEmailButton, values), url: input.url },
    ...(input.code && { code: { label: fill(m.changeEmailCodeLabel, values), value: input.code } }),
    footer: fill(m.changeEmailFooter, values),
    ...(input.theme && { theme: input.theme }),
  });
}

/**
 * The notice to the old address after the account moved: where it went, that sessions ended,
 * and the way back (a password reset) if the owner did not make the change (account takeover).
 *
 * @example
 * ```ts
 * renderEmailChangedNotice({ url: forgotUrl, newEmail: "countess@example.com", expires }).subject
 * // "Your address for app.test was changed"
 * ```
 */
export function renderEmailChangedNotice(input: PasswordNoticeInput): VerificationEmail {
  const m = { ...PASSWORD_EMAIL_MESSAGES, ...input.messages };
  const values = {
    host: new URL(input.url).host,
    email: input.newEmail,
    lifetime: describeLifetime(input.expires),
  };
  return renderEmailCard({
    subject: fill(m.emailChangedSubject, values),
    preheader: fill(m.emailChangedPreheader, values),
    heading: fill(m.emailChangedHeading, values),
    paragraphs: [fill(m.emailChangedIntro, values), fill(m.emailChangedAction, values)],
    button: { label: fill(m.emailChangedButton, values), url: input.url },
    footer: fill(m.emailChangedFooter, values),
    ...(input.theme && { theme: input.theme }),
  });
}
