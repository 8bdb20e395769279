// @ts-check
/**
 * The in-process scenarios. Each one drives the same requests through Tessera, @auth/core and
 * the floor (the same work done directly, see floor.mjs), checks once that every participant
 * really answered correctly (a fast error page must not pass for a fast session read), then hands
 * the participants to the alternating-round harness.
 */
import {
  BASE_PATH,
  CSRF_COOKIE,
  libraries,
  MAX_AGE,
  ORIGIN,
  PASSWORD,
  SECRET,
  SESSION_COOKIE,
  seedDatabaseSession,
  sessionToken,
  TOKEN_CLAIMS,
  USER,
} from "./fixtures.mjs";
import {
  directCookie,
  directCsrf,
  directCsrfCheck,
  directDecrypt,
  directEncrypt,
  directKey,
  NO_CACHE_JSON,
} from "./floor.mjs";

/** @typedef {(request: Request) => Promise<Response>} Handler */
/** @typedef {{ status: number, body: string, setCookie: string[] }} Answer */

/**
 * @typedef {object} ScenarioRun
 * @property {{ tessera: () => Promise<unknown>, authjs: () => Promise<unknown>, floor: () => Promise<unknown> }} run
 * @property {(result: unknown, who: string) => void} check
 * @property {() => Promise<void>} [teardown]
 */

/**
 * @typedef {object} Scenario
 * @property {string} id
 * @property {string} title
 * @property {string} floor  what the floor does
 * @property {(modules: import("./fixtures.mjs").TesseraModules, options: import("./options.mjs").BenchOptions) => Promise<ScenarioRun | string>}
 *   setup  a string says why the scenario is skipped
 */

/**
 * Sends `request` to `handler` and reads the whole answer, as a server would before writing it.
 *
 * @param {Handler} handler
 * @param {Request} request
 * @returns {Promise<Answer>}
 */
async function exchange(handler, request) {
  const response = await handler(request);
  return {
    status: response.status,
    body: await response.text(),
    setCookie: response.headers.getSetCookie(),
  };
}

/**
 * @param {boolean} condition
 * @param {string} message
 */
function expect(condition, message) {
  if (!condition) throw new Error(message);
}

/** @param {string} path */
const url = (path) => `${ORIGIN}${BASE_PATH}${path}`;

/**
 * Runs one request shape through the three handlers.
 *
 * @param {{ tessera: Handler, authjs: Handler, floor: Handler }} handlers
 * @param {() => Request} makeRequest
 * @param {(answer: Answer) => boolean} valid
 * @param {string} expectation
 * @returns {ScenarioRun}
 */
function requestScenario(handlers, makeRequest, valid, expectation) {
  return {
    run: {
      tessera: () => exchange(handlers.tessera, makeRequest()),
      authjs: () => exchange(handlers.authjs, makeRequest()),
      floor: () => exchange(handlers.floor, makeRequest()),
    },
    check(result, who) {
      const answer = /** @type {Answer} */ (result);
      expect(
        valid(answer),
        `${who}: expected ${expectation}, got ${answer.status} ${answer.body.slice(0, 200)}`,
      );
    },
  };
}

/** @param {Answer} answer */
function isAdaSession(answer) {
  if (answer.status !== 200) return false;
  const body = JSON.parse(answer.body);
  return (
    body?.user?.name === USER.name &&
    body?.user?.email === USER.email &&
    typeof body.expires === "string"
  );
}

/**
 * @param {string} body
 * @returns {Response}
 */
function sessionResponse(body) {
  return new Response(body, { headers: NO_CACHE_JSON });
}

/**
 * What a hand-written database session read needs from the store: the session's expiry and its
 * user's name, e-mail and image, or `null`.
 *
 * @typedef {(token: string) => Promise<{ expires: Date, user: { name: unknown, email: unknown, image: unknown } } | null>} BareRead
 */

/**
 * The floor of a database session read: the bare store read (`read`, written by hand against the
 * store's own client, no adapter) and the minimal answer.
 *
 * @param {BareRead} read
 */
