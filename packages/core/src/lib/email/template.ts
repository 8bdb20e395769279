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
import { readableTextOn, safeColor, safeHttpUrl } from "../pages/security.js";

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

/** A rendered e-mail. */
export interface VerificationEmail {
  subject: string;
  html: string;
  text: string;
}

const DEFAULT_BRAND = "#18181b";

const PALETTES = {
  light: { page: "#f4f4f5", card: "#ffffff", text: "#18181b", muted: "#52525b", border: "#e4e4e7" },
  dark: { page: "#09090b", card: "#18181b", text: "#fafafa", muted: "#a1a1aa", border: "#27272a" },
} as const;

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
  const theme = input.theme ?? {};
  const palette = PALETTES[theme.colorScheme === "dark" ? "dark" : "light"];
  const brand = safeColor(theme.brandColor) ?? DEFAULT_BRAND;
  const buttonText = safeColor(theme.buttonText) ?? readableTextOn(brand);
  const colorScheme =
    theme.colorScheme === "dark" ? "dark" : theme.colorScheme === "light" ? "light" : "light dark";
  const t = negotiateTranslator(coreMessages, input.locale, input.messages);
  const lifetime = describeLifetime(input.expires, Date.now(), t.locale);
  const subject = t("email.subject", { host });
  const font =
    "font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";

  // Only six digits are ever shown: anything else in `code` is not a code this e-mail may carry.
  const code = input.code && /^\d{6}$/.test(input.code) ? input.code : undefined;
  const codeRow = code
    ? html`<tr><td align="center" style="padding:0 32px 28px;${font};color:${palette.text};">
<p style="margin:0 0 8px;font-size:14px;color:${palette.muted};">${t("email.orCode")}</p>
<p style="margin:0;font-size:28px;font-weight:600;letter-spacing:6px;font-family:ui-monospace,Menlo,monospace;">${code}</p>
</td></tr>
`
    : null;
  const body = html`<!doctype html>
<html lang="${t.locale}"${t.dir === "rtl" ? html` dir="rtl"` : null}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="color-scheme" content="${colorScheme}">
<meta name="supported-color-schemes" content="${colorScheme}">
<title>${subject}</title>
</head>
<body style="margin:0;padding:0;background:${palette.page};">
<div style="display:none;max-height:0;overflow:hidden;">${t("email.preview", { host, lifetime })}</div>
<table role="presentation" width="100%" cellspacing="0" cellpadding="0" border="0" style="background:${palette.page};">
<tr><td align="center" style="padding:40px 16px;">
<table role="presentation" width="100%" cellspacing="0" cellpadding="0" border="0" style="max-width:480px;background:${palette.card};border:1px solid ${palette.border};border-radius:12px;">
<tr><td style="padding:40px 32px 8px;${font};color:${palette.text};">
<h1 style="margin:0 0 12px;font-size:22px;line-height:1.3;font-weight:600;">${t.html("email.subject", { host: unlinkedHost(host) })}</h1>
<p style="margin:0;font-size:15px;line-height:1.6;color:${palette.muted};">${t("email.pressButton")} ${t("email.thisLinkExpires", { lifetime })}</p>
</td></tr>
<tr><td align="center" style="padding:28px 32px;">
<table role="presentation" cellspacing="0" cellpadding="0" border="0"><tr>
<td align="center" bgcolor="${brand}" style="border-radius:8px;background:${brand};">
<a href="${href}" target="_blank" style="display:inline-block;padding:14px 32px;${font};font-size:16px;font-weight:600;line-height:1.2;color:${buttonText};text-decoration:none;border-radius:8px;">${t("email.button")}</a>
</td></tr></table>
</td></tr>
${codeRow}<tr><td style="padding:0 32px 32px;${font};color:${palette.muted};font-size:13px;line-height:1.6;">
<p style="margin:0 0 8px;">${t("email.copyLink")}</p>
<p style="margin:0 0 16px;word-break:break-all;"><a href="${href}" target="_blank" style="color:${palette.muted};">${href}</a></p>
<p style="margin:0;padding-top:16px;border-top:1px solid ${palette.border};">${t("email.ignore")} ${t("email.neverForward")}</p>
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>`;

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
