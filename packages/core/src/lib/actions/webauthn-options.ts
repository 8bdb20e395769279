/**
 * `GET /webauthn-options/<id>?action=register|authenticate&email=…`: the options the browser
 * passes to `navigator.credentials.create()` or `.get()`, with the challenge sealed into its
 * single-use cookie.
 */

import type { ResponseInternal } from "../../types.js";
import { requireAdapter } from "../config/adapter.js";
import type { AuthContext } from "../config/internal.js";
import { json, NO_CACHE_HEADERS } from "../http/response.js";
import type { WebAuthnConfig } from "../provider-types.js";
import { currentSessionUser } from "../session/signed-in.js";
import {
  authenticationOptions,
  defaultGetUserInfo,
  inferAction,
  registrationOptions,
  type UserInfo,
} from "../webauthn/options.js";

// Options carry a fresh challenge and set a cookie: every answer is sent with NO_CACHE_HEADERS.
function badRequest(error: string): ResponseInternal {
  return json({ error }, 400, NO_CACHE_HEADERS);
}

/** Handles `GET /webauthn-options/<id>`. Answers `{ action, options }`, or 400 `{ error }`. */
export async function webauthnOptions(ctx: AuthContext): Promise<ResponseInternal> {
  const provider = ctx.provider;
  if (provider?.type !== "webauthn") return badRequest("Invalid provider");
  const webauthn = provider as WebAuthnConfig;
  const requested = ctx.request.query.action;
  if (requested !== undefined && requested !== "register" && requested !== "authenticate")
    return badRequest("Invalid action");

  const adapter = requireAdapter(ctx.config, "WebAuthn");
  const sessionUser = await currentSessionUser(ctx);
  const info: UserInfo | null = sessionUser
    ? { user: sessionUser, exists: true }
    : await (webauthn.getUserInfo ?? defaultGetUserInfo)(
        { adapter, provider: webauthn, url: ctx.url },
        {
          method: ctx.request.method,
          query: ctx.request.query,
          ...(ctx.request.body !== undefined && { body: ctx.request.body }),
          headers: ctx.request.headers,
          cookies: ctx.request.cookies,
        },
      );

  const action = inferAction(requested, sessionUser !== null, info);
  if (action === "register" && info) {
    // A new account is named by its e-mail address; a signed-in user is known already.
    if (!sessionUser && typeof info.user.email !== "string") return badRequest("Invalid request");
    const { options, cookie } = await registrationOptions(ctx, webauthn, info.user);
    return { ...json({ action, options }, 200, NO_CACHE_HEADERS), cookies: [cookie] };
  }
  if (action === "authenticate") {
    const { options, cookie } = await authenticationOptions(ctx, webauthn, info?.user);
    return { ...json({ action, options }, 200, NO_CACHE_HEADERS), cookies: [cookie] };
  }
  return badRequest("Invalid request");
}
