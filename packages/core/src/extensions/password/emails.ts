/**
 * The password extension's own e-mails where the sign-in e-mail's wording would be wrong: the code
 * that confirms a new address, and the notice to the old address once the account moved. Their
 * texts are in the extension's dictionary (`password.changeEmailMail.*`,
 * `password.emailChangedMail.*`), in the reader's language like the sign-in e-mail.
 */
import { renderEmailCard } from "../../lib/email/card.js";
import { describeLifetime, type VerificationEmail } from "../../lib/email/template.js";
import {
  type MessageOverrides,
  negotiateTranslator,
  type Translation,
  type Translator,
} from "../../lib/i18n/messages.js";
import type { Theme } from "../../types.js";
import { type PasswordMessages, passwordMessages } from "./messages/index.js";

/** The keys of the former `emailMessages` option, and the dictionary keys they now stand for. */
const EMAIL_MESSAGE_KEYS = {
  changeEmailSubject: "password.changeEmailMail.subject",
  changeEmailPreheader: "password.changeEmailMail.preheader",
  changeEmailHeading: "password.changeEmailMail.heading",
  changeEmailIntro: "password.changeEmailMail.intro",
  changeEmailExpiry: "password.changeEmailMail.expiry",
  changeEmailButton: "password.changeEmailMail.button",
  changeEmailCodeLabel: "password.changeEmailMail.codeLabel",
  changeEmailFooter: "password.changeEmailMail.footer",
  emailChangedSubject: "password.emailChangedMail.subject",
  emailChangedPreheader: "password.emailChangedMail.preheader",
  emailChangedHeading: "password.emailChangedMail.heading",
  emailChangedIntro: "password.emailChangedMail.intro",
  emailChangedAction: "password.emailChangedMail.action",
  emailChangedButton: "password.emailChangedMail.button",
  emailChangedFooter: "password.emailChangedMail.footer",
} as const satisfies Record<string, keyof PasswordMessages>;

/** The keys of `password({ emailMessages })`. */
export type PasswordEmailMessages = Record<keyof typeof EMAIL_MESSAGE_KEYS, string>;

/**
 * The English wording of the two e-mails under the keys of `password({ emailMessages })`.
 *
 * @deprecated The texts are in `passwordMessages` (`password.changeEmailMail.*`,
 * `password.emailChangedMail.*`) in every language Tessera ships; override them with
 * `password({ messages })`.
 */
export const PASSWORD_EMAIL_MESSAGES: PasswordEmailMessages = Object.fromEntries(
  Object.entries(EMAIL_MESSAGE_KEYS).map(([name, key]) => [name, passwordMessages.en[key]]),
) as PasswordEmailMessages;

/**
 * The app's `password({ messages })` with the words of `password({ emailMessages })` laid over
 * every language (they were written for whatever language the app speaks, so they win in all).
 */
export function withEmailMessages(
  overrides: MessageOverrides<PasswordMessages> | undefined,
  emailMessages: Partial<PasswordEmailMessages> | undefined,
): MessageOverrides<PasswordMessages> | undefined {
  if (!emailMessages || Object.keys(emailMessages).length === 0) return overrides;
  const words: Record<string, string> = {};
  for (const [name, key] of Object.entries(EMAIL_MESSAGE_KEYS)) {
    const text = emailMessages[name as keyof PasswordEmailMessages];
    if (typeof text === "string") words[key] = text;
  }
  const locales = new Set(["en", ...Object.keys(passwordMessages.translations)]);
  for (const locale of Object.keys(overrides ?? {})) locales.add(locale);
  const merged: Record<string, Translation<PasswordMessages>> = {};
  for (const locale of locales) merged[locale] = { ...overrides?.[locale], ...words };
  return merged;
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
  /**
   * The reader's language, a BCP 47 tag matched like an `Accept-Language` range (`"pt"` is
   * `pt-BR`); default English.
   */
  locale?: string;
  /** The app's texts, as given to `password({ messages })`. */
  overrides?: MessageOverrides<PasswordMessages>;
  /**
   * Words for every language, by the keys of {@link PASSWORD_EMAIL_MESSAGES}.
   *
   * @deprecated Use `overrides` (`password({ messages })`), which is by language.
   */
  messages?: Partial<PasswordEmailMessages>;
}

function translatorOf(input: PasswordNoticeInput): Translator<PasswordMessages> {
  return negotiateTranslator(
    passwordMessages,
    input.locale ?? "en",
    withEmailMessages(input.overrides, input.messages),
  );
}

/** What both notices' texts fill in: the app's host, the new address, the link's lifetime. */
function noticeValues(input: PasswordNoticeInput, t: Translator<PasswordMessages>) {
  return {
    host: new URL(input.url).host,
    email: input.newEmail,
    lifetime: describeLifetime(input.expires, Date.now(), t.locale),
  };
}

/**
 * The e-mail to the new address that confirms a change of address: a button, the code, and
 * that the old address stays until it is confirmed.
 *
 * @example
 * ```ts
 * renderChangeEmail({ url, newEmail: "ada@example.com", code: "123456", expires, locale: "de" }).subject
 * // "Bestätigen Sie Ihre neue Adresse für app.test"
 * ```
 */
export function renderChangeEmail(input: PasswordNoticeInput): VerificationEmail {
  const t = translatorOf(input);
  const values = noticeValues(input, t);
  return renderEmailCard({
    subject: t("password.changeEmailMail.subject", values),
    preheader: t("password.changeEmailMail.preheader", values),
    heading: t("password.changeEmailMail.heading", values),
    paragraphs: [
      t("password.changeEmailMail.intro", values),
      t("password.changeEmailMail.expiry", values),
    ],
    button: { label: t("password.changeEmailMail.button", values), url: input.url },
    ...(input.code && {
      code: { label: t("password.changeEmailMail.codeLabel", values), value: input.code },
    }),
    footer: t("password.changeEmailMail.footer", values),
    language: t,
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
  const t = translatorOf(input);
  const values = noticeValues(input, t);
  return renderEmailCard({
    subject: t("password.emailChangedMail.subject", values),
    preheader: t("password.emailChangedMail.preheader", values),
    heading: t("password.emailChangedMail.heading", values),
    paragraphs: [
      t("password.emailChangedMail.intro", values),
      t("password.emailChangedMail.action", values),
    ],
    button: { label: t("password.emailChangedMail.button", values), url: input.url },
    footer: t("password.emailChangedMail.footer", values),
    language: t,
    ...(input.theme && { theme: input.theme }),
  });
}
