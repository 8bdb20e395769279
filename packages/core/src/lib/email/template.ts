/**
 * The default sign-in e-mail: a subject, an HTML card with one big button in the brand colour,
 * and a plain-text alternative. Every interpolated value is escaped (the `html` template), colours
 * pass an allow-list (they land in `style` attributes), and there are no remote images (they
 * leak when and where the mail is opened, and most clients block them anyway).
 */
import type { Theme } from "../../types.js";
import type { CoreMessages } from "../i18n/core/en.js";
import { coreMessages } from "../i18n/core/index.js";
import { type MessageOverrides, negotiateTranslator } from "../i18n/messages.js";
import { escapeHtml, html, raw, type SafeHtml } from "../pages/html.js";
import { safeHttpUrl } from "../pages/security.js";
import {
  emailButtonRow,
  emailCodeRow,
  emailDocument,
  emailStyle,
  type VerificationEmail,
} from "./card.js";

export type { VerificationEmail } from "./card.js";

/** What the default e-mail is built from. */
export interface VerificationEmailInput {
  /** The sign-in link. */
  url: string;
  /** When the link stops working. */
  expires: Date;
  theme?: Theme;
  /**
   * A 6-digit code that does what the link does, shown under the button (for a phone whose mail
   * app opens links in another browser than the one waiting for it).
   */
  code?: string;
  /** The language to write in (BCP 47; default English), matched like `Accept-Language`. */
  locale?: string;
  /** The app's texts for the e-mail, by locale (the config's `messages`). */
  messages?: MessageOverrides<CoreMessages>;
}

/**
 * "24 hours", "15 minutes", "3 days" (in `locale`: "24 Stunden", "24時間"): the rounded time
 * until `expires`, worded by `Intl.NumberFormat`'s long units, which know each language's plurals.
 */
export function describeLifetime(expires: Date, now = Date.now(), locale = "en"): string {
  const seconds = Math.max(0, (expires.valueOf() - now) / 1000);
  const format = (n: number, unit: "minute" | "hour" | "day") =>
    new Intl.NumberFormat(locale, { style: "unit", unit, unitDisplay: "long" }).format(n);
  const minutes = Math.max(1, Math.round(seconds / 60));
  if (minutes < 60) return format(minutes, "minute");
  const hours = Math.round(seconds / 3600);
  if (hours < 48) return format(hours, "hour");
  return format(Math.round(seconds / 86400), "day");
}

/**
 * The host with a zero-width space before each dot, so that mail clients do not turn
 * "Sign in to example.com" into a link of their own (which phishers could imitate).
 */
function unlinkedHost(host: string): SafeHtml {
  return raw(escapeHtml(host).replace(/\./g, "&#8203;."));
}

/**
 * Renders the default sign-in e-mail for `url`.
 *
 * @example
 * ```ts
 * const { subject, html, text } = renderVerificationEmail({
 *   url: "https://app.test/auth/callback/email?token=…", expires, theme: { brandColor: "#4f46e5" },
 * })
 * subject // "Sign in to app.test"
 * ```
 */
export function renderVerificationEmail(input: VerificationEmailInput): VerificationEmail {
  const link = new URL(input.url);
  // Only an http(s) link may become a button; anything else would be a script or data URL.
  const href = safeHttpUrl(input.url, link);
  if (!href) throw new TypeError("The sign-in link must be an http(s) URL.");
  const host = link.host;
  const style = emailStyle(input.theme);
  const { palette } = style;
  const t = negotiateTranslator(coreMessages, input.locale, input.messages);
  const lifetime = describeLifetime(input.expires, Date.now(), t.locale);
  const subject = t("email.subject", { host });
  const codeRow = emailCodeRow(t("email.orCode"), input.code, style);
  const code = codeRow ? input.code : undefined;
  const body = emailDocument({
    subject,
    preheader: t("email.preview", { host, lifetime }),
    language: t,
    style,
    heading: t.html("email.subject", { host: unlinkedHost(host) }),
    intro: html`<p style="margin:0;font-size:15px;line-height:1.6;color:${palette.muted};">${t("email.pressButton")} ${t("email.thisLinkExpires", { lifetime })}</p>
`,
    rows: [emailButtonRow(href, t("email.button"), style, "28px 32px"), codeRow],
    footer: html`<p style="margin:0 0 8px;">${t("email.copyLink")}</p>
<p style="margin:0 0 16px;word-break:break-all;"><a href="${href}" target="_blank" style="color:${palette.muted};">${href}</a></p>
<p style="margin:0;padding-top:16px;border-top:1px solid ${palette.border};">${t("email.ignore")} ${t("email.neverForward")}</p>
`,
  });

  const text = [
    subject,
    "",
    t("email.openLink"),
    href,
    "",
    ...(code ? [`${t("email.orCode")} ${code}`, ""] : []),
    t("email.theLinkExpires", { lifetime }),
    t("email.ignore"),
    t("email.neverForward"),
    "",
  ].join("\n");

  return { subject, html: body.toString(), text };
}
