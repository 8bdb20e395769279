/**
 * `admin(options)`: user administration for the users whose global role makes them
 * administrators: list and search users, set a user's role, ban and unban, create a user, end a
 * user's sessions, reset a user's two-factor, and impersonate a user for a limited time. It adds
 * one action row, `admin`, whose sub-paths are the operations, and a sign-in step that refuses
 * banned users. Every operation checks, against the adapter, that the caller is an administrator
 * now (a role taken away stops working at once).
 */
import type { AdapterUser } from "../../adapters.js";
import { UserBanned } from "../../errors.js";
import type { ActionRow, AuthContext, SignInStep } from "../../lib/config/internal.js";
import {
  decodeSessionToken,
  encodeSessionToken,
  SESSION_END_CLAIM,
  sessionEndOf,
  sharedSessionTokenCache,
} from "../../lib/crypto/jwe.js";
import { defineExtension } from "../../lib/extension.js";
import type { TesseraExtension } from "../../lib/extension-handle.js";
import {
  clearChunkedCookie,
  readChunkedCookie,
  writeChunkedCookie,
} from "../../lib/http/cookies.js";
import { json } from "../../lib/http/response.js";
import { newSessionMetadata } from "../../lib/session/devices.js";
import { endEverySession } from "../../lib/session/end-sessions.js";
import {
  readJwtSession,
  revokeJwtSessionOf,
  writeJwtSession,
} from "../../lib/session/jwt-cookie.js";
import { readSessionClaims, storeSessionClaims } from "../../lib/session/session-claims.js";
import type { Cookie, CookieOption, JWT, ResponseInternal } from "../../types.js";
import { ACTOR_CLAIM, actorOf, type ImpersonationFields } from "./impersonation.js";
import { ADMIN_ADAPTER_METHODS, type AdminAdapter, type AdminUserRecord } from "./storage.js";

/** The name of the action row: `<basePath>/admin/<sub-path>`. */
export const ADMIN_ACTION = "admin";
/** The name of the sign-in step that refuses banned users. */
export const BAN_STEP = "admin-ban";

/** One change, as the events receive it: the audit trail an app stores. */
export type AdminEvent =
  | { type: "userCreated"; actorId: string; userId: string; role: string | null }
  | { type: "userRoleChanged"; actorId: string; userId: string; role: string | null }
  | {
      type: "userBanned";
      actorId: string;
      userId: string;
      reason: string | null;
      expires: Date | null;
    }
  | { type: "userUnbanned"; actorId: string; userId: string }
  | { type: "userSessionsRevoked"; actorId: string; userId: string }
  | { type: "userTwoFactorReset"; actorId: string; userId: string }
  | { type: "impersonationStarted"; actorId: string; userId: string; expires: Date }
  | { type: "impersonationStopped"; actorId: string; userId: string };

/** Options of {@link admin}. */
export interface AdminOptions {
  /** The global roles that make a user an administrator; default `["admin"]`. */
  adminRoles?: readonly string[];
  /** Users who are administrators whatever their role (the first administrator, say). */
  adminUserIds?: readonly string[];
  /** The roles `setRole` and `createUser` accept; default `["admin", "user"]`. */
  roles?: readonly string[];
  /** How long an impersonation lasts at most, in seconds; default 1 hour. */
  impersonationMaxAge?: number;
  /**
   * Whether an administrator may impersonate another administrator; default false (a way to
   * take over a peer's rights that nobody needs for support).
   */
  impersonateAdmins?: boolean;
  /** Every change; a handler that throws is logged, never breaks a flow. */
  onEvent?(event: AdminEvent): void | Promise<void>;
}

interface Resolved {
  adminRoles: ReadonlySet<string>;
  adminUserIds: ReadonlySet<string>;
  roles: ReadonlySet<string>;
  impersonationMaxAge: number;
  impersonateAdmins: boolean;
  onEvent: AdminOptions["onEvent"];
}

type Store = AdminAdapter & {
  getUserByEmail(email: string): Promise<AdapterUser | null> | AdapterUser | null;
  createUser(user: AdapterUser): Promise<AdapterUser> | AdapterUser;
  deleteTwoFactor?(userId: string): Promise<void> | void;
};

