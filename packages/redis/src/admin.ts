/**
 * The admin methods of the Redis adapter (`@tessera/core/admin`): a user's role and ban in a hash
 * beside the user (`<prefix>user:{<id>}:admin`, same hash tag), and the set of every user id
 * (`<prefix>users`) that the listing reads. Users stored before that set existed are added to it
 * once, by a scan of the user keys, the first time a listing finds it missing.
 */

import type { AdapterUser } from "@tessera/core/adapters";
import type { AdminAdapter, AdminUserRecord, UserBan, UserListPage } from "@tessera/core/admin";
import type { Cluster, Redis } from "ioredis";

/** What the admin methods need of the adapter: its user reads. */
export interface RedisAdminParts {
  methods: AdminAdapter;
  /** Adds a new user to the listing. */
  indexUser(userId: string): Promise<void>;
  /** Removes a deleted user from the listing, with their role and ban. */
  forgetUser(userId: string): Promise<void>;
  /** The key of the user's role and ban, for multi-key deletes. */
  userAdminKey(userId: string): string;
}

function banFromJson(json: string | undefined): UserBan | null {
  if (json === undefined) return null;
  const { reason, expires } = JSON.parse(json) as { reason: string | null; expires: number | null };
  return { reason, expires: expires === null ? null : new Date(expires) };
}

/** Orders strings by code units, as the SQL adapter's binary collations do. */
function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The admin methods over `redis` under `prefix`, reading users through `getUser`.
 *
 * @example
 * ```ts
 * const admin = redisAdmin(redis, "tessera:", getUser)
 * await admin.methods.setUserRole("42", "admin")
 * ```
 */
export function redisAdmin(
  redis: Redis | Cluster,
  prefix: string,
  getUser: (userId: string) => Promise<AdapterUser | null>,
): RedisAdminParts {
  const part = encodeURIComponent;
  const userAdminKey = (userId: string) => `${prefix}user:{${part(userId)}}:admin`;
  const usersKey = `${prefix}users`;
  const indexedKey = `${prefix}users:indexed`;
  /** `<prefix>user:{<id>}` exactly: the user record, not one of its index keys. */
  const userKey = new RegExp(
    `^${prefix.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}user:\\{([^}]*)\\}$`,
  );

  /** Adds every stored user to the listing set, once per Redis (a marker records it). */
  async function indexExistingUsers(): Promise<void> {
    if ((await redis.exists(indexedKey)) === 1) return;
    const nodes = "nodes" in redis ? redis.nodes("master") : [redis];
    for (const node of nodes) {
      let cursor = "0";
      do {
        const [next, found] = await node.scan(cursor, "MATCH", `${prefix}user:{*}`, "COUNT", 1000);
        cursor = next;
        const ids = found.flatMap((key) => {
          const match = userKey.exec(key);
          return match?.[1] === undefined ? [] : [decodeURIComponent(match[1])];
        });
        if (ids.length > 0) await redis.sadd(usersKey, ...ids);
      } while (cursor !== "0");
    }
    await redis.set(indexedKey, "1");
  }

  async function adminRecord(user: AdapterUser): Promise<AdminUserRecord> {
    const { role, ban } = await redis.hgetall(userAdminKey(user.id));
    return { ...user, role: role ?? null, ban: banFromJson(ban) };
  }

  const methods: AdminAdapter = {
    async getAdminUser(userId) {
      const user = await getUser(userId);
      return user ? adminRecord(user) : null;
    },

    async listUsers({ search, limit, offset }): Promise<UserListPage> {
      await indexExistingUsers();
      const ids = await redis.smembers(usersKey);
      // One read per user: a listing is an administrator's page, not a request path.
      const users = (await Promise.all(ids.map(getUser))).filter(
        (user): user is AdapterUser => user !== null,
      );
      const needle = search?.toLowerCase();
      const matching = users
        .filter(
          (user) =>
            needle === undefined ||
            (user.email ?? "").toLowerCase().includes(needle) ||
            (user.name ?? "").toLowerCase().includes(needle),
        )
        .sort((a, b) => byCodeUnits(a.email ?? "", b.email ?? "") || byCodeUnits(a.id, b.id));
      return {
        users: await Promise.all(matching.slice(offset, offset + limit).map(adminRecord)),
        total: matching.length,
      };
    },

    async setUserRole(userId, role) {
      if (!(await getUser(userId))) return false;
      if (role === null) await redis.hdel(userAdminKey(userId), "role");
      else await redis.hset(userAdminKey(userId), "role", role);
      return true;
    },

    async setUserBan(userId, ban) {
      if (!(await getUser(userId))) return false;
      if (ban === null) await redis.hdel(userAdminKey(userId), "ban");
      else
        await redis.hset(
          userAdminKey(userId),
          "ban",
          JSON.stringify({ reason: ban.reason, expires: ban.expires?.getTime() ?? null }),
        );
      return true;
    },
  };

  return {
    methods,
    userAdminKey,
    async indexUser(userId) {
      await redis.sadd(usersKey, userId);
    },
    async forgetUser(userId) {
      await redis.srem(usersKey, userId);
    },
  };
}
