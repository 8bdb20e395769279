/**
 * The one owner of the JWT session cookie. Every reader — the session action, `getAccessToken`,
 * sign-out and account linking — reads it here: decoded with
 * the configured `maxAge`, then checked against the revocation denylist and back-channel logouts
 * ({@link jwtSessionGate}). Every writer — sign-in, the `updateAge` re-issue, a refresh of the
 * account's tokens — writes it here, chunked, and sign-out ends it here.
 *
 * The gate is the one check a decoded session passes before anything believes it, so a session
 * revoked or ended by its OpenID Provider cannot be read back through one path the others refuse.
 * `getToken` (the public `@tessera/core/jwt` entry, used in edge middleware) applies its
 * denylist rule through `readJwtToken` in jwt-revocation.ts, which keeps that entry free of the
 * back-channel and refresh modules this one reaches.
 */
import { AdapterError, RefreshTokenError } from "../../errors.js";
import type { Account, Cookie, CookieOption, JWT } from "../../types.js";
import type { ResolvedConfig } from "../config/internal.js";
import { isDue } from "../config/oauth-defaults.js";
import { fromBase64url, fromUtf8 } from "../crypto/encoding.js";
import { sessionEnded } from "../crypto/jwe.js";
import { clearChunkedCookie, readChunkedCookie, writeChunkedCookie } from "../http/cookies.js";
import type { InternalOAuthProvider } from "../provider-types.js";
import type { SharedStore } from "../store/shared-store.js";
import {
  DEFAULT_REVOCATION_CACHE_SECONDS,
  denylistVerdict,
  jwtSessionId,
  revokeJwtSession,
} from "./jwt-revocation.js";

// The OAuth account a JWT session remembers, under one claim of the encrypted session JWT: the
// provider, the account's tokens for a `refresh: true` provider, and the ID token (with its `sub`
// and `sid`) for a `federatedLogout` provider or back-channel logout. The session read refreshes
// the tokens there when due and re-issues the cookie.

/** The parts of a request read outside the pipeline: the session cookie and the origin. */
export interface RequestCookies {
  /** The origin the app is served at (the request's, or `AUTH_URL`'s). */
  origin: string;
  cookies: Record<string, string>;
}

/** The session cookie's name and options for `request`, as the pipeline chooses them. */
export function sessionCookieOption(config: ResolvedConfig, request: RequestCookies) {
  const secure = config.source.useSecureCookies ?? request.origin.startsWith("https:");
  return config.cookies[secure ? 1 : 0].sessionToken;
}

/** The claim of the session JWT that holds {@link SessionAccount}. */
export const SESSION_ACCOUNT_CLAIM = "tessera.oauth";

/** The account a JWT session was created through. */
export interface SessionAccount {
  provider: string;
  providerAccountId: string;
  access_token?: string;
  token_type?: string;
  expires_at?: number;
  refresh_token?: string;
  scope?: string;
  id_token?: string;
  /** The ID token's subject and session id, matched by back-channel logout tokens. */
  sub?: string;
  sid?: string;
  /** When the user signed in (milliseconds since the epoch): back-channel logouts after it count. */
  signedInAt?: number;
  /** Set when a refresh was refused: the user must sign in again (as Auth.js's guide does). */
  error?: "RefreshTokenError";
}

/** Whether sessions created through `provider` need the claim. */
function remembersAccount(provider: InternalOAuthProvider): boolean {
  return provider.refresh === true || provider.federatedLogout === true || provider.type === "oidc";
}

/**
 * The `sub` and `sid` of an ID token the OAuth callback has already verified: only its payload is
 * decoded here (no JOSE library on the session path).
 */
function idTokenIdentity(idToken: unknown): { sub?: string; sid?: string } {
  if (typeof idToken !== "string") return {};
  try {
    const payload: unknown = JSON.parse(fromUtf8(fromBase64url(idToken.split(".")[1] ?? "")));
    if (!payload || typeof payload !== "object") return {};
    const { sub, sid } = payload as { sub?: unknown; sid?: unknown };
    return {
      ...(typeof sub === "string" && { sub }),
      ...(typeof sid === "string" && { sid }),
    };
  } catch {
    return {};
  }
}

/**
 * The claim for a session created through `provider` with `account`, or `undefined` when the
 * provider needs none. Only what a feature needs is kept: tokens with `refresh: true`, the ID
 * token with `federatedLogout: true`, the ID token's `sub`/`sid` for back-channel logout.
 *
 * @example
 * ```ts
 * const claim = sessionAccountClaim(provider, account)
 * if (claim) token[SESSION_ACCOUNT_CLAIM] = claim
 * ```
 */