/** The adapter's admin methods (present: the config check made sure). */
function store(ctx: AuthContext): Store {
  return ctx.config.rawAdapter as unknown as Store;
}

function refused(status: number, error: string): ResponseInternal {
  return json({ error }, status);
}

function isRefusal<T extends object>(value: T | ResponseInternal): value is ResponseInternal {
  return "status" in value;
}

async function emit(ctx: AuthContext, options: Resolved, event: AdminEvent): Promise<void> {
  if (!options.onEvent) return;
  try {
    await options.onEvent(event);
  } catch (error) {
    ctx.logger.error(error instanceof Error ? error : new Error(String(error)));
  }
}

/** A body or query field as a non-empty string of bounded length, or null. */
function field(ctx: AuthContext, name: string, max = 200): string | null {
  const value = ctx.request.body?.[name] ?? ctx.request.query[name];
  if (typeof value !== "string" && typeof value !== "number") return null;
  const trimmed = String(value).trim();
  return trimmed.length > 0 && trimmed.length <= max ? trimmed : null;
}

/** A body or query field as a whole number in `[min, max]`, `fallback` when absent, else null. */
function wholeNumber(
  ctx: AuthContext,
  name: string,
  min: number,
  max: number,
  fallback: number,
): number | null {
  const raw = field(ctx, name, 20);
  if (raw === null) return fallback;
  const value = Number(raw);
  return Number.isInteger(value) && value >= min && value <= max ? value : null;
}

/** Whether the ban on `user` holds now (an expired ban lets the user in again). */
function isBanned(user: AdminUserRecord, now = Date.now()): boolean {
  return user.ban !== null && (user.ban.expires === null || user.ban.expires.getTime() > now);
}

function isAdministrator(options: Resolved, user: AdminUserRecord): boolean {
  return (
    options.adminUserIds.has(user.id) || (user.role !== null && options.adminRoles.has(user.role))
  );
}

/** Who is signed in, and whether an administrator is acting as them. */
interface Caller {
  userId: string;
  /** The administrator acting as the user (an impersonated session), or null. */
  impersonatedBy: string | null;
  /** The decoded session (JWT strategy). */
  token?: JWT;
  /** The session token (database strategy). */
  sessionToken?: string;
}

/**
 * The session of the request, read now: JWT sessions through the revocation gates (no cached
 * "not revoked"), database sessions looked up with their claims.
 */
async function callerOf(ctx: AuthContext): Promise<Caller | null> {
  const { config, cookies, request } = ctx;
  try {
    if (config.session.strategy === "jwt") {
      const read = await readJwtSession(config, request.cookies, cookies.sessionToken, 0);
      if (typeof read === "string" || typeof read.sub !== "string") return null;
      return { userId: read.sub, impersonatedBy: actorOf(read), token: read };
    }
    const sessionToken = readChunkedCookie(request.cookies, cookies.sessionToken.name);
    const found = sessionToken ? await config.adapter?.getSessionAndUser(sessionToken) : null;
    if (!sessionToken || !found || found.session.expires.valueOf() < Date.now()) return null;
    const claims = await readSessionClaims(config, sessionToken);
    return { userId: found.user.id, impersonatedBy: actorOf(claims), sessionToken };
  } catch {
    return null;
  }
}

/**
 * The caller when they are an administrator now, else the refusal. An impersonated session is
 * refused whoever it belongs to: it acts as the user, never as an administrator, so it can
 * neither start another impersonation (a chain that hides who acted) nor administer.
 */
async function administrator(
  ctx: AuthContext,
  options: Resolved,
): Promise<Caller | ResponseInternal> {
  const caller = await callerOf(ctx);
  if (!caller) return refused(401, "NotSignedIn");
  if (caller.impersonatedBy !== null) return refused(403, "ImpersonationActive");
  const record = await store(ctx).getAdminUser(caller.userId);
  if (!record || isBanned(record) || !isAdministrator(options, record))
    return refused(403, "Forbidden");
  return caller;
}

/** The user named by the request's `userId`, or the refusal. */
async function targetUser(ctx: AuthContext): Promise<AdminUserRecord | ResponseInternal> {
  const userId = field(ctx, "userId");
  if (!userId) return refused(400, "UserIdRequired");
  return (await store(ctx).getAdminUser(userId)) ?? refused(404, "UserNotFound");
}

