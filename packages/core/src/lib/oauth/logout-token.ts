/**
 * Validation of a back-channel logout token (OpenID Connect Back-Channel Logout 1.0 §2.6): a JWT
 * the OpenID Provider posts to tell the relying party that a user's session at the OP ended.
 */
import { decodeProtectedHeader, type JWTPayload } from "jose";
import type { InternalOAuthProvider } from "../provider-types.js";
import { serverMetadata } from "./discovery.js";
import { verifyJwtSignature } from "./token.js";

/** The event member a logout token's `events` claim must have (§2.4). */
export const BACKCHANNEL_LOGOUT_EVENT = "http://schemas.openid.net/event/backchannel-logout";

/** Seconds of clock difference allowed between the OP and this server. */
const CLOCK_TOLERANCE = 60;
/** Lifetime of a logout token without `exp`, counted from its `iat` (§2.4 asks for a short one). */
const DEFAULT_LIFETIME = 120;

/** A logout token that passed every check of §2.6. */
export interface LogoutClaims {
  iss: string;
  sub?: string;
  sid?: string;
  jti: string;
  /** When the token stops being acceptable (seconds since the epoch): the replay window. */
  exp: number;
}

/** A logout token that fails a check: answered 400 `invalid_request` (§2.8). */
export class InvalidLogoutToken extends Error {
  override name = "InvalidLogoutToken";
}

function claimsOf(payload: JWTPayload, issuer: string, clientId: string): LogoutClaims {
  const now = Math.floor(Date.now() / 1000);
  // §2.6 item 3, as for ID tokens (OIDC Core 1.0 §3.1.3.7): the issuer, the audience, the age.
  if (payload.iss !== issuer) throw new InvalidLogoutToken("The iss claim is not the provider's.");
  const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
  if (!audiences.includes(clientId))
    throw new InvalidLogoutToken("The aud claim does not name this client.");
  if (typeof payload.iat !== "number") throw new InvalidLogoutToken("The iat claim is missing.");
  // Pre-minted token replay: a token "issued" in the future could be used for a long time.
  if (payload.iat > now + CLOCK_TOLERANCE)
    throw new InvalidLogoutToken("The iat claim lies in the future.");
  const exp = typeof payload.exp === "number" ? payload.exp : payload.iat + DEFAULT_LIFETIME;
  if (exp + CLOCK_TOLERANCE < now) throw new InvalidLogoutToken("The logout token has expired.");
  // §2.6 items 4 and 5: the back-channel logout event, and a subject or session to end.
  const events = payload.events;
  const event =
    events && typeof events === "object" && !Array.isArray(events)
      ? (events as Record<string, unknown>)[BACKCHANNEL_LOGOUT_EVENT]
      : undefined;
  if (!event || typeof event !== "object" || Array.isArray(event))
    throw new InvalidLogoutToken(`The events claim lacks ${BACKCHANNEL_LOGOUT_EVENT}.`);
  const sub = typeof payload.sub === "string" && payload.sub !== "" ? payload.sub : undefined;
  const sid = typeof payload.sid === "string" && payload.sid !== "" ? payload.sid : undefined;
  if (!sub && !sid) throw new InvalidLogoutToken("The logout token has neither sub nor sid.");
  // §2.6 item 6: an ID token (which has a nonce) must not pass as a logout token.
  if ("nonce" in payload) throw new InvalidLogoutToken("A logout token must not have a nonce.");
  if (typeof payload.jti !== "string" || payload.jti === "")
    throw new InvalidLogoutToken("The jti claim is missing.");
  return { iss: payload.iss, ...(sub && { sub }), ...(sid && { sid }), jti: payload.jti, exp };
}

/**
 * Checks `logoutToken` as §2.6 asks — signature against the provider's keys (its JWKS, or the
 * client secret for a client registered for HMAC ID tokens), `iss`, `aud`, `iat`/`exp`, the back-channel logout event, `sub` or
 * `sid`, no `nonce`, a `jti` — and returns its claims. Replay of the `jti` is the caller's check
 * (it needs the shared store). Throws {@link InvalidLogoutToken}.
 *
 * @example
 * ```ts
 * const { sub, sid, jti, exp } = await validateLogoutToken(provider, body.logout_token)
 * ```
 */
export async function validateLogoutToken(
  provider: InternalOAuthProvider,
  logoutToken: string,
): Promise<LogoutClaims> {
  let typ: unknown;
  try {
    ({ typ } = decodeProtectedHeader(logoutToken));
  } catch (error) {
    throw new InvalidLogoutToken("The logout token is not a JWT.", { cause: error });
  }
  // §2.4: explicit typing, so that another JWT of the OP (an ID token) cannot be replayed here.
  if (typeof typ === "string" && !/^(application\/)?(logout\+jwt|jwt)$/i.test(typ))
    throw new InvalidLogoutToken(`The typ header "${typ}" is not logout+jwt.`);
  const meta = await serverMetadata(provider, "logout");
  let payload: JWTPayload;
  try {
    payload = await verifyJwtSignature(provider, meta, logoutToken);
  } catch (error) {
    throw new InvalidLogoutToken("The logout token's signature does not verify.", {
      cause: error,
    });
  }
  return claimsOf(payload, meta.as.issuer, provider.clientId ?? "");
}
