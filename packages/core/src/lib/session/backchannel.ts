/**
 * Ending the sessions an OpenID Provider names in a back-channel logout token (OpenID Connect
 * Back-Channel Logout 1.0 §2.7). Database sessions of the user are deleted. JWT sessions live in
 * cookies the server cannot reach, so the logout is recorded in the shared store (per provider
 * and `sub` / `sid`, for the sessions' lifetime) and the session read refuses a session signed
 * in before it.
 */
import { MissingAdapterMethods } from "../../errors.js";
import type { JWT } from "../../types.js";
import { requireAdapter } from "../config/adapter.js";
import type { ResolvedConfig } from "../config/internal.js";
import { sha256Base64url } from "../crypto/sha256.js";
import type { LogoutClaims } from "../oauth/logout-token.js";
import type { InternalOAuthProvider } from "../provider-types.js";
import { memoryStore } from "../store/memory.js";
import type { SharedStore } from "../store/shared-store.js";

/**
 * The store of back-channel logout state: `oauth.store`, else `jwt.revocation`, else one in this
 * process's memory for the app (enough for a single instance; see config/app-state.ts).
 */
export function logoutStore(config: ResolvedConfig): SharedStore {
  const configured =
    config.source.oauth?.store ??
    (config.source.jwt as { revocation?: SharedStore } | undefined)?.revocation;
  if (configured) return configured;
  config.state.backchannelStore ??= memoryStore();
  return config.state.backchannelStore;
}

/** What a JWT session recorded of its OpenID Provider session (see jwt-cookie.ts). */
interface OpSession {
  provider: string;
  sub?: string;
  sid?: string;
  /** When the user signed in (milliseconds since the epoch). */
  signedInAt?: number;
}

const hashed = sha256Base64url;
const subjectKey = (provider: string, sub: string) =>
  `tessera:backchannel:sub:${hashed(`${provider}\n${sub}`)}`;
const sessionKey = (provider: string, sid: string) =>
  `tessera:backchannel:sid:${hashed(`${provider}\n${sid}`)}`;
/**
 * A logout of the OP session `sid` of `sub`: only sessions that recorded both match it. JSON, so
 * that no `sub` and `sid` pair can be spelled like another (both are the OP's strings).
 */
const subjectSessionKey = (provider: string, sub: string, sid: string) =>
  `tessera:backchannel:sub-sid:${hashed(JSON.stringify([provider, sub, sid]))}`;
/** A logout of one OP session of `sub`, for the sessions of `sub` that do not know their `sid`. */
const sidlessKey = (provider: string, sub: string) =>
  `tessera:backchannel:sub-without-sid:${hashed(`${provider}\n${sub}`)}`;

/**
 * Records that `claims.jti` was used; false when it was already (a replayed logout token). The
 * marker lives until the token expires, after which the token is refused for its age anyway.
 */
export async function firstUseOfLogoutToken(
  config: ResolvedConfig,
  provider: InternalOAuthProvider,
  claims: LogoutClaims,
): Promise<boolean> {
  const ttl = Math.max(claims.exp - Math.floor(Date.now() / 1000) + 120, 60);
  return logoutStore(config).add(logoutTokenKey(provider, claims), "1", ttl);
}

const logoutTokenKey = (provider: InternalOAuthProvider, claims: LogoutClaims) =>
  `tessera:backchannel:jti:${hashed(`${provider.id}\n${claims.iss}\n${claims.jti}`)}`;

/**
 * Forgets that `claims.jti` was used, after the logout it carried failed: the OP may send the
 * same token again (its retry must not be refused as a replay while the sessions live on).
 *
 * @example
 * ```ts
 * await endSessions(config, provider, claims).catch(() => forgetLogoutToken(config, provider, claims))
 * ```
 */
export async function forgetLogoutToken(
  config: ResolvedConfig,
  provider: InternalOAuthProvider,
  claims: LogoutClaims,
): Promise<void> {
  await logoutStore(config).delete(logoutTokenKey(provider, claims));
}