async function listUsers(ctx: AuthContext) {
  const limit = wholeNumber(ctx, "limit", 1, 100, 20);
  const offset = wholeNumber(ctx, "offset", 0, 1_000_000, 0);
  if (limit === null || offset === null) return refused(400, "InvalidPage");
  const search = field(ctx, "search", 200) ?? undefined;
  const page = await store(ctx).listUsers({
    ...(search !== undefined && { search }),
    limit,
    offset,
  });
  return json({ ...page, limit, offset });
}

/** Shape only (the address is not proved): `local@domain`, no spaces, bounded length. */
const EMAIL = /^[^\s@]+@[^\s@]+$/;

async function createUser(ctx: AuthContext, options: Resolved, caller: Caller) {
  const email = field(ctx, "email", 320)?.toLowerCase();
  const name = field(ctx, "name") ?? null;
  const role = field(ctx, "role", 64);
  if (!email || !EMAIL.test(email)) return refused(400, "InvalidEmail");
  if (role !== null && !options.roles.has(role)) return refused(400, "UnknownRole");
  const adapter = store(ctx);
  if (await adapter.getUserByEmail(email)) return refused(409, "EmailTaken");
  const user = await adapter.createUser({
    id: crypto.randomUUID(),
    email,
    name,
    emailVerified: null,
  });
  if (role !== null) await adapter.setUserRole(user.id, role);
  await emit(ctx, options, { type: "userCreated", actorId: caller.userId, userId: user.id, role });
  return json({ user: await adapter.getAdminUser(user.id) });
}

async function setRole(ctx: AuthContext, options: Resolved, caller: Caller) {
  const target = await targetUser(ctx);
  if (isRefusal(target)) return target;
  const raw = field(ctx, "role", 64);
  const role = raw === null || raw === "none" ? null : raw;
  if (role !== null && !options.roles.has(role)) return refused(400, "UnknownRole");
  // An administrator who demotes themselves may leave nobody to undo it.
  if (target.id === caller.userId) return refused(400, "CannotChangeOwnRole");
  await store(ctx).setUserRole(target.id, role);
  await emit(ctx, options, {
    type: "userRoleChanged",
    actorId: caller.userId,
    userId: target.id,
    role,
  });
  return json({ userId: target.id, role });
}

/** Ends every session of `userId`; logs when JWT sessions could not be recalled. */
async function endSessions(ctx: AuthContext, userId: string): Promise<void> {
  const recalled = await endEverySession(ctx, userId);
  if (!recalled && ctx.config.session.strategy === "jwt")
    ctx.logger.warn("jwt-sessions-not-recalled");
}

async function ban(ctx: AuthContext, options: Resolved, caller: Caller) {
  const target = await targetUser(ctx);
  if (isRefusal(target)) return target;
  if (target.id === caller.userId) return refused(400, "CannotBanSelf");
  const reason = field(ctx, "reason", 500);
  // Up to ten years; absent: until lifted.
  const expiresIn = wholeNumber(ctx, "expiresIn", 1, 10 * 365 * 24 * 60 * 60, 0);
  if (expiresIn === null) return refused(400, "InvalidExpiry");
  const expires = expiresIn === 0 ? null : new Date(Date.now() + expiresIn * 1000);
  await store(ctx).setUserBan(target.id, { reason, expires });
  await endSessions(ctx, target.id);
  await emit(ctx, options, {
    type: "userBanned",
    actorId: caller.userId,
    userId: target.id,
    reason,
    expires,
  });
  return json({ userId: target.id, ban: { reason, expires } });
}

async function unban(ctx: AuthContext, options: Resolved, caller: Caller) {
  const target = await targetUser(ctx);
  if (isRefusal(target)) return target;
  await store(ctx).setUserBan(target.id, null);
  await emit(ctx, options, { type: "userUnbanned", actorId: caller.userId, userId: target.id });
  return json({ userId: target.id, ban: null });
}

async function revokeSessions(ctx: AuthContext, options: Resolved, caller: Caller) {
  const target = await targetUser(ctx);
  if (isRefusal(target)) return target;
  await endSessions(ctx, target.id);
  await emit(ctx, options, {
    type: "userSessionsRevoked",
    actorId: caller.userId,
    userId: target.id,
  });
  return json({ userId: target.id, revoked: true });
}

