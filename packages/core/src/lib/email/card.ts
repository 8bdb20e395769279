/**
 * The layout of Tessera's notice e-mails: an HTML card in the look of the sign-in e-mail
 * (`template.ts`), with an optional button in the brand colour and an optional code, and its
 * plain-text alternative. Every interpolated value is escaped (the `html` template), colours pass
 * an allow-list (they land in `style` attributes), and there are no remote images (they leak when
 * and where the mail is opened).
 */
import type { Theme } from "../../types.js";
import { html, type SafeHtml } from "../pages/html.js";
import { readableTextOn, safeColor, safeHttpUrl } from "../pages/security.js";
import type { VerificationEmail } from "./template.js";

/** What a notice e-mail is made of; every string is plain text (escaped when rendered). */
export interface EmailCard {
  subject: string;
  /** The line mail clients show next to the subject. */
  preheader: string;
  heading: string;
  /** Paragraphs under the heading. */
  paragraphs: string[];
  /** A button to `url` labelled `label` (an http(s) URL only). */
  button?: { label: string; url: string };
  /** A 6-digit code with the line that introduces it. */
  code?: { label: string; value: string };
  /** The closing paragraph under a rule (what to do if the mail was not expected). */
  footer: string;
  theme?: Theme;
  /** The e-mail's language and writing direction (`<html lang dir>`); default English. */
  language?: { readonly locale: string; readonly dir: "ltr" | "rtl" };
}

const DEFAULT_BRAND = "#18181b";

const PALETTES = {
  light: { page: "#f4f4f5", card: "#ffffff", text: "#18181b", muted: "#52525b", border: "#e4e4e7" },
  dark: { page: "#09090b", card: "#18181b", text: "#fafafa", muted: "#a1a1aa", border: "#27272a" },
} as const;

const FONT =
  "font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";

/**
 * Renders `card` as an e-mail (subject, HTML, text).
 *
 * @example
 * ```ts
 * const { subject, html, text } = renderEmailCard({
 *   subject: "Your address was changed", preheader: "…", heading: "…", paragraphs: ["…"], footer: "…",
 * })
 * ```
 */
export function renderEmailCard(card: EmailCard): VerificationEmail {
  const theme = card.theme ?? {};
  const palette = PALETTES[theme.colorScheme === "dark" ? "dark" : "light"];
  const brand = safeColor(theme.brandColor) ?? DEFAULT_BRAND;
  const buttonText = safeColor(theme.buttonText) ?? readableTextOn(brand);
  const colorScheme =
    theme.colorScheme === "dark" ? "dark" : theme.colorScheme === "light" ? "light" : "light dark";
  // Only an http(s) link may become a button; anything else would be a script or data URL.
  const href = card.button ? safeHttpUrl(card.button.url, new URL(card.button.url)) : undefined;
  if (card.button && !href) throw new TypeError("An e-mail's button must link to an http(s) URL.");
  // Only six digits are ever shown: anything else is not a code this e-mail may carry.
  const code = card.code && /^\d{6}$/.test(card.code.value) ? card.code : undefined;
  const paragraphs: SafeHtml[] = card.paragraphs.map(
    (paragraph) =>
      html`<p style="margin:0 0 12px;font-size:15px;line-height:1.6;color:${palette.muted};">${paragraph}</p>
`,
  );
  const buttonRow =
    card.button && href
      ? html`<tr><td align="center" style="padding:16px 32px 28px;">
<table role="presentation" cellspacing="0" cellpadding="0" border="0"><tr>
<td align="center" bgcolor="${brand}" style="border-radius:8px;background:${brand};">
<a href="${href}" target="_blank" style="display:inline-block;padding:14px 32px;${FONT};font-size:16px;font-weight:600;line-height:1.2;color:${buttonText};text-decoration:none;border-radius:8px;">${card.button.label}</a>
</td></tr></table>
</td></tr>
`
      : null;
  const codeRow = code
    ? html`<tr><td align="center" style="padding:0 32px 28px;${FONT};color:${palette.text};">
<p style="margin:0 0 8px;font-size:14px;color:${palette.muted};">${code.label}</p>
<p style="margin:0;font-size:28px;font-weight:600;letter-spacing:6px;font-family:ui-monospace,Menlo,monospace;">${code.value}</p>
</td></tr>
`
    : null;
  const language = card.language ?? { locale: "en", dir: "ltr" };
  const body = html`<!doctype html>
<html lang="${language.locale}"${language.dir === "rtl" ? html` dir="rtl"` : null}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="color-scheme" content="${colorScheme}">
<meta name="supported-color-schemes" content="${colorScheme}">
<title>${card.subject}</title>
</head>
<body style="margin:0;padding:0;background:${palette.page};">
<div style="display:none;max-height:0;overflow:hidden;">${card.preheader}</div>
<table role="presentation" width="100%" cellspacing="0" cellpadding="0" border="0" style="background:${palette.page};">
<tr><td align="center" style="padding:40px 16px;">
<table role="presentation" width="100%" cellspacing="0" cellpadding="0" border="0" style="max-width:480px;background:${palette.card};border:1px solid ${palette.border};border-radius:12px;">
<tr><td style="padding:40px 32px 8px;${FONT};color:${palette.text};">
<h1 style="margin:0 0 12px;font-size:22px;line-height:1.3;font-weight:600;">${card.heading}</h1>
${paragraphs}</td></tr>
${buttonRow}${codeRow}<tr><td style="padding:0 32px 32px;${FONT};color:${palette.muted};font-size:13px;line-height:1.6;">
<p style="margin:0;padding-top:16px;border-top:1px solid ${palette.border};">${card.footer}</p>
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>`;
  const text = [
    card.heading,
    "",
    ...card.paragraphs.flatMap((paragraph) => [paragraph, ""]),
    ...(card.button && href ? [`${card.button.label}: ${href}`, ""] : []),
    ...(code ? [`${code.label} ${code.value}`, ""] : []),
    card.footer,
    "",
  ].join("\n");
  return { subject: card.subject, html: body.toString(), text };
}
