// @ts-check
/**
 * Equivalent configurations of Tessera and @auth/core: the same secret, the same credentials
 * provider, the same cookies, the same adapter object for database sessions. A cookie written by
 * one library is read by the other (proven by the core tests), so fixtures are shared.
 */
import { Auth as AuthjsAuth } from "@auth/core";
import { decode as authjsDecode, encode as authjsEncode } from "@auth/core/jwt";
import AuthjsCredentials from "@auth/core/providers/credentials";

export const ORIGIN = "http://localhost:3000";
export const BASE_PATH = "/auth";
export const SECRET = "bench-secret-with-at-least-32-characters-of-entropy";
export const SESSION_COOKIE = "authjs.session-token";
export const CSRF_COOKIE = "authjs.csrf-token";
export const MAX_AGE = 30 * 24 * 60 * 60;
export const USER = {
  id: "u1",
  name: "Ada Lovelace",
  email: "ada@example.com",
  emailVerified: null,
};
export const PASSWORD = "correct horse battery staple";

/** The claims of the benchmark's session JWT. */
export const TOKEN_CLAIMS = { name: USER.name, email: USER.email, picture: null, sub: USER.id };

/**
 * Neither library's log output belongs in the benchmark (and writing it would cost time);
 * `BENCH_DEBUG=1` shows errors and warnings when a scenario's check fails.
 */
export const silentLogger =
  process.env.BENCH_DEBUG === "1"
    ? {
        error: (/** @type {unknown} */ e) => console.error(e),
        warn: (/** @type {unknown} */ w) => console.warn(w),
        debug() {},
      }
    : { error() {}, warn() {}, debug() {} };

/**
 * @param {Record<string, unknown>} credentials
 * @returns {typeof USER | null}
 */
function authorize(credentials) {
  return credentials.username === "ada" && credentials.password === PASSWORD ? USER : null;
}

const credentialFields = {
  username: { label: "Username" },
  password: { label: "Password", type: "password" },
};

/**
 * @typedef {object} TesseraModules
 * @property {any} core    Auth, raw, encode, decode, Credentials
 * @property {any} [memory] MemoryAdapter, createMemoryStore
 * @property {any} [sql]    SqlAdapter, createPostgresDb, migrate, dropSchema
 * @property {any} [express] ExpressAuth
 */

/**
 * A library under test: how to call it and how to configure it the same way as the other.
 *
 * @typedef {object} Library
 * @property {string} name
 * @property {(request: Request, config: any) => Promise<Response>} Auth
 * @property {(params: any) => Promise<string>} encode
 * @property {(params: any) => Promise<any>} decode
 * @property {() => any} jwtConfig           JWT sessions, credentials sign-in
 * @property {(adapter: unknown) => any} databaseConfig database sessions through `adapter`
 */

/**
 * @param {TesseraModules} tessera
 * @returns {{ tessera: Library, authjs: Library }}
 */
export function libraries(tessera) {
  const { Auth, encode, decode, Credentials } = tessera.core;
  const common = { secret: SECRET, trustHost: true, basePath: BASE_PATH, logger: silentLogger };
  return {
    tessera: {
      name: "Tessera",
      Auth,
      encode,
      decode,
      jwtConfig: () => ({
        ...common,
        providers: [Credentials({ credentials: credentialFields, authorize })],
      }),
      databaseConfig: (adapter) => ({
        ...common,
        adapter,
        session: { strategy: "database" },
        providers: [],
      }),
    },
    authjs: {
      name: "@auth/core",
      Auth: AuthjsAuth,
      encode: authjsEncode,
      decode: authjsDecode,
      jwtConfig: () => ({
        ...common,
        providers: [AuthjsCredentials({ credentials: credentialFields, authorize })],
      }),
      // @auth/core refuses credentials with database sessions, so neither config has a provider.
      databaseConfig: (adapter) => ({
        ...common,
        adapter,
        session: { strategy: "database" },
        providers: [],
      }),
    },
  };
}

/** A session JWT both libraries read (written with Tessera's `encode`; @auth/core's is identical). */
export async function sessionToken(/** @type {Library} */ library) {
  return library.encode({
    token: TOKEN_CLAIMS,
    secret: SECRET,
    salt: SESSION_COOKIE,
    maxAge: MAX_AGE,
  });
}

/**
 * Stores the benchmark user and a session valid for `MAX_AGE` through `adapter` and returns the
 * session token (a fresh session is not due for an extension, by either library's rule).
 *
 * @param {any} adapter
 */
export async function seedDatabaseSession(adapter) {
  const user = (await adapter.getUserByEmail(USER.email)) ?? (await adapter.createUser(USER));
  const sessionToken = `bench-${crypto.randomUUID()}`;
  await adapter.createSession({
    sessionToken,
    userId: user.id,
    expires: new Date(Date.now() + MAX_AGE * 1000),
  });
  return sessionToken;
}
