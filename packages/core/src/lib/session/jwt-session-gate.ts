/**
 * The one check a decoded JWT session passes before anything believes it. Every reader gets it
 * through `jwt-cookie.ts` (`readJwtSession`), so a session revoked or ended by its OpenID
 * Provider cannot be read back through one path the others refuse.
 */
import { AdapterError } from "../../errors.js";
import type { JWT } from "../../types.js";
import type { ResolvedConfig } from "../config/internal.js";
import type { SharedStore } from "../store/shared-store.js";
import { endedThroughBackchannel } from "./backchannel.js";
import { isJwtSessionRevoked } from "./jwt-revocation.js";

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

/**
 * The denylist's verdict on `token`: `ended` when its session was revoked in `store`,
 * `unavailable` (after telling `onUnavailable` why) when the store could not be read.
 *
 * @example
 * ```ts
 * const verdict = await denylistVerdict(store, payload, 1, (cause) => logger.error(cause))
 * ```
 */
export function denylistVerdict(
  store: SharedStore,
  token: JWT,
  cacheSeconds: number | undefined,
  onUnavailable: (cause: unknown) => void,
): Promise<JwtSessionVerdict> {
  return isJwtSessionRevoked(store, token, cacheSeconds).then(
    (revoked) => (revoked ? "ended" : "valid"),
    (cause: unknown) => {
      onUnavailable(cause);
      return "unavailable";
    },
  );
}

async function gateWithDenylist(
  config: ResolvedConfig,
  denylist: SharedStore,
  token: JWT,
  cacheSeconds: number | undefined,
): Promise<JwtSessionVerdict> {
  const verdict = await denylistVerdict(denylist, token, cacheSeconds, (cause) =>
    unavailable(config, "JWT revocation store (jwt.revocation)", cause),
  );
  return verdict === "valid" ? backchannelVerdict(config, token) : verdict;
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
  const denylist = config.jwt.revocation;
  if (denylist) return gateWithDenylist(config, denylist, token, cacheSeconds);
  return backchannelVerdict(config, token);
}
