/**
 * `GET|POST /callback/<id>`: where a provider's flow comes back (OAuth redirect, e-mail link,
 * credentials form, WebAuthn assertion). Each type has its own module, loaded with the first
 * callback of that type (an app never loads the flows of types it has no provider of); all end
 * in `completeSignIn` (sign-in steps, then `issueSession`).
 *
 * A module of its own, loaded with the first callback: written into the action table, this switch
 * would put the four flows' chunk references into every app's start-up code (≈ 200 B gzip of the
 * Worker start-up budget in bench/cold-start-budget.test.ts).
 */
import { AuthError, CallbackRouteError } from "../../errors.js";
import type { ResponseInternal } from "../../types.js";
import type { AuthContext } from "../config/internal.js";

/** Handles `/callback/<id>` for every provider type. */
export async function callback(ctx: AuthContext): Promise<ResponseInternal> {
  const provider = ctx.provider;
  if (!provider) return { redirect: `${ctx.url.href}/signin?error=Callback` };
  try {
    switch (provider.type) {
      case "oauth":
      case "oidc":
        return await (await import("./callback/oauth.js")).callbackWithOAuth(ctx, provider);
      case "email":
        return await (await import("./callback/email.js")).callbackWithEmail(ctx, provider);
      case "credentials": {
        const { callbackWithCredentials } = await import("./callback/credentials.js");
        return await callbackWithCredentials(ctx, provider);
      }
      case "webauthn":
        return await (await import("./callback/webauthn.js")).callbackWithWebAuthn(ctx, provider);
    }
  } catch (error) {
    if (error instanceof AuthError) throw error;
    const cause = error instanceof Error ? error : new Error(String(error));
    const wrapped = new CallbackRouteError(cause);
    wrapped.message = `The ${provider.type} callback of "${provider.id}" failed: ${cause.message}`;
    throw wrapped;
  }
}