function databaseFloor(read) {
  /** @type {Handler} */
  return async (request) => {
    const token = directCookie(request.headers.get("cookie"), SESSION_COOKIE);
    const found = token ? await read(token) : null;
    if (!found || found.expires.valueOf() < Date.now()) return sessionResponse("null");
    const { user, expires } = found;
    return sessionResponse(
      JSON.stringify({
        user: { name: user.name, email: user.email, image: user.image },
        expires: expires.toISOString(),
      }),
    );
  };
}

/** A date column as the drivers return it: a Date, or epoch milliseconds (a number or its text). */
function storedDate(/** @type {unknown} */ value) {
  return value instanceof Date ? value : new Date(Number(value));
}

/**
 * The session-and-user join, written by hand for `placeholder` (`?` for SQLite, `$1` for
 * PostgreSQL) over the tables of `tablePrefix`.
 *
 * @param {string} tablePrefix
 * @param {string} placeholder
 */
function joinSql(tablePrefix, placeholder) {
  return `select s."expires", u."name", u."email", u."image" from "${tablePrefix}sessions" s join "${tablePrefix}users" u on u."id" = s."userId" where s."sessionToken" = ${placeholder}`;
}

/**
 * @param {import("./fixtures.mjs").TesseraModules} modules
 * @param {any} adapter
 * @param {BareRead} bareRead the floor's read, straight from the store
 * @returns {Promise<ScenarioRun>}
 */
async function databaseScenario(modules, adapter, bareRead) {
  const { tessera, authjs } = libraries(modules);
  const tesseraConfig = tessera.databaseConfig(adapter);
  const authjsConfig = authjs.databaseConfig(adapter);
  const token = await seedDatabaseSession(adapter);
  const cookie = `${SESSION_COOKIE}=${token}`;
  return requestScenario(
    {
      tessera: (r) => tessera.Auth(r, tesseraConfig),
      authjs: (r) => authjs.Auth(r, authjsConfig),
      floor: databaseFloor(bareRead),
    },
    () => new Request(url("/session"), { headers: { cookie } }),
    isAdaSession,
    "Ada's database session",
  );
}

/**
 * Request handlers of both libraries with their JWT-session configs (the non-database scenarios),
 * plus the library objects for scenarios that need more than `Auth`.
 *
 * @param {import("./fixtures.mjs").TesseraModules} modules
 */
function jwtHandlers(modules) {
  const libs = libraries(modules);
  const tesseraConfig = libs.tessera.jwtConfig();
  const authjsConfig = libs.authjs.jwtConfig();
  return {
    libs,
    /** @type {Handler} */
    tessera: (r) => libs.tessera.Auth(r, tesseraConfig),
    /** @type {Handler} */
    authjs: (r) => libs.authjs.Auth(r, authjsConfig),
  };
}

/** The direct CSRF answer: a token in JSON and `token|hash` in a cookie. */
function csrfFloorResponse() {
  const { token, cookie } = directCsrf(SECRET);
  return new Response(JSON.stringify({ csrfToken: token }), {
    headers: {
      "Content-Type": "application/json",
      "Cache-Control": "private, no-cache, no-store",
      "Set-Cookie": `${CSRF_COOKIE}=${encodeURIComponent(cookie)}; Path=/; HttpOnly; SameSite=Lax`,
    },
  });
}

/**
 * The credentials sign-in as a browser performs it: `GET /csrf`, then the form POST to
 * `/callback/credentials` with the CSRF cookie; ends with the session cookie.
 *
 * @param {Handler} handler
 */
async function credentialsSignIn(handler) {
  const csrf = await exchange(handler, new Request(url("/csrf")));
  const { csrfToken } = JSON.parse(csrf.body);
  const csrfCookie =
    csrf.setCookie.find((c) => c.startsWith(`${CSRF_COOKIE}=`))?.split(";")[0] ?? "";
  return exchange(
    handler,
    new Request(url("/callback/credentials"), {
      method: "POST",
      headers: { cookie: csrfCookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        csrfToken,
        username: "ada",
        password: PASSWORD,
        callbackUrl: `${ORIGIN}/`,
      }),
    }),
  );
}