async function resetTwoFactor(ctx: AuthContext, options: Resolved, caller: Caller) {
  const adapter = store(ctx);
  // The two-factor extension's storage: absent when the adapter has none.
  if (typeof adapter.deleteTwoFactor !== "function") return refused(400, "TwoFactorUnavailable");
  const target = await targetUser(ctx);
  if (isRefusal(target)) return target;
  await adapter.deleteTwoFactor(target.id);
  await emit(ctx, options, {
    type: "userTwoFactorReset",
    actorId: caller.userId,
    userId: target.id,
  });
  return json({ userId: target.id, twoFactor: false });
}

/** What the sealed cookie keeps while an administrator impersonates someone. */
interface KeptAdminSession {
  /** The administrator. */
  sub: string;
  /** The impersonated user: the cookie restores only from that user's impersonated session. */
  user: string;
  /** The administrator's session cookie value, as it was. */
  session: string;
}

/**
 * The cookie that keeps the administrator's own session during an impersonation, sealed (a JWE,
 * salt = its name) so that the browser can neither read nor change it: `__Secure-` on https,
 * httpOnly, gone when the impersonation ends.
 */
function keptSessionCookie(ctx: AuthContext): CookieOption {
  return {
    name: `${ctx.secureCookies ? "__Secure-" : ""}authjs.admin-session`,
    options: { httpOnly: true, sameSite: "lax", path: "/", secure: ctx.secureCookies },
  };
}

async function keepAdminSession(
  ctx: AuthContext,
  kept: KeptAdminSession,
  maxAge: number,
  expires: Date,
): Promise<Cookie[]> {
  const option = keptSessionCookie(ctx);
  const sealed = await encodeSessionToken(
    { token: { ...kept }, secret: ctx.config.secrets, salt: option.name, maxAge },
    sharedSessionTokenCache,
  );
  return writeChunkedCookie(ctx.request.cookies, option, sealed, { expires });
}

async function readKeptAdminSession(
  ctx: AuthContext,
  maxAge: number,
): Promise<KeptAdminSession | null> {
  const option = keptSessionCookie(ctx);
  const token = readChunkedCookie(ctx.request.cookies, option.name);
  if (!token) return null;
  try {
    const kept = await decodeSessionToken<Partial<KeptAdminSession>>(
      { token, secret: ctx.config.secrets, salt: option.name, maxAge },
      sharedSessionTokenCache,
    );
    if (
      typeof kept?.sub !== "string" ||
      typeof kept.user !== "string" ||
      typeof kept.session !== "string"
    )
      return null;
    return { sub: kept.sub, user: kept.user, session: kept.session };
  } catch {
    return null;
  }
}

/**
 * `POST impersonate`: the administrator's browser gets a session as the user, with the `act`
 * claim naming the administrator and a hard end (`sxp`) `impersonationMaxAge` from now; the
 * administrator's own session is kept sealed in a cookie of this browser (not in a store: it
 * stays valid and untouched on the server, nothing is left behind when the browser is closed,
 * and it can be restored only where the impersonation was started).
 */
