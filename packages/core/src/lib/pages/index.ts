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
import type { InternalProvider } from "../config/internal.js";
import { errorPage, signOutPage, verifyRequestPage } from "./other-pages.js";
import { signInPage } from "./signin.js";
import type { PageTheme } from "./types.js";

export { escapeHtml, html, raw, SafeHtml } from "./html.js";
export { webauthnScriptTag } from "./signin.js";
export type { PageTheme } from "./types.js";

/**
 * Renders the sign-in page: one form per provider in configuration order, and an error banner
 * when `error` is given (known values get a specific message, anything else a generic one; the
 * raw value is never shown). With several methods, each group has a title and the built-in
 * e-mail fields say what they are for; a signed-in visitor (`signedInAs`) is told so and offered
 * the methods as a way to link another one.
 *
 * `url` is `<origin><basePath>` without a trailing slash.
 */
export function renderSignInPage(p: {
  url: URL;
  theme: PageTheme;
  providers: InternalProvider[];
  callbackUrl: string;
  csrfToken: string;
  error?: string;
  email?: string;
  /** The signed-in visitor's address or name: the page offers to link another method. */
  signedInAs?: string;
  /** The adapter manages passkeys: the passkey script makes the Signal API calls. */
  passkeySignals?: boolean;
}): ResponseInternal<string> {
  return signInPage(p);
}

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
  provider?: { name: string };
}): ResponseInternal<string> {
  return verifyRequestPage(p);
}