/**
 * A JWT session read with `jwt.revocation` on a Redis store, against the same read without it.
 *
 * @param {string} id
 * @param {string} title
 * @param {number | undefined} revocationCacheSeconds  undefined: Tessera's default
 * @returns {Scenario}
 */
function denylistScenario(id, title, revocationCacheSeconds) {
  return {
    id,
    title,
    floor: "Tessera's JWT session read without jwt.revocation",
    async setup(modules, options) {
      if (!options.redisUrl) return "BENCH_REDIS=0";
      if (!modules.redis) return "@tessera/redis does not build";
      const { createRedisClient, redisStore } = modules.redis;
      const redis = createRedisClient(options.redisUrl);
      const prefix = `bench_${crypto.randomUUID().replaceAll("-", "").slice(0, 10)}:`;
      try {
        await redis.ping();
      } catch (error) {
        redis.disconnect();
        return `Redis unavailable at ${options.redisUrl}: ${/** @type {Error} */ (error).message}`;
      }
      const { tessera, authjs, libs } = jwtHandlers(modules);
      const jwt = {
        revocation: redisStore(redis, { prefix }),
        ...(revocationCacheSeconds !== undefined && { revocationCacheSeconds }),
      };
      const revocable = { ...libs.tessera.jwtConfig(), jwt };
      const cookie = `${SESSION_COOKIE}=${await sessionToken(libs.tessera)}`;
      const scenario = requestScenario(
        {
          tessera: (r) => libs.tessera.Auth(r, revocable),
          authjs,
          floor: tessera,
        },
        () => new Request(url("/session"), { headers: { cookie } }),
        isAdaSession,
        "Ada's session (not revoked)",
      );
      scenario.teardown = async () => {
        const keys = await redis.keys(`${prefix}*`);
        if (keys.length) await redis.del(...keys);
        redis.disconnect();
      };
      return scenario;
    },
  };
}

/**
 * The PostgreSQL database scenario; with `namedFloor` the floor runs its join as a named prepared
 * statement, as Tessera's adapter does, instead of pg's default unnamed one.
 *
 * @param {{ id: string, title: string, namedFloor: boolean }} variant
 * @returns {Scenario}
 */
function postgresScenario({ id, title, namedFloor }) {
  return {
    id,
    title,
    floor: `new Request + cookie + the join with pg (a Pool, one parameterised query${namedFloor ? ", as a named prepared statement" : ""}) + new Response`,
    async setup(modules, options) {
      if (!options.postgresUrl) return "BENCH_POSTGRES=0";
      if (!modules.sql) return "@tessera/sql does not build";
      const { SqlAdapter, createPostgresDb, migrate, dropSchema } = modules.sql;
      const db = createPostgresDb({ connectionString: options.postgresUrl, max: 4 });
      const tablePrefix = `bench_${crypto.randomUUID().replaceAll("-", "").slice(0, 10)}_`;
      try {
        await migrate(db, { dialect: "postgres", tablePrefix });
      } catch (error) {
        await db.destroy();
        return `PostgreSQL unavailable at ${options.postgresUrl}: ${/** @type {Error} */ (error).message}`;
      }
      const { default: pg } = await import("pg");
      const pool = new pg.Pool({ connectionString: options.postgresUrl, max: 4 });
      const text = joinSql(tablePrefix, "$1");
      const name = namedFloor ? `floor_${tablePrefix}` : undefined;
      const scenario = await databaseScenario(
        modules,
        SqlAdapter(db, { dialect: "postgres", tablePrefix }),
        async (token) => {
          const row = (await pool.query({ name, text, values: [token] })).rows[0];
          return row ? { expires: storedDate(row.expires), user: row } : null;
        },
      );
      scenario.teardown = async () => {
        await pool.end();
        await dropSchema(db, { dialect: "postgres", tablePrefix });
        await db.destroy();
      };
      return scenario;
    },
  };
}