async function impersonate(ctx: AuthContext, options: Resolved, caller: Caller) {
  const target = await targetUser(ctx);
  if (isRefusal(target)) return target;
  if (target.id === caller.userId) return refused(400, "CannotImpersonateSelf");
  if (!options.impersonateAdmins && isAdministrator(options, target))
    return refused(403, "CannotImpersonateAdmin");
  if (isBanned(target)) return refused(403, "UserBanned");
  const { config, cookies, request } = ctx;
  const option = cookies.sessionToken;
  const ownSession = readChunkedCookie(request.cookies, option.name);
  if (!ownSession) return refused(401, "NotSignedIn");
  const maxAge = options.impersonationMaxAge;
  const expires = new Date(Date.now() + maxAge * 1000);
  const claims = {
    [ACTOR_CLAIM]: { sub: caller.userId },
    [SESSION_END_CLAIM]: Math.floor(expires.getTime() / 1000),
  };
  const issued: Cookie[] = [];
  if (config.session.strategy === "jwt") {
    const token = {
      name: target.name,
      email: target.email,
      picture: target.image,
      sub: target.id,
      ...claims,
    };
    issued.push(...(await writeJwtSession(config, request.cookies, option, token, expires)));
  } else {
    const adapter = config.adapter;
    if (!adapter) return refused(500, "NoAdapter");
    const session = await adapter.createSession({
      sessionToken: config.session.generateSessionToken(),
      userId: target.id,
      expires,
      ...newSessionMetadata(ctx, new Date()),
    });
    await storeSessionClaims(config, session.sessionToken, claims, maxAge);
    issued.push(...writeChunkedCookie(request.cookies, option, session.sessionToken, { expires }));
  }
  const kept = { sub: caller.userId, user: target.id, session: ownSession };
  issued.push(...(await keepAdminSession(ctx, kept, maxAge, expires)));
  await emit(ctx, options, {
    type: "impersonationStarted",
    actorId: caller.userId,
    userId: target.id,
    expires,
  });
  return { ...json({ impersonating: target.id, expires }), cookies: issued };
}

/** When the kept session `value` ends, if it is still a live session of `userId`; else null. */
async function liveSessionEnd(
  ctx: AuthContext,
  value: string,
  userId: string,
): Promise<Date | null> {
  const { config, cookies } = ctx;
  const option = cookies.sessionToken;
  try {
    if (config.session.strategy === "jwt") {
      const read = await readJwtSession(config, { [option.name]: value }, option, 0);
      if (typeof read === "string" || read.sub !== userId) return null;
      return new Date(
        typeof read.exp === "number" ? read.exp * 1000 : Date.now() + config.jwt.maxAge * 1000,
      );
    }
    const found = await config.adapter?.getSessionAndUser(value);
    if (!found || found.user.id !== userId || found.session.expires.valueOf() < Date.now())
      return null;
    return found.session.expires;
  } catch {
    return null;
  }
}

/**
 * `POST stop-impersonating`: ends the impersonated session and puts the administrator's own
 * session back, when the kept one belongs to the administrator the session names and is still
 * live; otherwise the browser is signed out.
 */
async function stopImpersonating(ctx: AuthContext, options: Resolved, caller: Caller) {
  const administratorId = caller.impersonatedBy;
  if (administratorId === null) return refused(400, "NotImpersonating");
  const { config, cookies, request } = ctx;
  const option = cookies.sessionToken;
  if (caller.token) await revokeJwtSessionOf(config, caller.token);
  if (caller.sessionToken) await config.adapter?.deleteSession(caller.sessionToken);
  const kept = await readKeptAdminSession(ctx, options.impersonationMaxAge);
  const issued = clearChunkedCookie(request.cookies, keptSessionCookie(ctx));
  const fits = kept !== null && kept.sub === administratorId && kept.user === caller.userId;
  const end = fits ? await liveSessionEnd(ctx, kept.session, administratorId) : null;
  if (kept && end)
    issued.push(...writeChunkedCookie(request.cookies, option, kept.session, { expires: end }));
  else issued.push(...clearChunkedCookie(request.cookies, option));
  await emit(ctx, options, {
    type: "impersonationStopped",
    actorId: administratorId,
    userId: caller.userId,
  });
  return { ...json({ restored: end !== null }), cookies: issued };
}

const MUTATIONS = new Set([
  "create-user",
  "set-role",
  "ban",
  "unban",
  "revoke-sessions",
  "reset-two-factor",
  "impersonate",
  "stop-impersonating",
]);

