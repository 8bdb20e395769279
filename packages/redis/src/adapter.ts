import { randomUUID } from "node:crypto";
import type {
  Adapter,
  AdapterAccount,
  AdapterAuthenticator,
  AdapterSession,
  AdapterUser,
  VerificationToken,
} from "@tessera/core/adapters";
import type { AdminAdapter } from "@tessera/core/admin";
import type { OrganizationAdapter, OrganizationRoleAdapter } from "@tessera/core/organizations";
import type { PasswordAdapter } from "@tessera/core/password";
import type { TwoFactorAdapter } from "@tessera/core/two-factor";
import type { Cluster, Redis } from "ioredis";
import { redisAdmin } from "./admin.js";
import { keyScheme } from "./keys.js";
import { redisOrganizations } from "./organizations.js";
import { passkeyDetailsKey, redisPasskeyMethods } from "./passkeys.js";
import { cachedScript } from "./script.js";

/**
 * `getSessionAndUser` in one round trip: reads the session, then the user its `userId` names,
 * whose key the script builds as {@link keyScheme} does (`<prefix>user:{<encodeURIComponent(id)>}`:
 * the same unreserved characters stay as they are, every other byte of the UTF-8 id becomes
 * `%XX`). Returns false for no session, `[session, user or false]` otherwise.
 */
const SESSION_AND_USER_LUA = `
local session = redis.call('GET', KEYS[1])
if not session then return false end
local userId = cjson.decode(session).userId
if type(userId) ~= 'string' then return {session, false} end
local encoded = (string.gsub(userId, "[^%w%-_%.!~%*'%(%)]", function(c)
  return string.format('%%%02X', string.byte(c))
end))
return {session, redis.call('GET', ARGV[1] .. 'user:{' .. encoded .. '}') or false}
`;

/** Options of {@link RedisAdapter}. */
export interface RedisAdapterOptions {
  /**
   * Prepended to every key (default `"tessera:"`), so several applications or test runs can share
   * one Redis. Must not contain `{` or `}`, which would change how Redis Cluster hashes the keys.
   */
  prefix?: string;
}

/** Merges a JSON patch into the JSON record at KEYS[1], keeping its TTL; nil when it is absent. */
const MERGE_JSON = `
local current = redis.call('GET', KEYS[1])
if not current then return false end
local record = cjson.decode(current)
for field, value in pairs(cjson.decode(ARGV[1])) do record[field] = value end
local merged = cjson.encode(record)
redis.call('SET', KEYS[1], merged, 'KEEPTTL')
return merged`;

/** Sets the numeric field `counter` of the JSON record at KEYS[1]; nil when it is absent. */
const SET_COUNTER = `
local current = redis.call('GET', KEYS[1])
if not current then return false end
local record = cjson.decode(current)
record.counter = tonumber(ARGV[1])
local updated = cjson.encode(record)
redis.call('SET', KEYS[1], updated, 'KEEPTTL')
return updated`;

/**
 * Records ARGV[1] as the factor's last used time step only when it is later than the stored one:
 * 1 when recorded. One script, so parallel uses of a step (a replayed code) pass once.
 */
const USE_TOTP_STEP = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local last = redis.call('HGET', KEYS[1], 'lastUsedStep')
if last and last ~= '' and tonumber(last) >= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'lastUsedStep', ARGV[1])
return 1`;

/** Deletes KEYS[1] only while it still holds ARGV[1] (another user may have claimed it since). */
const DELETE_IF_EQUAL = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/** Sets KEYS[1] to ARGV[2] only while it holds ARGV[1] ('' meaning absent). */
const SET_IF_EQUAL = `
local current = redis.call('GET', KEYS[1])
if (current == false and ARGV[1] == '') or current == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[2])
  return 1