/** @type {Scenario[]} */
export const scenarios = [
  // The database scenarios come first: @auth/core remembers in a module-level flag that it has
  // seen a credentials provider and from then on refuses every database-strategy config.
  {
    id: "session-db-memory",
    title: "GET /session, database (memory adapter)",
    floor: "new Request + cookie + two Map lookups (session, user) + new Response",
    async setup(modules) {
      if (!modules.memory) return "@tessera/memory does not build";
      const store = modules.memory.createMemoryStore();
      return databaseScenario(modules, modules.memory.MemoryAdapter(store), async (token) => {
        const session = store.sessions.get(token);
        const user = session && store.users.get(session.userId);
        return session && user ? { expires: session.expires, user } : null;
      });
    },
  },
  postgresScenario({
    id: "session-db-postgres",
    title: "GET /session, database (PostgreSQL, @tessera/sql)",
    namedFloor: false,
  }),
  // Tessera's read is a named prepared statement (parsed once per connection); this floor names
  // its statement too, so the comparison is like for like.
  postgresScenario({
    id: "session-db-postgres-named",
    title: "GET /session, database (PostgreSQL, @tessera/sql; the floor's statement named too)",
    namedFloor: true,
  }),
  {
    id: "session-db-sqlite",
    title: "GET /session, database (SQLite file, @tessera/sql)",
    floor:
      "new Request + cookie + the join with better-sqlite3 (a prepared statement) + new Response",
    async setup(modules) {
      if (!modules.sql) return "@tessera/sql does not build";
      const { SqlAdapter, createSqliteDb, migrate } = modules.sql;
      const { mkdtempSync, rmSync } = await import("node:fs");
      const { tmpdir } = await import("node:os");
      const { join } = await import("node:path");
      const dir = mkdtempSync(join(tmpdir(), "tessera-bench-sqlite-"));
      const file = join(dir, "bench.sqlite");
      const db = createSqliteDb(file);
      await migrate(db, { dialect: "sqlite" });
      const { default: Database } = await import("better-sqlite3");
      const direct = new Database(file);
      const statement = direct.prepare(joinSql("", "?"));
      const scenario = await databaseScenario(
        modules,
        SqlAdapter(db, { dialect: "sqlite" }),
        async (token) => {
          const row = /** @type {any} */ (statement.get(token));
          return row ? { expires: storedDate(row.expires), user: row } : null;
        },
      );
      scenario.teardown = async () => {
        direct.close();
        await db.destroy();
        rmSync(dir, { recursive: true, force: true });
      };
      return scenario;
    },
  },
  {
    id: "session-db-redis",
    title: "GET /session, database (Redis, @tessera/redis)",
    floor:
      "new Request + cookie + one EVALSHA (session, then its user) with ioredis + new Response",
    async setup(modules, options) {
      if (!options.redisUrl) return "BENCH_REDIS=0";
      if (!modules.redis) return "@tessera/redis does not build";
      const { RedisAdapter, createRedisClient } = modules.redis;
      const redis = createRedisClient(options.redisUrl);
      const prefix = `bench_${crypto.randomUUID().replaceAll("-", "").slice(0, 10)}:`;
      try {
        await redis.ping();
      } catch (error) {
        redis.disconnect();
        return `Redis unavailable at ${options.redisUrl}: ${/** @type {Error} */ (error).message}`;
      }
      // One round trip, as the adapter's: the session, then the user it names (the bench's ids
      // need no escaping in a key).
      const sha = await redis.script(
        "LOAD",
        `local s = redis.call('GET', KEYS[1]) if not s then return false end
         return {s, redis.call('GET', ARGV[1] .. 'user:{' .. cjson.decode(s).userId .. '}') or false}`,
      );
      const scenario = await databaseScenario(
        modules,
        RedisAdapter(redis, { prefix }),
        async (token) => {
          const found = /** @type {[string, string | false] | null} */ (
            await redis.evalsha(sha, 1, `${prefix}session:${token}`, prefix)
          );
          if (!found?.[1]) return null;
          return { expires: new Date(JSON.parse(found[0]).expires), user: JSON.parse(found[1]) };
        },
      );
      scenario.teardown = async () => {
        const keys = await redis.keys(`${prefix}*`);
        if (keys.length) await redis.del(...keys);
        redis.disconnect();
      };
      return scenario;
    },
  },
  {
    id: "session-none",
    title: "GET /session, no cookie",
    floor: "new Request + new Response(null)",
    async setup(modules) {
      const { tessera, authjs } = jwtHandlers(modules);
      return requestScenario(
        {
          tessera,
          authjs,
          floor: async () => sessionResponse("null"),
        },
        () => new Request(url("/session")),
        (a) => a.status === 200 && a.body === "null",
        "200 null",
      );
    },
  },
  {
    id: "session-jwt",
    title: "GET /session, JWT cookie",
    floor: "new Request + cookie + JWE decrypt (node:crypto, key derived once) + new Response",
    async setup(modules) {
      const { tessera, authjs, libs } = jwtHandlers(modules);
      const cookie = `${SESSION_COOKIE}=${await sessionToken(libs.tessera)}`;
      const key = directKey(SECRET, SESSION_COOKIE);
      return requestScenario(
        {
          tessera,
          authjs,
          floor: async (request) => {
            const token = directCookie(request.headers.get("cookie"), SESSION_COOKIE);
            const claims = directDecrypt(/** @type {string} */ (token), key);
            return sessionResponse(
              JSON.stringify({
                user: { name: claims.name, email: claims.email, image: claims.picture },
                expires: new Date(/** @type {number} */ (claims.exp) * 1000).toISOString(),
              }),
            );
          },
        },
        () => new Request(url("/session"), { headers: { cookie } }),
        isAdaSession,
        "Ada's session",
      );
    },
  },
  // Issue #18: revocable JWT sessions look the session up in a denylist. The "floor" here is
  // Tessera's own JWT read without the denylist, so Tessera's cost in floors is the price of
  // revocation (target ≤ 2× with the default settings).
  denylistScenario(
    "session-jwt-denylist",
    "GET /session, JWT cookie, Redis denylist (jwt.revocation)",
    undefined,
  ),
  denylistScenario(
    "session-jwt-denylist-every-read",
    "GET /session, JWT cookie, Redis denylist asked on every read (revocationCacheSeconds: 0)",
    0,
  ),
  {
    id: "csrf",
    title: "GET /csrf",
    floor: "new Request + 32 random bytes + SHA-256 + new Response with Set-Cookie",
    async setup(modules) {
      const { tessera, authjs } = jwtHandlers(modules);
      return requestScenario(
        {
          tessera,
          authjs,
          floor: async () => csrfFloorResponse(),
        },
        () => new Request(url("/csrf")),
        (a) =>
          a.status === 200 &&
          /^[0-9a-f]{64}$/.test(JSON.parse(a.body).csrfToken) &&
          a.setCookie.some((c) => c.startsWith(`${CSRF_COOKIE}=`)),
        "a CSRF token and its cookie",
      );
    },
  },
  {
    id: "providers",
    title: "GET /providers",
    floor: "new Request + provider list as JSON + new Response",
    async setup(modules) {
      const { tessera, authjs } = jwtHandlers(modules);
      return requestScenario(
        {
          tessera,
          authjs,
          floor: async (request) => {
            const origin = new URL(request.url).origin;
            const body = {
              credentials: {
                id: "credentials",
                name: "Credentials",
                type: "credentials",
                signinUrl: `${origin}${BASE_PATH}/signin/credentials`,
                callbackUrl: `${origin}${BASE_PATH}/callback/credentials`,
              },
            };
            return new Response(JSON.stringify(body), {
              headers: { "Content-Type": "application/json" },
            });
          },
        },
        () => new Request(url("/providers")),
        (a) => a.status === 200 && JSON.parse(a.body).credentials?.type === "credentials",
        "the credentials provider",
      );
    },
  },
  {
    id: "signin-credentials",
    title: "Credentials sign-in (GET /csrf + POST /callback)",
    floor: "CSRF mint, form parse, CSRF check, authorize, JWE encrypt, two Request/Response pairs",
    async setup(modules) {
      const { tessera, authjs } = jwtHandlers(modules);
      const key = directKey(SECRET, SESSION_COOKIE);
      /** @type {Handler} */
      const floor = async (request) => {
        if (request.method === "GET") return csrfFloorResponse();
        const form = new URLSearchParams(await request.text());
        const csrfCookie = directCookie(request.headers.get("cookie"), CSRF_COOKIE);
        if (!directCsrfCheck(csrfCookie, form.get("csrfToken"), SECRET)) throw new Error("CSRF");
        if (form.get("username") !== "ada" || form.get("password") !== PASSWORD)
          throw new Error("credentials");
        const token = directEncrypt(TOKEN_CLAIMS, key, MAX_AGE);
        const expires = new Date(Date.now() + MAX_AGE * 1000).toUTCString();
        return new Response(null, {
          status: 302,
          headers: {
            Location: form.get("callbackUrl") ?? ORIGIN,
            "Set-Cookie": `${SESSION_COOKIE}=${token}; Path=/; Expires=${expires}; HttpOnly; SameSite=Lax`,
          },
        });
      };
      return {
        run: {
          tessera: () => credentialsSignIn(tessera),
          authjs: () => credentialsSignIn(authjs),
          floor: () => credentialsSignIn(floor),
        },
        check(result, who) {
          const answer = /** @type {Answer} */ (result);
          const cookie = answer.setCookie.find((c) => c.startsWith(`${SESSION_COOKIE}=`));
          expect(
            answer.status === 302 && cookie !== undefined,
            `${who}: no session cookie after sign-in (${answer.status})`,
          );
          const claims = directDecrypt(
            /** @type {string} */ (cookie?.split(";")[0]?.split("=")[1]),
            key,
          );
          expect(claims.email === USER.email, `${who}: the session cookie is not Ada's`);
        },
      };
    },
  },
  {
    id: "jwt-encode",
    title: "encode() alone",
    floor: "JWE encrypt with node:crypto, key derived once",
    async setup(modules) {
      const { tessera, authjs } = libraries(modules);
      const key = directKey(SECRET, SESSION_COOKIE);
      const params = { token: TOKEN_CLAIMS, secret: SECRET, salt: SESSION_COOKIE, maxAge: MAX_AGE };
      return {
        run: {
          tessera: () => tessera.encode(params),
          authjs: () => authjs.encode(params),
          floor: async () => directEncrypt(TOKEN_CLAIMS, key, MAX_AGE),
        },
        check(result, who) {
          expect(
            directDecrypt(/** @type {string} */ (result), key).sub === USER.id,
            `${who}: not a readable token`,
          );
        },
      };
    },
  },
  {
    id: "jwt-decode",
    title: "decode() alone",
    floor: "JWE decrypt with node:crypto, key derived once",
    async setup(modules) {
      const { tessera, authjs } = libraries(modules);
      const key = directKey(SECRET, SESSION_COOKIE);
      const token = await sessionToken(tessera);
      const params = { token, secret: SECRET, salt: SESSION_COOKIE };
      return {
        run: {
          tessera: () => tessera.decode(params),
          authjs: () => authjs.decode(params),
          floor: async () => directDecrypt(token, key),
        },
        check(result, who) {
          expect(/** @type {any} */ (result)?.sub === USER.id, `${who}: did not decode the token`);
        },
      };
    },
  },
];
