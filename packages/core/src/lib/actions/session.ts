/**
 * `GET /session` reads the session; `POST /session` (with `csrfToken` and `data`) updates it.
 *
 * JWT sessions are re-issued only when due (`updateAge`), on update, or when the `jwt` callback
 * changed the token — not re-encrypted on every read. Database sessions are extended at most once
 * per `updateAge` and deleted when found expired.
 */
import type { AdapterSession, AdapterUser, Awaitable } from "../../adapters.js";
import { JWTSessionError, MissingCSRF, SessionTokenError } from "../../errors.js";
import type {
  CallbacksOptions,
  Cookie,
  DefaultSession,
  JWT,
  ResponseInternal,
  Session,
  User,
} from "../../types.js";
import { requireAdapter, supportsSessionListing } from "../config/adapter.js";
import type { AuthContext, ResolvedConfig } from "../config/internal.js";
import { sessionEndOf, sessionTokenEnd } from "../crypto/jwe.js";
import { clearChunkedCookie, readChunkedCookie, writeChunkedCookie } from "../http/cookies.js";
import {
  clearJwtSession,
  isPending,
  jwtSessionDue,
  type LegacyJwtSession,
  readJwtSession,
  readLegacyJwtSession,
  refreshedSessionToken,
  reissueJwtSession,
  sessionAccountOf,
} from "../session/jwt-cookie.js";

type SessionCallbackParams = Parameters<CallbacksOptions["session"]>[0];
type UpdateParams = { newSession?: unknown; trigger?: "update" };
/** What the session callback receives with JWT sessions. */
type JwtSessionParams = { session: Session; token: JWT } & UpdateParams;
/** What the session callback receives with database sessions. */
type DatabaseSessionParams = {
  session: { user: AdapterUser } & AdapterSession;
  user: AdapterUser;
} & UpdateParams;

/**
 * Calls the session callback with the configured strategy's half of its parameter. Auth.js types
 * the parameter as the intersection of both halves, so that a callback written for either
 * strategy compiles; at run time only one half exists, which this one assertion states.
 */
function runSessionCallback(
  ctx: AuthContext,
  params: JwtSessionParams | DatabaseSessionParams,
): Awaitable<Session | DefaultSession> {
  return ctx.config.callbacks.session(params as SessionCallbackParams);
}

/**
 * `session` with the extensions' fields from `claims` (how the user authenticated), never over
 * what the callback set. Symbol-keyed fields are copied too: they stay in-process.
 */
function withExtensionFields<S extends object>(
  config: ResolvedConfig,
  session: S,
  claims: JWT,
  userId: string | undefined,
): S {
  let shown = session;
  for (const fields of config.sessionFields) {
    const added = fields(claims, { config, userId });
    if (added)
      for (const name of Reflect.ownKeys(added))
        if (!(name in shown)) shown = { ...shown, [name]: added[name] };
  }
  return shown;
}

/** `next` with the claims named in `kept` that it lacks copied from `previous`. */
function keepClaims(kept: readonly string[], previous: JWT, next: JWT): JWT {
  if (kept.length === 0) return next;
  let token = next;
  for (const name of kept)
    if (token[name] === undefined && previous[name] !== undefined)
      token = { ...token, [name]: previous[name] };
  return token;
}

/** A session answer: JSON, never cached. A literal, not `json()`'s spreads: read on every request. */
function respond(body: Session | null, cookies: Cookie[] = []): ResponseInternal {
  const headers = {
    "Content-Type": "application/json",
    "Cache-Control": "private, no-cache, no-store",
    Expires: "0",
    Pragma: "no-cache",
  };
  return { status: 200, body, headers, cookies };
}

/** Handles `GET` and `POST /session` (not `async`: it hands on the strategy's promise as is). */
export function session(ctx: AuthContext): Promise<ResponseInternal> {
  const isUpdate = ctx.request.method === "POST";
  // CSRF: an update changes server state, so it needs the double-submit token.
  if (isUpdate && !ctx.csrfTokenVerified)
    return Promise.reject(new MissingCSRF("POST /session needs a valid csrfToken in the body."));
  const newSession = isUpdate ? ctx.request.body?.data : undefined;
  return ctx.config.session.strategy === "jwt"
    ? jwtSession(ctx, isUpdate, newSession)
    : databaseSession(ctx, isUpdate, newSession);
}

