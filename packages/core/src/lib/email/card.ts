/**
 * The layout of Tessera's e-mails: the HTML document with its card, button and code rows that the
 * sign-in e-mail (`template.ts`) and the notice e-mails share, and `renderEmailCard` for a notice
 * with its plain-text alternative. Every interpolated value is escaped (the `html` template),
 * colours pass an allow-list (they land in `style` attributes), and there are no remote images
 * (they leak when and where the mail is opened).
 */
import type { Theme } from "../../types.js";
import { html, type SafeHtml } from "../pages/html.js";
import { readableTextOn, safeColor, safeHttpUrl } from "../pages/security.js";

/** A rendered e-mail. */
export interface VerificationEmail {
  subject: string;
  html: string;
  text: string;
}

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

/** An e-mail's colours for a theme, each through the allow-list (they land in `style`). */
export interface EmailStyle {
  palette: (typeof PALETTES)[keyof typeof PALETTES];
  brand: string;
  buttonText: string;
  /** The `color-scheme` the mail declares. */
  colorScheme: string;
  font: string;
}

/**
 * The colours and font of an e-mail in `theme`.
 *
 * @example
 * ```ts
 * emailStyle({ colorScheme: "dark", brandColor: "#4f46e5" }).brand // "#4f46e5"
 * ```
 */
export function emailStyle(theme: Theme = {}): EmailStyle {
  const brand = safeColor(theme.brandColor) ?? DEFAULT_BRAND;
  return {
    palette: PALETTES[theme.colorScheme === "dark" ? "dark" : "light"],
    brand,
    buttonText: safeColor(theme.buttonText) ?? readableTextOn(brand),
    colorScheme:
      theme.colorScheme === "dark"
        ? "dark"
        : theme.colorScheme === "light"
          ? "light"
          : "light dark",
    font: FONT,
  };
}

/**
 * A table row with a button in the brand colour linking to `href`, which the caller has checked
 * to be an http(s) URL; `padding` is the row's CSS padding.
 *
 * @example
 * ```ts
 * emailButtonRow(href, "Sign in", emailStyle(theme), "28px 32px")
 * ```
 */
export function emailButtonRow(
  href: string,
  label: string,
  style: EmailStyle,
  padding: string,
): SafeHtml {
  return html`<tr><td align="center" style="padding:${padding};">
<table role="presentation" cellspacing="0" cellpadding="0" border="0"><tr>
<td align="center" bgcolor="${style.brand}" style="border-radius:8px;background:${style.brand};">
<a href="${href}" target="_blank" style="display:inline-block;padding:14px 32px;${FONT};font-size:16px;font-weight:600;line-height:1.2;color:${style.buttonText};text-decoration:none;border-radius:8px;">${label}</a>
</td></tr></table>
</td></tr>
`;
}

/**
 * A table row with a code to type under the line that introduces it; only six digits are ever
 * shown (anything else is not a code an e-mail may carry), otherwise nothing.
 *
 * @example
 * ```ts
 * emailCodeRow("Or enter this code:", "123456", emailStyle())
 * ```
 */
export function emailCodeRow(label: string, code: string | undefined, style: EmailStyle) {
  if (!code || !/^\d{6}$/.test(code)) return null;
  return html`<tr><td align="center" style="padding:0 32px 28px;${FONT};color:${style.palette.text};">
<p style="margin:0 0 8px;font-size:14px;color:${style.palette.muted};">${label}</p>
<p style="margin:0;font-size:28px;font-weight:600;letter-spacing:6px;font-family:ui-monospace,Menlo,monospace;">${code}</p>
</td></tr>
`;
}

/** What {@link emailDocument} puts around and into the card. */
export interface EmailDocument {
  subject: string;
  /** The line mail clients show next to the subject. */
  preheader: string;
  language: { readonly locale: string; readonly dir: "ltr" | "rtl" };
  style: EmailStyle;
  heading: string | SafeHtml;
  /** The first cell's content under the heading. */
  intro: SafeHtml | SafeHtml[];
  /** The rows between the first cell and the footer (button, code). */
  rows: (SafeHtml | null)[];
  /** The footer cell's content. */
  footer: SafeHtml;
}

/**
 * The HTML document of an e-mail: head, preheader and the centred card with its heading, rows
 * and footer, in every Tessera e-mail's look.
 *
 * @example
 * ```ts
 * emailDocument({ subject, preheader, language, style, heading, intro, rows: [button], footer }).toString()
 * ```
 */
export function emailDocument(parts: EmailDocument): SafeHtml {
  const { palette, colorScheme } = parts.style;
  return html`<!doctype html>
<html lang="${parts.language.locale}"${parts.language.dir === "rtl" ? html` dir="rtl"` : null}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="color-scheme" content="${colorScheme}">
<meta name="supported-color-schemes" content="${colorScheme}">
<title>${parts.subject}</title>
</head>
<body style="margin:0;padding:0;background:${palette.page};">
<div style="display:none;max-height:0;overflow:hidden;">${parts.preheader}</div>
<table role="presentation" width="100%" cellspacing="0" cellpadding="0" border="0" style="background:${palette.page};">
<tr><td align="center" style="padding:40px 16px;">
<table role="presentation" width="100%" cellspacing="0" cellpadding="0" border="0" style="max-width:480px;background:${palette.card};border:1px solid ${palette.border};border-radius:12px;">
<tr><td style="padding:40px 32px 8px;${FONT};color:${palette.text};">
<h1 style="margin:0 0 12px;font-size:22px;line-height:1.3;font-weight:600;">${parts.heading}</h1>
${parts.intro}</td></tr>
${parts.rows}<tr><td style="padding:0 32px 32px;${FONT};color:${palette.muted};font-size:13px;line-height:1.6;">
${parts.footer}</td></tr>
</table>
</td></tr>
</table>
</body>
</html>`;
}

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
  const style = emailStyle(card.theme);
  // Only an http(s) link may become a button; anything else would be a script or data URL.
  const href = card.button ? safeHttpUrl(card.button.url, new URL(card.button.url)) : undefined;
  if (card.button && !href) throw new TypeError("An e-mail's button must link to an http(s) URL.");
  const codeRow = emailCodeRow(card.code?.label ?? "", card.code?.value, style);
  const code = codeRow ? card.code : undefined;
  const body = emailDocument({
    subject: card.subject,
    preheader: card.preheader,
    language: card.language ?? { locale: "en", dir: "ltr" },
    style,
    heading: card.heading,
    intro: card.paragraphs.map(
      (paragraph) =>
        html`<p style="margin:0 0 12px;font-size:15px;line-height:1.6;color:${style.palette.muted};">${paragraph}</p>
`,
    ),
    rows: [
      card.button && href ? emailButtonRow(href, card.button.label, style, "16px 32px 28px") : null,
      codeRow,
    ],
    footer: html`<p style="margin:0;padding-top:16px;border-top:1px solid ${style.palette.border};">${card.footer}</p>
`,
  });
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