export function sessionAccountClaim(
  provider: InternalOAuthProvider,
  account: Account,
): SessionAccount | undefined {
  if (!remembersAccount(provider)) return undefined;
  const claim: SessionAccount = {
    provider: provider.id,
    providerAccountId: account.providerAccountId,
    ...idTokenIdentity(account.id_token),
    signedInAt: Date.now(),
  };
  if (provider.refresh === true) {
    for (const field of ["access_token", "token_type", "refresh_token", "scope"] as const) {
      const value = account[field];
      if (typeof value === "string") claim[field] = value;
    }
    if (typeof account.expires_at === "number") claim.expires_at = account.expires_at;
  }
  if (provider.federatedLogout === true && typeof account.id_token === "string")
    claim.id_token = account.id_token;
  return claim;
}

/**
 * The claims of a session JWT that may reach the page (a client component, an RSC or HTML
 * payload): all but the account's OAuth tokens ({@link SESSION_ACCOUNT_CLAIM}: access, refresh
 * and ID tokens are the user's credentials at the provider) and the session's revocation ids
 * (`sid`, `jti`). For integrations that show the token in place of a user.
 *
 * @example
 * ```ts
 * import { pageSafeClaims } from "@tessera/core"
 * const user = params.user ?? pageSafeClaims(params.token)
 * ```
 */
export function pageSafeClaims(token: JWT): JWT {
  const { [SESSION_ACCOUNT_CLAIM]: _account, sid: _sid, jti: _jti, ...shown } = token;
  return shown;
}

/** The {@link SessionAccount} of a decoded session JWT, if it has a well-formed one. */
export function sessionAccountOf(token: JWT | null | undefined): SessionAccount | undefined {
  const claim = token?.[SESSION_ACCOUNT_CLAIM];
  if (!claim || typeof claim !== "object") return undefined;
  const { provider, providerAccountId } = claim as Partial<SessionAccount>;
  if (typeof provider !== "string" || typeof providerAccountId !== "string") return undefined;
  return claim as SessionAccount;
}

function withAccount(token: JWT, account: SessionAccount): JWT {
  return { ...token, [SESSION_ACCOUNT_CLAIM]: account };
}

/**
 * `token` with its account's access token refreshed when due (once for concurrent reads, see
 * `refreshOnce`); the same object when nothing changed, so the caller knows whether to re-issue
 * the cookie. A refused refresh marks the account `error: "RefreshTokenError"` and fires
 * `events.refreshTokenError`; a network failure changes nothing (the next read tries again).
 *
 * @example
 * ```ts
 * const next = await refreshedSessionToken(config, payload, origin)
 * if (next !== payload) reissueCookie(next)
 * ```
 */
export function refreshedSessionToken(
  config: ResolvedConfig,
  token: JWT,
  origin: string,
): JWT | Promise<JWT> {
  const account = sessionAccountOf(token);
  // Synchronous while nothing is due (most reads): the session read then pays no promise.
  if (!account || account.error || typeof account.access_token !== "string") return token;
  if (!isDue(config, account.expires_at)) return token;
  const provider = config
    .providersFor(origin)
    .find((candidate) => candidate.id === account.provider) as InternalOAuthProvider | undefined;
  if (provider?.refresh !== true) return token;
  return refreshAccount(config, token, account, provider);
}

/** {@link refreshedSessionToken} once a refresh is due. */
async function refreshAccount(
  config: ResolvedConfig,
  token: JWT,
  account: SessionAccount,
  provider: InternalOAuthProvider,
): Promise<JWT> {
  const identity = {
    provider: account.provider,
    providerAccountId: account.providerAccountId,
    ...(typeof token.sub === "string" && { userId: token.sub }),
  };
  const refreshToken = account.refresh_token;
  try {
    if (typeof refreshToken !== "string" || refreshToken === "")
      throw new RefreshTokenError(
        `The ${provider.id} account has an expired access token and no refresh token. Ask the provider for one (often the offline_access scope).`,
      );
    // The refresh bookkeeping and the OAuth client load with the first refresh: apps without
    // one never load them.
    const { refreshOnce } = await import("../oauth/refresh-flight.js");
    const tokens = await refreshOnce(config, provider, refreshToken, async () => {
      const { refreshTokens } = await import("../oauth/refresh.js");
      const refreshed = await refreshTokens(provider, refreshToken, account.sub);
      await config.events.tokenRefreshed?.({
        account: { ...identity, type: provider.type, ...refreshed },
      });
      return refreshed;
    });
    const refreshed: SessionAccount = { ...account, ...tokens };
    if (provider.federatedLogout !== true) delete refreshed.id_token;
    return withAccount(token, refreshed);
  } catch (error) {
    if (!(error instanceof RefreshTokenError)) {
      config.logger.error(error as Error);
      return token;
    }
    await config.events.refreshTokenError?.({ account: identity, error });
    return withAccount(token, { ...account, error: "RefreshTokenError" });
  }
}

