/**
 * The one check a decoded JWT session passes before anything believes it: the session read,
 * `getAccessToken` and account linking all call {@link jwtSessionGate}, so a session revoked or
 * ended by its OpenID Provider cannot be read back through one path the others refuse.
 *
 * And the one rule for re-issuing a session cookie ({@link tokenToReissue}): every re-issue keeps
 * the session's revocation id and its OAuth account, whoever re-issues it.
 */
import { AdapterError } from "../../errors.js";
import type { JWT } from "../../types.js";
import type { ResolvedConfig } from "../config/internal.js";
import { endedThroughBackchannel } from "./backchannel.js";
import { isJwtSessionRevoked, jwtSessionId, withSessionId } from "./jwt-revocation.js";
import { SESSION_ACCOUNT_CLAIM } from "./jwt-tokens.js";

/**
 * What {@link jwtSessionGate} decided: `valid`; `ended` (revoked, or ended by the OP: the cookie
 * is dead and is cleared); `unavailable` (the store could not be asked: the request is refused,
 * but the cookie is kept for when the store is back).
 */
export type JwtSessionVerdict = "valid" | "ended" | "unavailable";

/**
 * Fail closed, keep the cookie: a store outage must neither let a revoked session in nor sign
 * every user out for good (the database strategy keeps its cookie during an outage too).
 */
function unavailable(config: ResolvedConfig, what: string, cause: unknown): "unavailable" {
  config.logger.error(
    new AdapterError(
      `The ${what} could not be read, so this JWT session was refused for the request (fail closed) and its cookie kept. Check the store's connection (Redis or SQL server reachable, table migrated).`,
      { cause },
    ),
  );
  return "unavailable";
}

function backchannelVerdict(
  config: ResolvedConfig,
  token: JWT,
): JwtSessionVerdict | Promise<JwtSessionVerdict> {
  const what = "back-channel logout store (oauth.store, else jwt.revocation)";
  let ended: boolean | Promise<boolean>;
  try {
    ended = endedThroughBackchannel(config, token);
  } catch (error) {
    return unavailable(config, what, error);
  }
  if (ended === true) return "ended";
  if (ended === false) return "valid";
  return ended.then(
    (yes) => (yes ? "ended" : "valid"),
    (error: unknown) => unavailable(config, what, error),
  );
}

async function gateWithDenylist(
  config: ResolvedConfig,
  token: JWT,
  cacheSeconds: number | undefined,
): Promise<JwtSessionVerdict> {
  const denylist = config.jwt.revocation;
  try {
    if (denylist && (await isJwtSessionRevoked(denylist, token, cacheSeconds))) return "ended";
  } catch (error) {
    return unavailable(config, "JWT revocation store (jwt.revocation)", error);
  }
  return backchannelVerdict(config, token);
}

/**
 * Whether the decoded session JWT `token` may be used: not revoked (`jwt.revocation`, a copied
 * cookie of a signed-out session included) and not ended by its OpenID Provider through
 * back-channel logout (OIDC Back-Channel Logout 1.0 §2.7). Synchronous when there is nothing to
 * look up (no denylist, no OP session), so the common read pays no promise. `cacheSeconds`
 * overrides `jwt.revocationCacheSeconds` (0: ask the store now).
 *
 * @example
 * ```ts
 * const gate = jwtSessionGate(config, payload)
 * const verdict = gate instanceof Promise ? await gate : gate
 * if (verdict === "ended") clearCookie()
 * if (verdict !== "valid") return null
 * ```
 */
export function jwtSessionGate(
  config: ResolvedConfig,
  token: JWT,
  cacheSeconds = config.jwt.revocationCacheSeconds,
): JwtSessionVerdict | Promise<JwtSessionVerdict> {
  if (config.jwt.revocation) return gateWithDenylist(config, token, cacheSeconds);
  return backchannelVerdict(config, token);
}

/**
 * The token to encode when the session `decoded` is re-issued as `next` (the `jwt` callback's
 * result, or a refreshed token). Claims the session depends on are carried over when `next`
 * lacks them: a callback that builds a new object must not drop the revocation id (`sid`: a copy
 * of the cookie would outlive a sign-out) or the OAuth account (refresh, federated logout). With
 * `jwt.revocation`, a session without `sid` gets its old `jti` as `sid`: every copy of the cookie
 * shares that `jti`, so revoking the original also ends the re-issued cookie, which `encode`
 * gives a new `jti`.
 *
 * @example
 * ```ts
 * const value = await config.jwt.encode({ token: tokenToReissue(config, payload, token), … })
 * ```
 */
export function tokenToReissue(config: ResolvedConfig, decoded: JWT, next: JWT): JWT {
  const token: JWT = { ...next };
  if (token[SESSION_ACCOUNT_CLAIM] === undefined && decoded[SESSION_ACCOUNT_CLAIM] !== undefined)
    token[SESSION_ACCOUNT_CLAIM] = decoded[SESSION_ACCOUNT_CLAIM];
  if (typeof token.sid === "string" && token.sid !== "") return token;
  const previousId = jwtSessionId(decoded);
  if (typeof decoded.sid === "string" && decoded.sid !== "") token.sid = decoded.sid;
  else if (config.jwt.revocation && previousId !== undefined) token.sid = previousId;
  return withSessionId(config.jwt.revocation, token);
}
