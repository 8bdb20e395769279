/**
 * `POST <basePath>/backchannel-logout/<providerId>`: the OpenID Provider tells the application
 * that a user's session at the OP ended (OpenID Connect Back-Channel Logout 1.0). The request
 * carries a `logout_token` (§2.5); a valid, unused one ends the user's sessions from that
 * provider and is answered 200; anything else 400 `invalid_request` (§2.8). Both answers say
 * `Cache-Control: no-store`. Register this URL as the client's `backchannel_logout_uri`.
 */

import type { ResponseInternal } from "../../types.js";
import type { AuthContext } from "../config/internal.js";
import { json } from "../http/response.js";
import { InvalidLogoutToken, validateLogoutToken } from "../oauth/logout-token.js";
import { endSessions, firstUseOfLogoutToken, forgetLogoutToken } from "../session/backchannel.js";

const NO_STORE = { "Cache-Control": "no-store" };

function refuse(description: string): ResponseInternal {
  return json({ error: "invalid_request", error_description: description }, 400, NO_STORE);
}

/** Handles `POST /backchannel-logout/<providerId>`. */
export async function backchannelLogout(ctx: AuthContext): Promise<ResponseInternal> {
  const { provider, config } = ctx;
  if (!provider || (provider.type !== "oidc" && provider.type !== "oauth"))
    return refuse("The path names no OpenID Provider of this application.");
  const logoutToken = ctx.request.body?.logout_token;
  if (typeof logoutToken !== "string" || logoutToken === "")
    return refuse("The request has no logout_token.");

  let claims: Awaited<ReturnType<typeof validateLogoutToken>>;
  try {
    claims = await validateLogoutToken(provider, logoutToken);
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
  let firstUse: boolean;
  try {
    // Replay defence (§2.6 item 7 mentions it; §4.1 asks for it): one use per jti.
    firstUse = await firstUseOfLogoutToken(config, provider, claims);
  } catch (error) {
    // The store is down: §2.8 answers a logout that failed with 400, never a redirect.
    ctx.logger.error(error as Error);
    return refuse("The sessions could not be ended.");
  }
  if (!firstUse) return refuse("The logout token was already used (jti replayed).");
  let userId: string | undefined;
  try {
    ({ userId } = await endSessions(config, provider, claims));
  } catch (error) {
    ctx.logger.error(error as Error);
    // A failed logout must not burn the jti: the OP's retry of the same token has to work.
    await forgetLogoutToken(config, provider, claims).catch((cause: unknown) =>
      ctx.logger.error(cause as Error),
    );
    return refuse("The sessions could not be ended.");
  }
  try {
    await config.events.backchannelLogout?.({
      provider: provider.id,
      ...(claims.sub !== undefined && { sub: claims.sub }),
      ...(claims.sid !== undefined && { sid: claims.sid }),
      ...(userId !== undefined && { userId }),
    });
  } catch (error) {
    // The sessions have ended: a failing event handler is the app's to fix, not the OP's.
    ctx.logger.error(error as Error);
  }
  return { status: 200, headers: NO_STORE };
}