end
return 0`;

type UserRecord = Omit<AdapterUser, "emailVerified"> & { emailVerified: string | null };
type SessionRecord = Omit<AdapterSession, "expires" | "createdAt" | "lastSeenAt"> & {
  expires: string;
  createdAt?: string | null;
  lastSeenAt?: string | null;
};
type VerificationTokenRecord = Omit<VerificationToken, "expires"> & { expires: string };

// Dates are stored as ISO strings: exact to the millisecond, and safe from the Lua JSON
// library, which prints numbers with 14 significant digits.

function userToJson(user: AdapterUser): string {
  const record: UserRecord = { ...user, emailVerified: user.emailVerified?.toISOString() ?? null };
  return JSON.stringify(record);
}

/** The fields that identify an account; `updateAccount` never changes them. */
const ACCOUNT_IDENTITY_FIELDS: ReadonlySet<string> = new Set([
  "userId",
  "type",
  "provider",
  "providerAccountId",
]);

function userFromJson(json: string): AdapterUser {
  const record = JSON.parse(json) as UserRecord;
  return {
    ...record,
    emailVerified: record.emailVerified === null ? null : new Date(record.emailVerified),
  };
}

function sessionToJson(session: AdapterSession): string {
  const { createdAt, lastSeenAt, ...rest } = session;
  const record: SessionRecord = {
    ...rest,
    expires: rest.expires.toISOString(),
    ...(createdAt && { createdAt: createdAt.toISOString() }),
    ...(lastSeenAt && { lastSeenAt: lastSeenAt.toISOString() }),
  };
  return JSON.stringify(record);
}

function sessionFromJson(json: string): AdapterSession {
  const { createdAt, lastSeenAt, ...record } = JSON.parse(json) as SessionRecord;
  return {
    ...record,
    expires: new Date(record.expires),
    // Device metadata (see SessionMetadata) is stored only when Tessera gave it.
    ...(createdAt && { createdAt: new Date(createdAt) }),
    ...(lastSeenAt && { lastSeenAt: new Date(lastSeenAt) }),
  };
}

function verificationTokenToJson(verificationToken: VerificationToken): string {
  const record: VerificationTokenRecord = {
    ...verificationToken,
    expires: verificationToken.expires.toISOString(),
  };
  return JSON.stringify(record);
}

function verificationTokenFromJson(json: string): VerificationToken {
  const record = JSON.parse(json) as VerificationTokenRecord;
  return { ...record, expires: new Date(record.expires) };
}

function authenticatorFromJson(json: string): AdapterAuthenticator {
  return JSON.parse(json) as AdapterAuthenticator;
}

/** The fields a patch sets: `undefined` means "leave as is", `null` means "clear". */
function definedFields<T extends object>(patch: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(patch).filter(([, value]) => value !== undefined),
  ) as Partial<T>;
}

/**
 * A Tessera/Auth.js adapter over ioredis, for a single Redis (6.2+) or a Redis Cluster.
 *
 * - Records are JSON strings; sessions and verification tokens expire with their `expires`
 *   (`PXAT`), so Redis removes them by itself.
 * - `useVerificationToken` is a single `GETDEL`: exactly one of any number of concurrent callers
 *   gets the token.
 * - Keys of one user share a hash tag, so on a cluster the only multi-key command (the final
 *   `DEL` of `deleteUser`) stays within one slot. Operations that span slots write indexes before
 *   records and delete records before indexes; an interrupted operation leaves at most a stale
 *   index entry, which reads skip and later writes clean up.
 * - E-mails, provider accounts and credential ids are unique (a duplicate is rejected).
 *
 * Create the client with {@link createRedisClient} (or set `maxRetriesPerRequest` and timeouts
 * yourself) so that calls fail fast instead of queueing while Redis is unreachable.
 *
 * @example
 * ```ts
 * import { createRedisClient, RedisAdapter } from "@tessera/redis"
 * const redis = createRedisClient(process.env.REDIS_URL ?? "redis://127.0.0.1:6379")
 * export const config = { adapter: RedisAdapter(redis, { prefix: "myapp:auth:" }), providers: [...] }
 * ```
 */
export function RedisAdapter(
  redis: Redis | Cluster,
  options: RedisAdapterOptions = {},
): Required<Adapter> &
  TwoFactorAdapter &
  OrganizationAdapter &
  OrganizationRoleAdapter &
  PasswordAdapter &
  AdminAdapter {
  const prefix = options.prefix ?? "tessera:";
  if (/[{}]/.test(prefix)) {
    throw new TypeError("RedisAdapter: the prefix must not contain { or } (hash tag characters)");
  }
  const keys = keyScheme(prefix);

  async function evalScript(script: string, key: string, ...args: string[]): Promise<unknown> {
    return redis.eval(script, 1, key, ...args);
  }

  const organizations = redisOrganizations(redis, prefix);
  const sessionAndUser = cachedScript(redis, SESSION_AND_USER_LUA);
  const useTotpStep = cachedScript(redis, USE_TOTP_STEP);

  async function getUser(id: string): Promise<AdapterUser | null> {
    const json = await redis.get(keys.user(id));
    return json === null ? null : userFromJson(json);
  }

  const admin = redisAdmin(redis, prefix, getUser);

  /** Makes `email` point to `userId`, refusing an e-mail that another existing user has. */
  async function claimEmail(email: string, userId: string): Promise<void> {
    const key = keys.email(email);
    if ((await redis.set(key, userId, "NX")) === "OK") return;
    const ownerId = await redis.get(key);
    if (ownerId === userId) return;
    // The index may be stale: its user deleted, or moved to another e-mail, half-way through.
    const owner = ownerId === null ? null : await getUser(ownerId);
    if (owner?.email !== email) {
      const claimed = await evalScript(SET_IF_EQUAL, key, ownerId ?? "", userId);
      if (claimed === 1) return;
    }
    throw new Error(`RedisAdapter: a user with the e-mail ${email} already exists`);
  }

  async function releaseEmail(email: string, userId: string): Promise<void> {
    await evalScript(DELETE_IF_EQUAL, keys.email(email), userId);
  }

  async function getSession(sessionToken: string): Promise<AdapterSession | null> {
    const json = await redis.get(keys.session(sessionToken));
    return json === null ? null : sessionFromJson(json);
  }

  /** Valid session tokens of a user; drops expired and dangling index entries on the way. */
  async function liveSessions(userId: string): Promise<AdapterSession[]> {
    const indexKey = keys.userSessions(userId);
    await redis.zremrangebyscore(indexKey, "-inf", Date.now());
    const tokens = await redis.zrange(indexKey, "0", "-1");
    const sessions = await Promise.all(tokens.map(getSession));
    const dangling = tokens.filter((_, index) => sessions[index] === null);
    if (dangling.length > 0) await redis.zrem(indexKey, ...dangling);
    return sessions.filter(
      (session): session is AdapterSession => session !== null && session.userId === userId,
    );
  }

  async function storeSession(
    session: AdapterSession,
    mode: "create" | "update",
  ): Promise<boolean> {
    const expiresAt = session.expires.getTime();
    // Index first: if the write below fails, the index holds a token that reads skip. Expired
    // tokens leave the index in the same step, so it stays as small as the live sessions.
    const indexKey = keys.userSessions(session.userId);
    const indexed = await redis
      .multi()
      .zremrangebyscore(indexKey, "-inf", Date.now())
      .zadd(indexKey, expiresAt, session.sessionToken)
      .exec();
    // EXEC reports the errors of queued commands in its reply instead of failing.
    const failure = indexed?.find(([error]) => error)?.[0];
    if (failure) throw failure;
    const json = sessionToJson(session);
    const key = keys.session(session.sessionToken);
    // An expiry in the past makes Redis drop the key at once, as it should.
    const written =
      mode === "create"
        ? await redis.set(key, json, "PXAT", expiresAt)
        : await redis.set(key, json, "PXAT", expiresAt, "XX");
    return written === "OK";
  }

  async function getAuthenticator(credentialID: string): Promise<AdapterAuthenticator | null> {
    const json = await redis.get(keys.authenticator(credentialID));
    return json === null ? null : authenticatorFromJson(json);
  }

  const adapter: Omit<
    Required<Adapter>,
    "listPasskeysByUserId" | "updatePasskey" | "deletePasskey"
  > &
    TwoFactorAdapter &
    OrganizationAdapter &
    OrganizationRoleAdapter &
    PasswordAdapter &
    AdminAdapter = {
    async createUser(user) {
      const created: AdapterUser = { ...user, id: user.id || randomUUID() };
      if (created.email) await claimEmail(created.email, created.id);
      const written = await redis.set(keys.user(created.id), userToJson(created), "NX");
      if (written === "OK") await admin.indexUser(created.id);
      if (written !== "OK") {
        // Two creates of one id at once (a first sign-in sent twice) both pass the e-mail claim:
        // the loser must not release the address the stored user holds.
        const stored = await getUser(created.id);
        if (created.email && stored?.email !== created.email)
          await releaseEmail(created.email, created.id);
        throw new Error(`RedisAdapter: a user with the id ${created.id} already exists`);
      }
      return created;
    },

    getUser,

    async getUserByEmail(email) {
      const userId = await redis.get(keys.email(email));
      const user = userId === null ? null : await getUser(userId);
      // A stale index entry (see claimEmail) must not return a user under an old address.
      return user?.email === email ? user : null;
    },

    async getUserByAccount(key) {
      const json = await redis.get(keys.account(keys.accountId(key)));
      if (json === null) return null;
      return getUser((JSON.parse(json) as AdapterAccount).userId);
    },

    async updateUser(patch) {
      const existing = await getUser(patch.id);
      if (!existing) throw new Error(`RedisAdapter: no user with the id ${patch.id}`);
      const changes = definedFields(patch);
      const emailChanged = changes.email !== undefined && changes.email !== existing.email;
      if (emailChanged && changes.email) await claimEmail(changes.email, patch.id);

      const jsonPatch: Partial<UserRecord> = {
        ...changes,
        emailVerified:
          changes.emailVerified === undefined
            ? undefined
            : (changes.emailVerified?.toISOString() ?? null),
      };
      // A merge on the server: concurrent updates of different fields never undo each other.
      const merged = await evalScript(MERGE_JSON, keys.user(patch.id), JSON.stringify(jsonPatch));
      if (typeof merged !== "string") {
        throw new Error(`RedisAdapter: no user with the id ${patch.id}`);
      }
      if (emailChanged && existing.email) await releaseEmail(existing.email, patch.id);
      return userFromJson(merged);
    },

    async deleteUser(userId) {
      const user = await getUser(userId);
      const [sessionTokens, accountIds, credentialIDs] = await Promise.all([
        redis.zrange(keys.userSessions(userId), "0", "-1"),
        redis.smembers(keys.userAccounts(userId)),
        redis.smembers(keys.userAuthenticators(userId)),
      ]);
      // Records first, the user and its index sets last: if this stops half-way, calling it
      // again finds the indexes and finishes the job.
      await Promise.all([
        ...sessionTokens.map((token) => redis.del(keys.session(token))),
        ...accountIds.map((accountId) => redis.del(keys.account(accountId))),
        ...credentialIDs.map((credentialID) => redis.del(keys.authenticator(credentialID))),
        organizations.forgetUser(userId),
        admin.forgetUser(userId),
      ]);
      if (user?.email) await releaseEmail(user.email, userId);
      await redis.del(
        keys.user(userId),
        keys.userSessions(userId),
        keys.userAccounts(userId),
        keys.userAuthenticators(userId),
        keys.userTwoFactor(userId),
        keys.userBackupCodes(userId),
        organizations.userIndexKey(userId),
        passkeyDetailsKey(keys, userId),
        keys.userPassword(userId),
        admin.userAdminKey(userId),
      );
      return user;
    },

    async linkAccount(account) {
      const accountId = keys.accountId(account);
      const indexKey = keys.userAccounts(account.userId);
      const added = await redis.sadd(indexKey, accountId);
      const written = await redis.set(keys.account(accountId), JSON.stringify(account), "NX");
      if (written !== "OK") {
        if (added === 1) await redis.srem(indexKey, accountId);
        throw new Error(
          `RedisAdapter: the ${account.provider} account ${account.providerAccountId} is already linked`,
        );
      }
      return account;
    },

    async unlinkAccount(key) {
      const accountId = keys.accountId(key);
      const json = await redis.getdel(keys.account(accountId));
      if (json === null) return undefined;
      const account = JSON.parse(json) as AdapterAccount;
      await redis.srem(keys.userAccounts(account.userId), accountId);
      return account;
    },

    async getAccount(providerAccountId, provider) {
      const json = await redis.get(keys.account(keys.accountId({ provider, providerAccountId })));
      return json === null ? null : (JSON.parse(json) as AdapterAccount);
    },

    async updateAccount(patch) {
      const key = keys.account(keys.accountId(patch));
      const json = await redis.get(key);
      if (json === null) return null;
      const account = JSON.parse(json) as Record<string, unknown>;
      for (const [field, value] of Object.entries(patch)) {
        if (value === undefined || ACCOUNT_IDENTITY_FIELDS.has(field)) continue;
        // A cleared token is left out, as an account that never had it.
        if (value === null) delete account[field];
        else account[field] = value;
      }
      // XX: an account unlinked meanwhile is not brought back.
      const written = await redis.set(key, JSON.stringify(account), "XX");
      return written === "OK" ? (account as unknown as AdapterAccount) : null;
    },

    async listAccountsByUserId(userId) {
      const accountIds = await redis.smembers(keys.userAccounts(userId));
      if (accountIds.length === 0) return [];
      // One GET per key rather than MGET: the account keys may live in different cluster slots.
      const found = await Promise.all(
        accountIds.map((accountId) => redis.get(keys.account(accountId))),
      );
      return found
        .filter((json): json is string => json !== null)
        .map((json) => JSON.parse(json) as AdapterAccount);
    },

    async createSession(session) {
      const created: AdapterSession = { ...session };
      await storeSession(created, "create");
      return created;
    },

    async getSessionAndUser(sessionToken) {
      // Redis Cluster refuses a script that reads a key it was not given (the user's lives in
      // another slot): there the read takes two round trips, elsewhere one.
      if (redis.isCluster) {
        const session = await getSession(sessionToken);
        const user = session && (await getUser(session.userId));
        return session && user ? { session, user } : null;
      }
      const found = (await sessionAndUser(keys.session(sessionToken), prefix)) as
        | [string, string | null]
        | null;
      if (!found?.[1]) return null;
      return { session: sessionFromJson(found[0]), user: userFromJson(found[1]) };
    },

    async updateSession(patch) {
      const existing = await getSession(patch.sessionToken);
      if (!existing) return null;
      const updated: AdapterSession = { ...existing, ...definedFields(patch) };
      if (!(await storeSession(updated, "update"))) return null;
      if (updated.userId !== existing.userId) {
        await redis.zrem(keys.userSessions(existing.userId), existing.sessionToken);
      }
      return updated;
    },

    async deleteSession(sessionToken) {
      const json = await redis.getdel(keys.session(sessionToken));
      if (json === null) return null;
      const session = sessionFromJson(json);
      await redis.zrem(keys.userSessions(session.userId), sessionToken);
      return session;
    },

    async createVerificationToken(verificationToken) {
      const { identifier, token, expires } = verificationToken;
      await redis.set(
        keys.verificationToken(identifier, token),
        verificationTokenToJson(verificationToken),
        "PXAT",
        expires.getTime(),
      );
      return { identifier, token, expires: new Date(expires) };
    },

    async useVerificationToken({ identifier, token }) {
      // GETDEL reads and deletes in one atomic step: a sign-in link works exactly once.
      const json = await redis.getdel(keys.verificationToken(identifier, token));
      return json === null ? null : verificationTokenFromJson(json);
    },

    async createAuthenticator(authenticator) {
      const stored: AdapterAuthenticator = {
        ...authenticator,
        transports: authenticator.transports ?? null,
      };
      const indexKey = keys.userAuthenticators(authenticator.userId);
      const added = await redis.sadd(indexKey, authenticator.credentialID);
      const written = await redis.set(
        keys.authenticator(authenticator.credentialID),
        JSON.stringify(stored),
        "NX",
      );
      if (written !== "OK") {
        if (added === 1) await redis.srem(indexKey, authenticator.credentialID);
        throw new Error(
          `RedisAdapter: the credential ${authenticator.credentialID} is already registered`,
        );
      }
      return stored;
    },

    getAuthenticator,

    async listAuthenticatorsByUserId(userId) {
      const indexKey = keys.userAuthenticators(userId);
      const credentialIDs = await redis.smembers(indexKey);
      const authenticators = await Promise.all(credentialIDs.map(getAuthenticator));
      const dangling = credentialIDs.filter((_, index) => authenticators[index] === null);
      if (dangling.length > 0) await redis.srem(indexKey, ...dangling);
      return authenticators.filter(
        (authenticator): authenticator is AdapterAuthenticator =>
          authenticator !== null && authenticator.userId === userId,
      );
    },

    async updateAuthenticatorCounter(credentialID, newCounter) {
      if (!Number.isSafeInteger(newCounter) || newCounter < 0) {
        throw new RangeError(`RedisAdapter: invalid authenticator counter ${newCounter}`);
      }
      const updated = await evalScript(
        SET_COUNTER,
        keys.authenticator(credentialID),
        String(newCounter),
      );
      if (typeof updated !== "string") {
        throw new Error(`RedisAdapter: no authenticator with the id ${credentialID}`);
      }
      return authenticatorFromJson(updated);
    },

    listSessionsByUserId: liveSessions,

    async deleteSessionsByUserId(userId) {
      const indexKey = keys.userSessions(userId);
      const tokens = await redis.zrange(indexKey, "0", "-1");
      await Promise.all(tokens.map((token) => redis.del(keys.session(token))));
      if (tokens.length > 0) await redis.zrem(indexKey, ...tokens);
    },

    async getTwoFactor(userId) {
      const fields = await redis.hgetall(keys.userTwoFactor(userId));
      if (typeof fields.secret !== "string") return null;
      return {
        userId,
        secret: fields.secret,
        enabledAt: fields.enabledAt ? new Date(Number(fields.enabledAt)) : null,
        lastUsedStep: fields.lastUsedStep ? Number(fields.lastUsedStep) : null,
      };
    },

    async setTwoFactor(record) {
      const key = keys.userTwoFactor(record.userId);
      // Replaced whole, in one transaction: no reader sees the old step with the new secret.
      await redis
        .multi()
        .del(key)
        .hset(key, {
          secret: record.secret,
          enabledAt: record.enabledAt ? String(record.enabledAt.getTime()) : "",
          lastUsedStep: record.lastUsedStep === null ? "" : String(record.lastUsedStep),
        })
        .exec();
    },

    async deleteTwoFactor(userId) {
      // One slot (the user's hash tag): a multi-key DEL runs on a cluster too.
      await redis.del(keys.userTwoFactor(userId), keys.userBackupCodes(userId));
    },

    async useTotpStep(userId, step) {
      return (await useTotpStep(keys.userTwoFactor(userId), String(step))) === 1;
    },

    async setBackupCodes(userId, hashes) {
      const key = keys.userBackupCodes(userId);
      const transaction = redis.multi().del(key);
      if (hashes.length > 0) transaction.sadd(key, ...hashes);
      await transaction.exec();
    },

    async useBackupCode(userId, hash) {
      // SREM answers 1 to exactly one of parallel callers: the code is used once.
      return (await redis.srem(keys.userBackupCodes(userId), hash)) === 1;
    },

    async countBackupCodes(userId) {
      return redis.scard(keys.userBackupCodes(userId));
    },

    async getPasswordHash(userId) {
      return redis.get(keys.userPassword(userId));
    },

    async setPasswordHash(userId, hash) {
      await redis.set(keys.userPassword(userId), hash);
    },

    async deletePasswordHash(userId) {
      await redis.del(keys.userPassword(userId));
    },

    ...organizations.methods,
    ...admin.methods,
  };
  return {
    ...adapter,
    ...redisPasskeyMethods(redis, keys, getAuthenticator, async (userId) =>
      adapter.listAuthenticatorsByUserId(userId),
    ),
  };
}