/**
 * Whether a value that may be a promise still is one. The default `decode` and callbacks answer
 * synchronously, and awaiting a plain value costs every read a promise and a microtask turn.
 *
 * @example
 * ```ts
 * const token = isPending(result) ? await result : result
 * ```
 */
export function isPending<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as PromiseLike<T> | null)?.then === "function";
}

/**
 * What {@link jwtSessionGate} decided: `valid`; `ended` (revoked, or ended by the OP: the cookie
 * is dead and is cleared); `unavailable` (the store could not be asked: the request is refused,
 * but the cookie is kept for when the store is back).
 */
type JwtSessionVerdict = "valid" | "ended" | "unavailable";

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
  const account = sessionAccountOf(token);
  // Only a session signed in through an OpenID Provider (its `sub` or `sid` recorded) can be ended
  // by one; every other read decides here, synchronously, without a store.
  if (!account || (!account.sub && !account.sid)) return "valid";
  const what = "back-channel logout store (oauth.store, else jwt.revocation)";
  // Back-channel logout's bookkeeping loads with the first such session: an app whose sessions
  // come from no OpenID Provider never loads it.
  const ended = import("./backchannel.js").then(({ endedThroughBackchannel }) =>
    endedThroughBackchannel(config, account, token),
  );
  return ended.then(
    (yes) => (yes ? "ended" : "valid"),
    (error: unknown) => unavailable(config, what, error),
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
function jwtSessionGate(
  config: ResolvedConfig,
  token: JWT,
  cacheSeconds = config.jwt.revocationCacheSeconds,
): JwtSessionVerdict | Promise<JwtSessionVerdict> {
  const denylist = config.jwt.revocation;
  if (denylist) return gateWithDenylist(config, denylist, token, cacheSeconds);
  return backchannelVerdict(config, token);
}

/**
 * What {@link readJwtSession} found: the decoded, unrevoked session token, or why there is none:
 * `none` (no cookie), `ended` (revoked, or ended by the OpenID Provider: clear the cookie with
 * {@link clearJwtSession}), `unavailable` (the store could not be asked: refuse the request but
 * keep the cookie for when it is back). A string, not a wrapper object: read on every request.
 */
export type JwtSessionRead = JWT | "none" | "ended" | "unavailable";

function gated(
  config: ResolvedConfig,
  payload: JWT | null,
  cacheSeconds: number | undefined,
): JwtSessionRead | Promise<JwtSessionRead> {
  if (!payload) throw new TypeError("the session token decoded to nothing");
  // A session with a hard end (an impersonation) is over then, however often it was re-issued.
  if (sessionEnded(payload)) return "ended";
  const verdict = jwtSessionGate(config, payload, cacheSeconds);
  if (verdict === "valid") return payload;
  if (verdict instanceof Promise)
    return verdict.then((settled) => (settled === "valid" ? payload : settled));
  return verdict;
}

/**
 * Reads the JWT session cookie of a request: joined from its chunks, decoded with `jwt.maxAge`
 * (a token older than `iat + maxAge` is refused whatever its `exp`), then passed through
 * {@link jwtSessionGate}. Throws when the cookie does not decode (tampered, foreign secret,
 * expired): the caller decides whether that is logged. Synchronous when nothing has to be looked
 * up, so the common read pays no promise. `cacheSeconds` overrides `jwt.revocationCacheSeconds`
 * (0: ask the store now).
 *
 * @example
 * ```ts
 * const reading = readJwtSession(config, request.cookies, cookies.sessionToken)
 * const read = reading instanceof Promise ? await reading : reading
 * if (read === "ended") return signedOut(clearJwtSession(request.cookies, cookies.sessionToken))
 * if (typeof read === "string") return signedOut([])
 * ```
 */
export function readJwtSession(
  config: ResolvedConfig,
  cookies: Record<string, string>,
  option: CookieOption,
  cacheSeconds?: number,
): JwtSessionRead | Promise<JwtSessionRead> {
  const raw = readChunkedCookie(cookies, option.name);
  if (!raw) return "none";
  const decoding = config.jwt.decode({
    token: raw,
    secret: config.secrets,
    salt: option.name,
    maxAge: config.jwt.maxAge,
  });
  if (isPending(decoding))
    return Promise.resolve(decoding).then((payload) => gated(config, payload, cacheSeconds));
  return gated(config, decoding, cacheSeconds);
}

/**
 * The attributes a legacy cookie is deleted with: a `__Secure-`/`__Host-` cookie is only deleted
 * by a `Secure` one (the browser refuses the rest).
 */
function legacyOption(name: string): CookieOption {
  const secure = name.startsWith("__Secure-") || name.startsWith("__Host-");
  return { name, options: { path: "/", httpOnly: true, sameSite: "lax", secure } };
}

/** A session read from a legacy cookie (`jwt.legacySessionCookies`): to re-issue, and to clear. */
export interface LegacyJwtSession {
  payload: JWT;
  /** The cookies that delete the legacy cookie (and its chunks). */
  clear: Cookie[];
}

/**
 * The session of the first legacy session cookie present (`jwt.legacySessionCookies`), passed
 * through the same gate as the session cookie; `undefined` when there is none or it does not
 * decode. Only called when the session cookie itself is absent.
 *
 * @example
 * ```ts
 * const legacy = await readLegacyJwtSession(config, request.cookies)
 * if (legacy) issued = [...(await writeJwtSession(…, legacy.payload, expires)), ...legacy.clear]
 * ```
 */
export async function readLegacyJwtSession(
  config: ResolvedConfig,
  cookies: Record<string, string>,
): Promise<LegacyJwtSession | undefined> {
  for (const legacy of config.jwt.legacySessionCookies ?? []) {
    const raw = readChunkedCookie(cookies, legacy.name);
    if (!raw) continue;
    const option = legacyOption(legacy.name);
    let payload: JWT | null;
    try {
      payload = await legacy.decode(raw);
    } catch {
      // A legacy cookie that does not decode is no session; it is left for its own expiry.
      continue;
    }
    if (!payload) continue;
    const read = await gated(config, payload, undefined);
    if (typeof read === "string") return undefined;
    return { payload: read, clear: clearChunkedCookie(cookies, option) };
  }
  return undefined;
}

/**
 * The cookies that delete every legacy session cookie present (`jwt.legacySessionCookies`), for
 * sign-out: a session kept in one must end with the others.
 */
export function clearLegacyJwtSessions(
  config: ResolvedConfig,
  cookies: Record<string, string>,
): Cookie[] {
  const cleared: Cookie[] = [];
  for (const legacy of config.jwt.legacySessionCookies ?? [])
    if (readChunkedCookie(cookies, legacy.name) !== undefined)
      cleared.push(...clearChunkedCookie(cookies, legacyOption(legacy.name)));
  return cleared;
}

/**
 * The decoded JWT session cookie without the gate, or null when there is none or it does not
 * decode (with `jwt.maxAge`, as every read). For sign-out, which ends the session whatever the
 * denylist says.
 *
 * @example
 * ```ts
 * const token = await decodeJwtSession(config, request.cookies, cookies.sessionToken)
 * ```
 */
export async function decodeJwtSession(
  config: ResolvedConfig,
  cookies: Record<string, string>,
  option: CookieOption,
): Promise<JWT | null> {
  const raw = readChunkedCookie(cookies, option.name);
  if (!raw) return null;
  try {
    return await config.jwt.decode({
      token: raw,
      secret: config.secrets,
      salt: option.name,
      maxAge: config.jwt.maxAge,
    });
  } catch {
    return null;
  }
}

/**
 * Whether a session token read now is due for re-issue: `updateAge` has passed since it was
 * issued (Auth.js re-encrypts on every read; Tessera at most once per `updateAge`).
 *
 * @example
 * ```ts
 * if (isUpdate || changed || jwtSessionDue(config, token, now)) cookies = await reissueJwtSession(…)
 * ```
 */
export function jwtSessionDue(config: ResolvedConfig, token: JWT, now: number): boolean {
  const issuedAt = typeof token.iat === "number" ? token.iat * 1000 : 0;
  return now - issuedAt >= config.session.updateAge * 1000;
}

/**
 * Encodes `token` with `jwt.maxAge` and answers the cookies that store it (chunked when long,
 * stale chunks of the previous value cleared), expiring at `expires`. While `jwt.revocation` is
 * on, every session written here carries a revocation id (`sid`): a new session gets one, and a
 * re-issue keeps the one it had (see {@link tokenToReissue}), so the id outlives the re-issues
 * that replace `jti` and no writer can forget it.
 *
 * @example
 * ```ts
 * const expires = new Date(Date.now() + config.jwt.maxAge * 1000)
 * const issued = await writeJwtSession(config, request.cookies, cookies.sessionToken, token, expires)
 * ```
 */
export async function writeJwtSession(
  config: ResolvedConfig,
  cookies: Record<string, string>,
  option: CookieOption,
  token: JWT,
  expires: Date,
): Promise<Cookie[]> {
  const value = await config.jwt.encode({
    token: withSessionId(config.jwt.revocation, token),
    secret: config.secrets,
    salt: option.name,
    maxAge: config.jwt.maxAge,
  });
  return writeChunkedCookie(cookies, option, value, { expires });
}

/**
 * The token to encode when the session `decoded` is re-issued as `next` (the `jwt` callback's
 * result, or a refreshed token). Claims the session depends on are carried over when `next`
 * lacks them: a callback that builds a new object must not drop the revocation id (`sid`: a copy
 * of the cookie would outlive a sign-out) or the OAuth account (refresh, federated logout). With
 * `jwt.revocation`, a session without `sid` gets its old `jti` as `sid`: every copy of the cookie
 * shares that `jti`, so revoking the original also ends the re-issued cookie, which `encode`
 * gives a new `jti`.
 */
function tokenToReissue(config: ResolvedConfig, decoded: JWT, next: JWT): JWT {
  const token: JWT = { ...next };
  if (token[SESSION_ACCOUNT_CLAIM] === undefined && decoded[SESSION_ACCOUNT_CLAIM] !== undefined)
    token[SESSION_ACCOUNT_CLAIM] = decoded[SESSION_ACCOUNT_CLAIM];
  if (typeof token.sid === "string" && token.sid !== "") return token;
  const previousId = jwtSessionId(decoded);
  if (typeof decoded.sid === "string" && decoded.sid !== "") token.sid = decoded.sid;
  else if (config.jwt.revocation && previousId !== undefined) token.sid = previousId;
  return token;
}

/**
 * `token` with a revocation id (`sid`) when revocation is on and it has none. `sst` records when
 * the session started, carried over like `sid`, for a user's cut-off (`revokeUserJwtSessions`).
 */
function withSessionId(store: SharedStore | undefined, token: JWT): JWT {
  if (!store || (typeof token.sid === "string" && token.sid !== "")) return token;
  return { ...token, sid: crypto.randomUUID(), sst: Date.now() };
}

/**
 * Re-issues the session `decoded` (as {@link readJwtSession} answered it) with the claims of
 * `next`, keeping its revocation id and OAuth account (see the module's rule above). Only a
 * session the gate let through is re-issued, so a revoked id never gets a fresh cookie.
 *
 * @example
 * ```ts
 * const issued = await reissueJwtSession(config, request.cookies, option, payload, token, expires)
 * ```
 */
export function reissueJwtSession(
  config: ResolvedConfig,
  cookies: Record<string, string>,
  option: CookieOption,
  decoded: JWT,
  next: JWT,
  expires: Date,
): Promise<Cookie[]> {
  return writeJwtSession(config, cookies, option, tokenToReissue(config, decoded, next), expires);
}

/**
 * The cookies that delete the session cookie and every chunk of it.
 *
 * @example
 * ```ts
 * return respond(null, clearJwtSession(request.cookies, cookies.sessionToken))
 * ```
 */
export function clearJwtSession(cookies: Record<string, string>, option: CookieOption): Cookie[] {
  return clearChunkedCookie(cookies, option);
}

/**
 * Revokes the JWT session `token` in `jwt.revocation` (no-op without one or without an id) for as
 * long as any cookie carrying its id can live: `jwt.maxAge` from now (every read decodes with it,
 * so no cookie outlives `iat + maxAge`), plus the time another instance may still trust a cached
 * "not revoked" (`revocationCacheSeconds`) and re-issue it; `revokeJwtSession` adds a minute for
 * clock skew. Not until the presented cookie's `exp`: a copy re-issued earlier (a read past
 * `updateAge`, a `POST /session`) has a later `exp` under the same id, and would come back to
 * life once the entry expired. Rejects when the store cannot be written.
 *
 * @example
 * ```ts
 * await revokeJwtSessionOf(config, await decodeJwtSession(config, request.cookies, option))
 * ```
 */
export async function revokeJwtSessionOf(config: ResolvedConfig, token: JWT | null): Promise<void> {
  const store = config.jwt.revocation;
  const sessionId = jwtSessionId(token);
  if (!store || sessionId === undefined) return;
  const cacheSeconds = config.jwt.revocationCacheSeconds ?? DEFAULT_REVOCATION_CACHE_SECONDS;
  const lifetime = config.jwt.maxAge + cacheSeconds;
  await revokeJwtSession(store, sessionId, new Date(Date.now() + lifetime * 1000));
}
