/**
 * The sign-out, error and verify-request pages: short, single-purpose cards.
 */
import type { ResponseInternal } from "../../types.js";
import type { CoreMessages } from "../i18n/core/en.js";
import { englishCore } from "../i18n/core/translator.js";
import type { Translator } from "../i18n/messages.js";
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
  t?: Translator<CoreMessages>;
}): ResponseInternal<string> {
  const t = p.t ?? englishCore;
  // "Cancel" goes back where the user came from, but only to an http(s) URL: a `javascript:`
  // callbackUrl would otherwise become a clickable script.
  const back = safeHttpUrl(p.callbackUrl, p.url) ?? `${p.url.origin}/`;
  const callbackOrigin = cspOrigin(back);
  return renderPage({
    url: p.url,
    theme: p.theme,
    status: 200,
    title: t("signOut.title"),
    heading: t("signOut.title"),
    subtitle: t("signOut.question"),
    language: t,
    icon: { svg: icons.signOut },
    content: html`<form class="stack" action="${actionBase(p.url)}/signout" method="post">
${hiddenFields(p.csrfToken, p.callbackUrl)}
<button type="submit" class="button primary">${t("signOut.submit")}</button>
<a class="button secondary" href="${back}">${t("signOut.cancel")}</a>
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
  t?: Translator<CoreMessages>;
}): ResponseInternal<string> {
  const t = p.t ?? englishCore;
  const content = errorPageContent(t, p.error);
  const action =
    p.url === undefined
      ? // Host header injection: with no trusted URL, a relative link keeps the browser on the
        // host it really talks to, and the page names no host.
        html`<a class="button primary" href="/">${t("error.homePage")}</a>`
      : content.action === "signin"
        ? html`<a class="button primary" href="${actionBase(p.url)}/signin">${t("error.backToSignIn")}</a>`
        : html`<a class="button primary" href="${p.url.origin}/">${t("page.goTo", { host: p.url.host })}</a>`;
  const detail =
    p.detail !== undefined && p.detail !== ""
      ? html`<details class="detail" open><summary>${t("error.details")}</summary><pre>${p.detail}</pre></details>`
      : null;
  return renderPage({
    url: p.url,
    theme: p.theme,
    status: content.status,
    title: content.title,
    heading: content.title,
    icon: { svg: icons.warning, tone: "danger" },
    language: t,
    content: html`<p class="message">${content.message}</p>${detail}${action}`,
  });
}

/** Why a code was refused, as the page shows it (its text: `verifyRequest.code.<reason>`). */
export type VerifyRequestCodeError = "CodeInvalid" | "CodeExpired" | "RateLimited";

/** @see index.ts */
export function verifyRequestPage(p: {
  url: URL;
  theme: PageTheme;
  provider?: { id?: string; name: string };
  /** The code form, when this browser has a code pending (e-mail code sign-in). */
  codeForm?: { csrfToken: string };
  error?: VerifyRequestCodeError;
  t?: Translator<CoreMessages>;
}): ResponseInternal<string> {
  const t = p.t ?? englishCore;
  const base = actionBase(p.url);
  const alert = p.error
    ? html`<div class="alert" role="alert">${icons.alert}<p>${t(`verifyRequest.code.${p.error}`)}</p></div>`
    : null;
  const codeForm =
    p.codeForm && p.provider?.id
      ? html`<form class="stack" action="${base}/callback/${p.provider.id}" method="post">
<input type="hidden" name="csrfToken" value="${p.codeForm.csrfToken}">
<div class="field"><label for="code">${t("verifyRequest.code.label")}</label><input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]*" maxlength="7" required></div>
<button type="submit" class="button primary">${t("verifyRequest.code.submit")}</button>
</form>`
      : null;
  return renderPage({
    url: p.url,
    theme: p.theme,
    status: 200,
    title: t("verifyRequest.title"),
    heading: t("verifyRequest.title"),
    subtitle: t("verifyRequest.sent"),
    icon: { svg: icons.mail },
    language: t,
    content: html`${alert}<p class="message">${t("verifyRequest.openLink")}</p>
${codeForm}${codeForm ? null : html`<a class="button secondary" href="${p.url.origin}/">${t("page.goTo", { host: p.url.host })}</a>`}
<p class="hint">${t.html("verifyRequest.noEmail", { tryAgain: html`<a href="${base}/signin">${t("verifyRequest.tryAgain")}</a>` })}</p>`,
  });
}
