/**
 * `GET|POST /callback/<id>`: where a provider's flow comes back (OAuth redirect, e-mail link,
 * credentials form, WebAuthn assertion). Each type has its own module; all end in `completeSignIn`
 * (sign-in steps, then `issueSession`).
 */
import { AuthError, CallbackRouteError } from "../../errors.js";
import type { ResponseInternal } from "../../types.js";
import type { AuthContext } from "../config/internal.js";
import { callbackWithCredentials } from "./callback/credentials.js";
import { callbackWithEmail } from "./callback/email.js";
import { callbackWithOAuth } from "./callback/oauth.js";
import { callbackWithWebAuthn } from "./callback/webauthn.js";

/** Handles `/callback/<id>` for every provider type. */
export async function callback(ctx: AuthContext): Promise<ResponseInternal> {
  const provider = ctx.provider;
  if (!provider) return { redirect: `${ctx.url.href}/signin?error=Callback` };
  try {
    switch (provider.type) {
      case "oauth":
      case "oidc":
        return await callbackWithOAuth(ctx, provider);
      case "email":
        return await callbackWithEmail(ctx, provider);
      case "credentials":
        return await callbackWithCredentials(ctx, provider);
      case "webauthn":
        return await callbackWithWebAuthn(ctx, provider);
    }
  } catch (error) {
    if (error instanceof AuthError) throw error;
    const cause = error instanceof Error ? error : new Error(String(error));
    const wrapped = new CallbackRouteError(cause);
    wrapped.message = `The ${provider.type} callback of "${provider.id}" failed: ${cause.message}`;
    throw wrapped;
  }
}