function handlerFor(options: Resolved) {
  return async function adminAction(ctx: AuthContext): Promise<ResponseInternal> {
    const { method, subAction } = ctx.request;
    // CSRF: every mutation needs the double-submit token (in-process calls count as verified);
    // a forged cross-site form carries none.
    if (method === "POST" && !ctx.csrfTokenVerified) return refused(403, "MissingCSRF");
    const action = subAction ?? "list-users";
    if (MUTATIONS.has(action) && method !== "POST") return refused(405, "UsePost");
    if (action === "stop-impersonating") {
      // The impersonated session itself stops it: it is the user's, not an administrator's.
      const caller = await callerOf(ctx);
      if (!caller) return refused(401, "NotSignedIn");
      return stopImpersonating(ctx, options, caller);
    }
    const caller = await administrator(ctx, options);
    if (isRefusal(caller)) return caller;
    switch (action) {
      case "list-users":
        return listUsers(ctx);
      case "get-user": {
        const target = await targetUser(ctx);
        return isRefusal(target) ? target : json({ user: target });
      }
      case "create-user":
        return createUser(ctx, options, caller);
      case "set-role":
        return setRole(ctx, options, caller);
      case "ban":
        return ban(ctx, options, caller);
      case "unban":
        return unban(ctx, options, caller);
      case "revoke-sessions":
        return revokeSessions(ctx, options, caller);
      case "reset-two-factor":
        return resetTwoFactor(ctx, options, caller);
      case "impersonate":
        return impersonate(ctx, options, caller);
      default:
        return refused(404, "UnknownAction");
    }
  };
}

/**
 * The sign-in step that refuses a banned user (`UserBanned`: the error page says the account is
 * suspended). An expired ban is lifted here, and the user goes on.
 */
function banStep(): SignInStep {
  return {
    name: BAN_STEP,
    // A gate: it runs before any challenge step, so a banned user is never asked for a second factor.
    phase: "gate",
    async run(ctx, signIn) {
      const userId = signIn.user.id;
      if (userId === undefined) return { continue: true };
      const adapter = store(ctx);
      const record = await adapter.getAdminUser(String(userId));
      if (record?.ban) {
        if (isBanned(record))
          throw new UserBanned(
            `User ${record.id} is banned${record.ban.reason ? ` (${record.ban.reason})` : ""}${record.ban.expires ? ` until ${record.ban.expires.toISOString()}` : ""}: an administrator lifts it with the admin extension's unban.`,
          );
        await adapter.setUserBan(record.id, null);
      }
      return { continue: true };
    },
  };
}

/** The session's `impersonatedBy` and `impersonationExpires`, from its claims. */
function impersonationFields(claims: JWT): Record<string, unknown> | undefined {
  const actor = actorOf(claims);
  if (actor === null) return undefined;
  const end = sessionEndOf(claims);
  const fields: ImpersonationFields = {
    impersonatedBy: actor,
    ...(end !== undefined && { impersonationExpires: new Date(end).toISOString() }),
  };
  return { ...fields };
}

/**
 * User administration and impersonation for `experimental.extensions`. Needs an adapter with the
 * admin methods (`@tessera/memory`, `@tessera/sql`, `@tessera/redis`). Its ban check is a gate
 * sign-in step: a banned user is refused before any second factor is asked, wherever `admin()`
 * is listed.
 *
 * @example
 * ```ts
 * import { admin } from "@tessera/core/admin"
 * const config = { adapter, providers, experimental: { extensions: [admin({ adminRoles: ["admin"] })] } }
 * ```
 */
export function admin(options: AdminOptions = {}): TesseraExtension {
  const resolved: Resolved = {
    adminRoles: new Set(options.adminRoles ?? ["admin"]),
    adminUserIds: new Set(options.adminUserIds ?? []),
    roles: new Set(options.roles ?? ["admin", "user"]),
    impersonationMaxAge: options.impersonationMaxAge ?? 60 * 60,
    impersonateAdmins: options.impersonateAdmins ?? false,
    onEvent: options.onEvent,
  };
  const row: ActionRow = {
    name: ADMIN_ACTION,
    methods: ["GET", "POST"],
    tail: [
      "list-users",
      "get-user",
      "create-user",
      "set-role",
      "ban",
      "unban",
      "revoke-sessions",
      "reset-two-factor",
      "impersonate",
      "stop-impersonating",
    ],
    csrf: "all",
    page: false,
    callbackUrl: false,
    reach: "both",
    handler: handlerFor(resolved),
  };
  return defineExtension({
    name: "admin",
    actions: [row],
    signInSteps: [banStep()],
    sessionFields: impersonationFields,
    keptClaims: [ACTOR_CLAIM, SESSION_END_CLAIM],
    requires: [
      {
        of: "adapter",
        methods: ADMIN_ADAPTER_METHODS,
        implementedBy: "@tessera/memory, @tessera/sql, @tessera/redis",
      },
    ],
  });
}
