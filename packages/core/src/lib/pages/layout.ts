/**
 * The document shell shared by every page: head, stylesheet, CSP meta, the card and its header,
 * plus the static icons. Returns the `ResponseInternal` with the security headers.
 */
import type { ResponseInternal } from "../../types.js";
import { html, raw, type SafeHtml } from "./html.js";
import {
  contentSecurityPolicy,
  createNonce,
  imageSource,
  type PagePolicy,
  pageHeaders,
  safeImageUrl,
} from "./security.js";
import { stylesheet } from "./styles.js";
import type { PageTheme } from "./types.js";

/** Everything a page hands to the shell. */
export interface PageOptions {
  /**
   * `<origin><basePath>`, or undefined when the request's host is not trusted: the page then
   * resolves nothing against it and its CSP lists no origin but `'self'`.
   */
  url: URL | undefined;
  theme: PageTheme;
  status: number;
  /** Document title (the product part is appended). */
  title: string;
  /** The card's content below the header. */
  content: SafeHtml;
  /** Heading and subtitle of the card. */
  heading: string;
  subtitle?: SafeHtml | string;
  /** A static icon shown when the theme has no logo. */
  icon?: { svg: SafeHtml; tone?: "danger" };
  /** Extra `form-action` sources (origins forms on this page may submit or redirect to). */
  formTargets?: readonly string[];
  /** Images the page shows besides the theme logo (already checked by `safeImageUrl`). */
  images?: readonly string[];
  /** Extra style rules (only validated values interpolated), appended to the stylesheet. */
  css?: string;
  /** Trusted tags appended to the body (the WebAuthn script tag). */
  scripts?: SafeHtml;
  /** CSP hash sources of inline scripts in `scripts` besides the WebAuthn helper. */
  scriptHashes?: readonly string[];
  /** Below the card. */
  footer?: SafeHtml;
  /** The page's language and writing direction (`<html lang dir>`); default English. */
  language?: PageLanguage;
}

/** What `<html>` says of the page's text: its BCP 47 tag and direction. */
export interface PageLanguage {
  readonly locale: string;
  readonly dir: "ltr" | "rtl";
}

/** Renders a complete page response. */
export function renderPage(options: PageOptions): ResponseInternal<string> {
  const { url, theme } = options;
  const logo = safeImageUrl(theme.logo, url);
  const images = logo ? [logo, ...(options.images ?? [])] : (options.images ?? []);
  const policy: PagePolicy = {
    origin: url?.origin,
    formTargets: options.formTargets ?? [],
    imageSources: images.map(imageSource).filter((source) => source !== undefined),
    styleNonce: createNonce(),
    ...(options.scriptHashes && { scriptHashes: options.scriptHashes }),
  };
  const colorScheme =
    theme.colorScheme === "dark" ? "dark" : theme.colorScheme === "light" ? "light" : "light dark";
  const visual = logo
    ? html`<img class="logo" src="${logo}" alt="" referrerpolicy="no-referrer">`
    : options.icon
      ? html`<div class="icon-badge${options.icon.tone === "danger" ? " danger" : ""}" aria-hidden="true">${options.icon.svg}</div>`
      : null;
  const css = options.css ? `${stylesheet(theme)}\n${options.css}` : stylesheet(theme);

  const language = options.language ?? { locale: "en", dir: "ltr" };
  // `dir` is written only for right-to-left text: left-to-right is the default of HTML.
  const body = html`<!DOCTYPE html>
<html lang="${language.locale}"${language.dir === "rtl" ? html` dir="rtl"` : null}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="${colorScheme}">
<meta name="robots" content="noindex, nofollow">
<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(policy, false)}">
<title>${options.title}</title>
<style nonce="${policy.styleNonce}">${raw(css)}</style>
</head>
<body>
<main class="card">
<header class="header">
${visual}
<h1>${options.heading}</h1>
${options.subtitle !== undefined ? html`<p class="subtitle">${options.subtitle}</p>` : null}
</header>
${options.content}
</main>
${options.footer ? html`<footer class="footer">${options.footer}</footer>` : null}
${options.scripts ?? null}
</body>
</html>
`;
  return {
    status: options.status,
    headers: pageHeaders(policy),
    body: body.toString(),
  };
}

/** Static icons (Feather-style strokes, drawn for these pages). */
export const icons = {
  alert: raw(
    '<svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><circle cx="12" cy="12" r="10"/><path d="M12 8v4"/><path d="M12 16h.01"/></svg>',
  ),
  mail: raw(
    '<svg width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="1.75" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><rect x="2.5" y="4.5" width="19" height="15" rx="2.5"/><path d="m3 7 9 6 9-6"/></svg>',
  ),
  signOut: raw(
    '<svg width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="1.75" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><path d="M9 21H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h4"/><path d="m16 17 5-5-5-5"/><path d="M21 12H9"/></svg>',
  ),
  warning: raw(
    '<svg width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="1.75" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><path d="M10.3 3.86 1.82 18a2 2 0 0 0 1.71 3h16.94a2 2 0 0 0 1.71-3L13.7 3.86a2 2 0 0 0-3.4 0Z"/><path d="M12 9v4"/><path d="M12 17h.01"/></svg>',
  ),
  lock: raw(
    '<svg width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="1.75" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><rect x="3.5" y="10.5" width="17" height="11" rx="2.5"/><path d="M7.5 10.5V7a4.5 4.5 0 0 1 9 0v3.5"/></svg>',
  ),
} as const;

/** `<origin><basePath>` without a trailing slash, the base of every action URL. */
export function actionBase(url: URL): string {
  return url.href.replace(/\/$/, "");
}

/** Hidden inputs every form carries: the CSRF token (double submit) and the callback URL. */
export function hiddenFields(csrfToken: string, callbackUrl: string): SafeHtml {
  return html`<input type="hidden" name="csrfToken" value="${csrfToken}"><input type="hidden" name="callbackUrl" value="${callbackUrl}">`;
}
