/**
 * The sign-out, error and verify-request pages: short, single-purpose cards.
 */
import type { ResponseInternal } from "../../types.js";
import { html } from "./html.js";
import { actionBase, hiddenFields, icons, renderPage } from "./layout.js";
import { errorPageContent } from "./messages.js";
import { cspOrigin, safeHttpUrl } from "./security.js";
import type { PageTheme } from "./types.js";

/** @see index.ts */
export function signOutPage(p: {
  url: URL;
  theme: PageTheme;
  csrfToken: string;
  callbackUrl: string;
  logoutIssuers?: readonly string[];
}): ResponseInternal<string> {
  // "Cancel" goes back where the user came from, but only to an http(s) URL: a `javascript:`
  // callbackUrl would otherwise become a clickable script.
  const back = safeHttpUrl(p.callbackUrl, p.url) ?? `${p.url.origin}/`;
  const callbackOrigin = cspOrigin(back);
  return renderPage({
    url: p.url,
    theme: p.theme,
    status: 200,
    title: "Sign out",
    heading: "Sign out",
    subtitle: "Are you sure you want to sign out?",
    icon: { svg: icons.signOut },
    content: html`<form class="stack" action="${actionBase(p.url)}/signout" method="post">
${hiddenFields(p.csrfToken, p.callbackUrl)}
<button type="submit" class="button primary">Sign out</button>
<a class="button secondary" href="${back}">Cancel</a>
</form>`,
    // After signing out the browser is redirected to the callback URL, or first to an OpenID
    // Provider's end-session endpoint (federatedLogout), which may hop on before returning:
    // Chromium applies form-action to those redirects too, so the issuers and https: are allowed.
    formTargets: [
      ...(callbackOrigin ? [callbackOrigin] : []),
      ...(p.logoutIssuers?.length ? ["https:"] : []),
      ...(p.logoutIssuers ?? []).flatMap((issuer) => cspOrigin(issuer) ?? []),
    ],
  });
}

/** @see index.ts */
export function errorPage(p: {
  url: URL | undefined;
  theme: PageTheme;
  error?: string;
  detail?: string;
}): ResponseInternal<string> {
  const content = errorPageContent(p.error);
  const action =
    p.url === undefined
      ? // Host header injection: with no trusted URL, a relative link keeps the browser on the
        // host it really talks to, and the page names no host.
        html`<a class="button primary" href="/">Go to the home page</a>`
      : content.action === "signin"
        ? html`<a class="button primary" href="${actionBase(p.url)}/signin">Back to sign in</a>`
        : html`<a class="button primary" href="${p.url.origin}/">Go to ${p.url.host}</a>`;
  const detail =
    p.detail !== undefined && p.detail !== ""
      ? html`<details class="detail" open><summary>Details (debug mode)</summary><pre>${p.detail}</pre></details>`
      : null;
  return renderPage({
    url: p.url,
    theme: p.theme,
    status: content.status,
    title: content.title,
    heading: content.title,
    icon: { svg: icons.warning, tone: "danger" },
    content: html`<p class="message">${content.message}</p>${detail}${action}`,
  });
}

/**
 * What the verify-request page's code form says, by key (the e-mail code sign-in of
 * lib/email/sign-in-code.ts).
 */
export const verifyRequestCodeMessages = {
  label: "Or enter the 6-digit code from the email",
  submit: "Sign in",
  CodeInvalid: "That code is not right. Check the email and try again.",
  CodeExpired:
    "This code can no longer be used: it expired, was already used, or was tried too often. Request a new email.",
  RateLimited: "Too many attempts. Wait a minute, then try again.",
} as const;

/** Why a code was refused, as the page shows it. */
export type VerifyRequestCodeError = "CodeInvalid" | "CodeExpired" | "RateLimited";

/** @see index.ts */
export function verifyRequestPage(p: {
  url: URL;
  theme: PageTheme;
  provider?: { id?: string; name: string };
  /** The code form, when this browser has a code pending (e-mail code sign-in). */
  codeForm?: { csrfToken: string };
  error?: VerifyRequestCodeError;
}): ResponseInternal<string> {
  const messages = verifyRequestCodeMessages;
  const base = actionBase(p.url);
  const alert = p.error
    ? html`<div class="alert" role="alert">${icons.alert}<p>${messages[p.error]}</p></div>`
    : null;
  const codeForm =
    p.codeForm && p.provider?.id
      ? html`<form class="stack" action="${base}/callback/${p.provider.id}" method="post">
<input type="hidden" name="csrfToken" value="${p.codeForm.csrfToken}">
<div class="field"><label for="code">${messages.label}</label><input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]*" maxlength="7" required></div>
<button type="submit" class="button primary">${messages.submit}</button>
</form>`
      : null;
  return renderPage({
    url: p.url,
    theme: p.theme,
    status: 200,
    title: "Check your email",
    heading: "Check your email",
    subtitle: "We sent you a sign-in link.",
    icon: { svg: icons.mail },
    content: html`${alert}<p class="message">Open the link in the email to finish signing in. You can close this tab.</p>
${codeForm}${codeForm ? null : html`<a class="button secondary" href="${p.url.origin}/">Go to ${p.url.host}</a>`}
<p class="hint">No email? Check your spam folder or <a href="${base}/signin">try again</a>.</p>`,
  });
}
