/**
 * The pages of the demo's identity provider: its login form and its error page. They use their
 * own accent colour so that leaving the demo for the provider is visible, as it is in real life.
 */
import { IDP_ACCOUNT } from "../idp-account.js";
import { html, trusted } from "./html.js";
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

/**
 * The provider's "sign out?" page (RP-Initiated Logout 1.0 §3): `form` is oidc-provider's own
 * confirmation form (its action and anti-CSRF field), which the buttons submit. After the post,
 * the provider redirects to the demo (`returnOrigins`, see {@link renderIdpLogin}).
 */
export function renderIdpLogout(form: string, returnOrigins: readonly string[]): RenderedPage {
  return renderDocument({
    title: `Sign out · ${IDP_NAME}`,
    styles: idpStyles,
    layout: "narrow",
    formTargets: returnOrigins,
    main: html`<div class="card login-card">
${idpHeader("Sign out of the Demo IdP too?")}
${trusted(form)}
<div class="stack"><button class="button primary block" type="submit" form="op.logoutForm" name="logout" value="yes" autofocus>Yes, sign me out</button><button class="button secondary block" type="submit" form="op.logoutForm">No, stay signed in</button></div>
</div>`,
    footer: html`<p class="center">A local OpenID Provider (oidc-provider) started by the Tessera demo.</p>`,
  });
}

/** Shown when a sign-out at the provider named no page to return to. */
export function renderIdpSignedOut(): RenderedPage {
  return renderDocument({
    title: `Signed out · ${IDP_NAME}`,
    styles: idpStyles,
    layout: "narrow",
    main: html`<div class="card login-card">${idpHeader("You are signed out")}<p class="center muted">The Demo IdP's session has ended, and every application it signed you in to was told so.</p></div>`,
  });
}