async function jwtSession(
  ctx: AuthContext,
  isUpdate: boolean,
  newSession: unknown,
): Promise<ResponseInternal> {
  const { config, cookies, request } = ctx;
  const option = cookies.sessionToken;
  try {
    // Decoded with `jwt.maxAge`; a revoked session (signed out, or revoked elsewhere; a copy of
    // the cookie still within its lifetime too) or one its OpenID Provider ended (back-channel
    // logout) reads as signed out at once; while the store cannot be asked, as signed out with
    // the cookie kept (fail closed).
    const reading = readJwtSession(config, request.cookies, option);
    let payload = reading instanceof Promise ? await reading : reading;
    // Without a session cookie, a session of an earlier setup (`jwt.legacySessionCookies`) is
    // read instead, re-issued in the session cookie below, and its old cookie cleared.
    let legacy: LegacyJwtSession | undefined;
    if (payload === "none" && config.jwt.legacySessionCookies?.length) {
      legacy = await readLegacyJwtSession(config, request.cookies);
      if (legacy) payload = legacy.payload;
    }
    if (typeof payload === "string")
      return respond(null, payload === "ended" ? clearJwtSession(request.cookies, option) : []);
    // A `refresh: true` provider's expired access token is refreshed before the callback runs.
    const refreshing = refreshedSessionToken(config, payload, request.url.origin);
    const current = refreshing instanceof Promise ? await refreshing : refreshing;
    // The default `jwt` callback returns the token untouched, so only the app's own is compared.
    const customJwt = config.source.callbacks?.jwt !== undefined;
    const before = customJwt ? JSON.stringify(current) : "";
    const jwtResult = config.callbacks.jwt({
      token: current,
      // On a read there is no user (only at sign-in), as in Auth.js.
      user: undefined as unknown as User,
      account: null,
      ...(isUpdate && { trigger: "update" as const, session: newSession }),
    });
    const returned = isPending(jwtResult) ? await jwtResult : jwtResult;
    if (returned === null) return respond(null, clearJwtSession(request.cookies, option));
    // Claims extensions keep (how the user authenticated) survive a callback's new token.
    const token = keepClaims(config.keptClaims, current, returned);

    const now = Date.now();
    const maxAge = config.jwt.maxAge;
    const changed = current !== payload || (customJwt && JSON.stringify(token) !== before);
    let issued: Cookie[] = [];
    let expires: Date;
    const end = sessionTokenEnd(token, maxAge);
    if (legacy || isUpdate || changed || end === undefined || jwtSessionDue(config, token, now)) {
      expires = new Date(now + maxAge * 1000);
      issued = await reissueJwtSession(config, request.cookies, option, current, token, expires);
      if (legacy) issued.push(...legacy.clear);
    } else {
      expires = new Date(end * 1000);
    }
    const sessionResult = runSessionCallback(ctx, {
      session: {
        user: { name: token.name, email: token.email, image: token.picture },
        expires: expires.toISOString(),
      },
      token,
      ...(isUpdate && { newSession, trigger: "update" as const }),
    });
    const session = isPending(sessionResult) ? await sessionResult : sessionResult;
    // A refused refresh shows as `error`, as in Auth.js's refresh guide: the app asks the user
    // to sign in again. Added after the callback, so the default callback keeps it too.
    // The account of the re-issued token (kept even when the callback built a new object).
    const refreshError = (sessionAccountOf(token) ?? sessionAccountOf(current))?.error;
    let shown =
      refreshError && !("error" in session) ? { ...session, error: refreshError } : session;
    shown = withExtensionFields(config, shown, token, token.sub ?? undefined);
    if (config.events.session)
      await config.events.session({ session: shown as Session, token: token as JWT });
    return respond(shown as Session, issued);
  } catch (error) {
    ctx.logger.error(new JWTSessionError(error as Error));
    // An unreadable cookie (tampered, foreign secret, expired) is removed so it stops costing work.
    return respond(null, clearJwtSession(request.cookies, option));
  }
}

async function databaseSession(
  ctx: AuthContext,
  isUpdate: boolean,
  newSession: unknown,
): Promise<ResponseInternal> {
  const { config, cookies, request } = ctx;
  const adapter = requireAdapter(config, "The database session strategy");
  const option = cookies.sessionToken;
  const sessionToken = readChunkedCookie(request.cookies, option.name);
  if (!sessionToken) return respond(null);
  try {
    const found = await adapter.getSessionAndUser(sessionToken);
    if (!found) return respond(null, clearChunkedCookie(request.cookies, option));
    const { user } = found;
    let stored = found.session;
    const now = Date.now();
    if (stored.expires.valueOf() < now) {
      await adapter.deleteSession(sessionToken);
      return respond(null, clearChunkedCookie(request.cookies, option));
    }
    // Only extensions that show how the user authenticated keep claims for database sessions;
    // their store is loaded with the first such read.
    const claims =
      config.sessionFields.length > 0
        ? await (await import("../session/session-claims.js")).readSessionClaims(
            config,
            sessionToken,
          )
        : null;
    // A session with a hard end (an impersonation) ends then and is never extended past it.
    const end = sessionEndOf(claims);
    if (end !== undefined && end <= now) {
      await adapter.deleteSession(sessionToken);
      return respond(null, clearChunkedCookie(request.cookies, option));
    }
    const issued: Cookie[] = [];
    const { maxAge, updateAge } = config.session;
    const dueAt = stored.expires.valueOf() - maxAge * 1000 + updateAge * 1000;
    if (dueAt <= now && (end === undefined || stored.expires.valueOf() < end)) {
      const expires = new Date(Math.min(now + maxAge * 1000, end ?? Number.POSITIVE_INFINITY));
      // lastSeenAt moves with the extension, so at most once per updateAge (one write per read
      // would cost every request a database write); only adapters that read it back get it.
      const seen = supportsSessionListing(config) ? { lastSeenAt: new Date(now) } : {};
      stored = (await adapter.updateSession({ sessionToken, expires, ...seen })) ?? {
        ...stored,
        expires,
        ...seen,
      };
      issued.push(...writeChunkedCookie(request.cookies, option, sessionToken, { expires }));
    }
    const sessionResult = runSessionCallback(ctx, {
      session: { ...stored, user },
      user,
      ...(isUpdate && { newSession, trigger: "update" as const }),
    });
    const answered = isPending(sessionResult) ? await sessionResult : sessionResult;
    const session = withExtensionFields(config, answered, (claims ?? {}) as JWT, user.id);
    if (config.events.session) await config.events.session({ session: session as Session });
    return respond(session as Session, issued);
  } catch (error) {
    // The cookie is kept: a database outage must not sign everyone out.
    ctx.logger.error(new SessionTokenError(error as Error));
    return respond(null);
  }
}
