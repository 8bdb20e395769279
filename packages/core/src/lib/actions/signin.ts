/**
 * `GET /signin` renders the sign-in page (or redirects to `pages.signIn`); `POST /signin/<id>`
 * starts the provider's flow: an authorization redirect for OAuth, an e-mailed link for e-mail.
 */

import { MissingCSRF, UnknownAction } from "../../errors.js";
import type { ResponseInternal } from "../../types.js";
import { passkeyAdapter } from "../config/adapter.js";
import type { AuthContext } from "../config/internal.js";
import { coreTranslator } from "../i18n/core/translator.js";
import { renderSignInPage } from "../pages/signin.js";
import { currentSessionUser } from "../session/signed-in.js";
import { pageUrl } from "./page-url.js";

/** Handles `GET` and `POST /signin[/<id>]`. */
export async function signin(ctx: AuthContext): Promise<ResponseInternal> {
  const { config, request } = ctx;
  if (request.method === "GET") {
    // As in Auth.js: a provider's sign-in starts with a POST (its form on the page); a GET with a
    // provider id, known or not, is no page of ours and ends on the error page (Configuration).
    if (request.providerId !== undefined)
      throw new UnknownAction(
        `GET /signin/${request.providerId} is not an action: a sign-in starts with a POST to /signin/<provider id> (signIn() or the sign-in page's form); link to /signin for the page.`,
      );
    const error = request.query.error;
    if (config.pages.signIn)
      return {
        redirect: pageUrl(ctx, config.pages.signIn, { callbackUrl: ctx.callbackUrl, error }),
      };
    // A visitor who already has a session comes to link another method (Auth.js shows the bare form).
    const signedInUser = await currentSessionUser(ctx);
    const signedInAs = signedInUser?.email || signedInUser?.name || undefined;
    return renderSignInPage({
      url: ctx.url,
      theme: config.theme,
      providers: ctx.providers,
      callbackUrl: ctx.callbackUrl,
      csrfToken: ctx.csrfToken ?? "",
      ...(error !== undefined && { error }),
      ...(request.query.code !== undefined && { code: request.query.code }),
      ...(request.query.email !== undefined && { email: request.query.email }),
      ...(signedInAs !== undefined && { signedInAs }),
      ...(passkeyAdapter(config) && { passkeySignals: true }),
      ...(ctx.providers.some((provider) => provider.type === "webauthn") && {
        // The passkey forms' helper script loads with the page of an app that has them.
        webauthnScript: (await import("../webauthn/script.js")).webauthnScriptElement(),
      }),
      t: await coreTranslator(ctx),
    });
  }
  // Login CSRF defence: without the double-submit token, send the user to the page instead.
  // Thrown, as Auth.js does: the pipeline sends the browser to the sign-in page with
  // \`error=MissingCSRF\` (or answers \`{ url }\` to \`X-Auth-Return-Redirect\` clients).
  if (!ctx.csrfTokenVerified)
    throw new MissingCSRF(
      `A POST to /signin needs the CSRF token of the csrf cookie in \`csrfToken\`.`,
    );
  const provider = ctx.provider;
  if (!provider) return { redirect: `${ctx.url.href}/signin?error=Signin` };
  // Each type's flow loads with its first sign-in: the sign-in page of an app without OAuth or
  // e-mail providers never loads the OAuth client or the e-mail code.
  switch (provider.type) {
    case "oauth":
    case "oidc":
      return (await import("./signin/oauth.js")).signinWithOAuth(ctx, provider);
    case "email":
      return (await import("./signin/email.js")).signinWithEmail(ctx, provider);
    default:
      // Credentials and WebAuthn post to their callback; the page has their forms.
      return { redirect: `${ctx.url.href}/signin` };
  }
}