/**
 * Ends the sessions `claims` names, identified by `iss`, `sub` and `sid` together (OpenID
 * Connect Back-Channel Logout 1.0 §2.7,
 * https://openid.net/specs/openid-connect-backchannel-1_0.html#BCActions): every database
 * session of the user (the account whose `providerAccountId` is the token's `sub`; session rows
 * do not record the OP session, so all of that user's go), or, for JWT sessions, through a
 * logout marker the session read honours: with `sub` and `sid`, the sessions of that `sub` in
 * that OP session (and those of the `sub` that recorded no `sid`); with `sid` only, every session
 * of that OP session; with `sub` only, every session of the `sub`. A session of another user is
 * never ended by a token naming its `sid` under someone else's `sub`. Returns the user id for
 * database sessions.
 */
export async function endSessions(
  config: ResolvedConfig,
  provider: InternalOAuthProvider,
  claims: LogoutClaims,
): Promise<{ userId?: string }> {
  if (config.session.strategy === "database") {
    if (!claims.sub)
      throw new MissingAdapterMethods(
        "Database sessions are matched by the logout token's sub: this provider sent only a sid. Configure the provider to include sub (most do).",
      );
    const adapter = requireAdapter(config, "Back-channel logout of database sessions");
    if (!config.rawAdapter?.deleteSessionsByUserId)
      throw new MissingAdapterMethods(
        "Back-channel logout of database sessions needs the adapter method deleteSessionsByUserId (a Tessera extension of @tessera/sql, @tessera/redis and @tessera/memory).",
      );
    const user = await adapter.getUserByAccount({
      provider: provider.id,
      providerAccountId: claims.sub,
    });
    if (user) await adapter.deleteSessionsByUserId(user.id);
    return user ? { userId: user.id } : {};
  }
  const store = logoutStore(config);
  const now = String(Date.now());
  const ttl = config.jwt.maxAge;
  // §2.7: the sessions the token identifies by `sub` and `sid` together — a `sid` alone would let
  // a token naming user B end user A's session in the OP session `sid`. A session whose ID token
  // had no `sid` cannot tell which OP session it belongs to: a logout naming `sid` and `sub` ends
  // it too (through a marker only such sessions read), or it would outlive its OP session.
  const { sub, sid } = claims;
  const keys = sid
    ? sub
      ? [subjectSessionKey(provider.id, sub, sid), sidlessKey(provider.id, sub)]
      : [sessionKey(provider.id, sid)]
    : [subjectKey(provider.id, sub as string)];
  for (const key of keys) {
    // The newest logout wins: a session signed in after an older one stays valid.
    await store.delete(key);
    await store.add(key, now, ttl);
  }
  return {};
}

/**
 * Whether the OP ended the JWT session `token` through back-channel logout: a logout of its
 * provider's `sub`, of its `sid` alone, or of its `sub` and `sid` together (or, for a session
 * without `sid`, of one OP session of its `sub`) recorded after the session was signed in.
 * `account` is the session's OP identity (its `sub` and/or `sid`); the gate in jwt-cookie.ts
 * asks only for sessions that have one. Costs up to three store reads.
 *
 * @example
 * ```ts
 * if (await endedThroughBackchannel(config, { provider: "op", providerAccountId: "1", sub: "1" }, token)) refuse()
 * ```
 */
export function endedThroughBackchannel(
  config: ResolvedConfig,
  account: OpSession,
  token: JWT,
): Promise<boolean> {
  const signedInAt =
    account.signedInAt ?? (typeof token.iat === "number" ? token.iat * 1000 : Date.now());
  const store = logoutStore(config);
  return Promise.all([
    account.sub ? store.get(subjectKey(account.provider, account.sub)) : null,
    account.sid ? store.get(sessionKey(account.provider, account.sid)) : null,
    account.sub && account.sid
      ? store.get(subjectSessionKey(account.provider, account.sub, account.sid))
      : account.sub
        ? store.get(sidlessKey(account.provider, account.sub))
        : null,
  ]).then((markers) => markers.some((marker) => marker !== null && Number(marker) >= signedInAt));
}
