/** `GET /providers`: a client-safe description of every configured provider. */

import type { ResponseInternal } from "../../types.js";
import type { AuthContext } from "../config/internal.js";
import { toPublicProvider } from "../config/providers.js";
import { ownCallbackUrl } from "../http/callback-url.js";
import { json } from "../http/response.js";
import type { PublicProvider } from "../provider-types.js";

/** Returns `{ [id]: { id, name, type, signinUrl, callbackUrl } }`. */
export function providers(ctx: AuthContext): ResponseInternal {
  const body: Record<string, PublicProvider> = {};
  for (const provider of ctx.providers) {
    // This deployment's callback URL, as Auth.js lists it, also when a redirect proxy is the
    // one that receives the provider's redirect.
    body[provider.id] = {
      ...toPublicProvider(provider),
      callbackUrl: ownCallbackUrl(ctx, provider),
    };
  }
  return json(body);
}
