/**
 * `POST <basePath>/backchannel-logout/<providerId>`: the OpenID Provider tells the application
 * that a user's session at the OP ended (OpenID Connect Back-Channel Logout 1.0). The request
 * carries a `logout_token` (§2.5); a valid, unused one ends the user's sessions from that
 * provider and is answered 200; anything else 400 `invalid_request` (§2.8). Both answers say
 * `Cache-Control: no-store`. Register this URL as the client's `backchannel_logout_uri`.
 */
import type { InternalOAuthProvider } from "../../providers/index.js";
import type { ResponseInternal } from "../../types.js";
import type { AuthContext } from "../config/internal.js";
import { json } from "../http/response.js";
import { InvalidLogoutToken, validateLogoutToken } from "../oauth/logout-token.js";
import { endSessions, firstUseOfLogoutToken } from "../session/backchannel.js";

const NO_STORE = { "Cache-Control": "no-store" };

function refuse(description: string): ResponseInternal {
  return json({ error: "invalid_request", error_description: description }, 400, NO_STORE);
}

/** Handles `POST /backchannel-logout/<providerId>`. */
export async function backchannelLogout(ctx: AuthContext): Promise<ResponseInternal> {
  const { provider, config } = ctx;
  if (!provider || (provider.type !== "oidc" && provider.type !== "oauth"))
    return refuse("The path names no OpenID Provider of this application.");
  const oidcProvider = provider as InternalOAuthProvider;
  const logoutToken = ctx.request.body?.logout_token;
  if (typeof logoutToken !== "string" || logoutToken === "")
    return refuse("The request has no logout_token.");

  let claims: Awaited<ReturnType<typeof validateLogoutToken>>;
  try {
    claims = await validateLogoutToken(oidcProvider, logoutToken);
  } catch (error) {
    if (error instanceof InvalidLogoutToken) {
      ctx.logger.debug("backchannel_logout_refused", {
        provider: provider.id,
        reason: error.message,
      });
      return refuse(error.message);
    }
    // The provider's metadata or keys could not be fetched: logged, no detail for the caller.
    ctx.logger.error(error as Error);
    return refuse("The logout token could not be checked.");
  }
  // Replay defence (§2.6 item 7 mentions it; §4.1 asks for it): one use per jti.
  if (!(await firstUseOfLogoutToken(config, oidcProvider, claims)))
    return refuse("The logout token was already used (jti replayed).");
  try {
    const { userId } = await endSessions(config, oidcProvider, claims);
    await config.events.backchannelLogout?.({
      provider: provider.id,
      ...(claims.sub !== undefined && { sub: claims.sub }),
      ...(claims.sid !== undefined && { sid: claims.sid }),
      ...(userId !== undefined && { userId }),
    });
  } catch (error) {
    ctx.logger.error(error as Error);
    return refuse("The sessions could not be ended.");
  }
  return { status: 200, headers: NO_STORE };
}
