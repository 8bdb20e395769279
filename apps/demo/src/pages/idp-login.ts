/**
 * The pages of the demo's identity provider: its login form and its error page. They use their
 * own accent colour so that leaving the demo for the provider is visible, as it is in real life.
 */
import { IDP_ACCOUNT } from "../idp-account.js";
import { html } from "./html.js";
import { type RenderedPage, renderDocument } from "./layout.js";
import { idpStyles } from "./styles.js";

const IDP_NAME = "Demo IdP";

function idpHeader(subtitle: string) {
  return html`<header><div class="avatar solid" aria-hidden="true">ID</div><h1>${IDP_NAME}</h1><p>${subtitle}</p></header>`;
}

/**
 * The login form of an interaction. `returnOrigins` are the demo's origins: after the form is
 * posted, the provider redirects back there, and Chromium applies `form-action` to those redirects.
 */
export function renderIdpLogin(p: {
  uid: string;
  returnOrigins: readonly string[];
  username?: string;
  failed?: boolean;
}): RenderedPage {
  const action = `/interaction/${encodeURIComponent(p.uid)}`;
  return renderDocument({
    title: `Sign in · ${IDP_NAME}`,
    styles: idpStyles,
    layout: "narrow",
    formTargets: p.returnOrigins,
    status: p.failed ? 401 : 200,
    main: html`<div class="card login-card">
${idpHeader("Sign in to continue to Tessera demo")}
${p.failed ? html`<p class="error" role="alert">Wrong username or password.</p>` : null}
<form method="post" action="${action}/login">
<div class="field"><label for="username">Username</label><input id="username" name="username" autocomplete="username" autocapitalize="none" spellcheck="false" required value="${p.username ?? ""}" autofocus></div>
<div class="field"><label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required></div>
<div class="stack"><button class="button primary block" type="submit">Continue</button></div>
</form>
<form method="post" action="${action}/abort" class="stack cancel-form"><button class="button secondary block" type="submit">Cancel</button></form>
<p class="center muted small login-hint">Demo account: <code>${IDP_ACCOUNT.username}</code> / <code>${IDP_ACCOUNT.password}</code></p>
</div>`,
    footer: html`<p class="center">A local OpenID Provider (oidc-provider) started by the Tessera demo.</p>`,
  });
}

/** The provider's error page (an expired interaction, a bad request). */
export function renderIdpError(message: string): RenderedPage {
  return renderDocument({
    title: `Error · ${IDP_NAME}`,
    styles: idpStyles,
    layout: "narrow",
    status: 400,
    main: html`<div class="card login-card">${idpHeader("Something went wrong")}<p class="center muted">${message}</p></div>`,
  });
}
