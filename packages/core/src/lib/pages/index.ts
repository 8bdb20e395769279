/**
 * The built-in HTML pages (sign-in, sign-out, error, verify-request), rendered on the server.
 * Every interpolated value is escaped (`html` tagged template), URLs and colours are validated,
 * and each response carries a Content-Security-Policy that allows no script but the inline
 * WebAuthn helper (by its hash) and no framing.
 *
 * Styles: one `<style>` element allowed by a per-response nonce (no `'unsafe-inline'`, no style
 * attributes); images: only the sources of the images the page shows.
 *
 * `form-action` note: Chromium applies it to the redirects that follow a form submission, and an
 * OAuth sign-in POST is answered with a redirect to the identity provider (which may redirect on
 * to other origins). So a sign-in page with an OAuth provider also allows `https:` targets; pages
 * without one only allow our origin and the callback URL's origin.
 */

import type { ResponseInternal } from "../../types.js";
import type { CoreMessages } from "../i18n/core/en.js";
import type { Translator } from "../i18n/messages.js";
import {
  errorPage,
  signOutPage,
  type VerifyRequestCodeError,
  verifyRequestPage,
} from "./other-pages.js";
import type { PageTheme } from "./types.js";

// The sign-in page (with the WebAuthn helper script) is rendered by `renderSignInPage` in
// signin.ts, which only the sign-in action imports: the pipeline imports this module for its
// error page, and an app loads the sign-in page's code with its first sign-in request.

export { escapeHtml, html, raw, SafeHtml } from "./html.js";
export type { PageTheme } from "./types.js";

/**
 * Renders the sign-out confirmation page; its form POSTs to `${url}/signout`. `logoutIssuers`
 * are the issuers of `federatedLogout` providers, whose end-session endpoints the sign-out may
 * redirect to.
 */
export function renderSignOutPage(p: {
  url: URL;
  theme: PageTheme;
  csrfToken: string;
  callbackUrl: string;
  logoutIssuers?: readonly string[];
  /** The texts in the request's language (default English). */
  t?: Translator<CoreMessages>;
}): ResponseInternal<string> {
  return signOutPage(p);
}

/**
 * Renders the error page. Status: `Configuration` 500, `AccessDenied` and `Verification` 403,
 * anything else 200 with a generic message. `detail` is shown only when given (debug mode in
 * development) and is escaped like everything else. `url` is undefined when the request's host
 * is not trusted: the page then names no host and links only to the relative `/`.
 */
export function renderErrorPage(p: {
  url: URL | undefined;
  theme: PageTheme;
  error?: string;
  /** shown only when given (debug mode in development) */
  detail?: string;
  /** The texts in the request's language (default English). */
  t?: Translator<CoreMessages>;
}): ResponseInternal<string> {
  return errorPage(p);
}

/**
 * Renders the "check your email" page shown after an e-mail sign-in link was sent. `provider` is
 * accepted for compatibility with Auth.js's page parameters; the page does not need to name it.
 */
export function renderVerifyRequestPage(p: {
  url: URL;
  theme: PageTheme;
  provider?: { id?: string; name: string };
  codeForm?: { csrfToken: string };
  error?: VerifyRequestCodeError;
  /** The texts in the request's language (default English). */
  t?: Translator<CoreMessages>;
}): ResponseInternal<string> {
  return verifyRequestPage(p);
}
