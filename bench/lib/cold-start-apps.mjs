// @ts-check
/**
 * The three applications of the cold-start benchmark, written once per library with the same
 * configuration: credentials only; OAuth with GitHub; and a full app (an OpenID Connect provider,
 * e-mail links through Resend's HTTP API, passkeys and credentials). Each is the whole module a
 * Worker or a serverless function would deploy: `export default { fetch }`.
 */

export const ORIGIN = "http://localhost:3000";
export const SECRET = "bench-secret-with-at-least-32-characters-of-entropy";
export const SESSION_COOKIE = "authjs.session-token";

/** The apps, by id, with a label for the report. */
export const APPS = /** @type {const} */ ({
  credentials: "credentials only",
  github: "OAuth (GitHub)",
  full: "full (OIDC + e-mail + passkey + credentials)",
});

/** @typedef {keyof typeof APPS} AppId */
/** @typedef {"tessera" | "authjs"} Library */

/** The package each library's imports come from. */
const PACKAGE = { tessera: "@tessera/core", authjs: "@auth/core" };

/**
 * An adapter with the methods e-mail and passkey sign-in require; the cold-start figures never
 * reach them, and both libraries get the same object.
 */
const ADAPTER = `{
  createUser: async (user) => ({ ...user, id: "u1" }),
  getUser: async () => null,
  getUserByEmail: async () => null,
  getUserByAccount: async () => null,
  updateUser: async (user) => user,
  linkAccount: async () => undefined,
  createSession: async (session) => session,
  getSessionAndUser: async () => null,
  updateSession: async () => null,
  deleteSession: async () => undefined,
  createVerificationToken: async (token) => token,
  useVerificationToken: async () => null,
  getAccount: async () => null,
  getAuthenticator: async () => null,
  createAuthenticator: async (authenticator) => authenticator,
  listAuthenticatorsByUserId: async () => [],
  updateAuthenticatorCounter: async (authenticator) => authenticator,
}`;

const CREDENTIALS = `Credentials({
      credentials: { username: {}, password: { type: "password" } },
      authorize: async (c) => (c.username === "ada" && c.password === "pw" ? { id: "u1", name: "Ada", email: "ada@example.com" } : null),
    })`;

/**
 * The source of one app's entry module.
 *
 * @param {Library} library
 * @param {AppId} app
 */
export function appSource(library, app) {
  const pkg = PACKAGE[library];
  const imports = [`import { Auth } from "${pkg}";`];
  /** @type {string[]} */
  const providers = [];
  const extra = [];
  if (app === "credentials" || app === "full") {
    imports.push(`import Credentials from "${pkg}/providers/credentials";`);
    providers.push(CREDENTIALS);
  }
  if (app === "github") {
    imports.push(`import GitHub from "${pkg}/providers/github";`);
    providers.push(`GitHub({ clientId: "id", clientSecret: "secret" })`);
  }
  if (app === "full") {
    imports.push(`import Resend from "${pkg}/providers/resend";`);
    imports.push(`import Passkey from "${pkg}/providers/passkey";`);
    providers.unshift(
      `{ id: "idp", name: "IdP", type: "oidc", issuer: "https://idp.example.com", clientId: "id", clientSecret: "secret" }`,
      `Resend({ apiKey: "re_key", from: "auth@example.com" })`,
      `Passkey({})`,
    );
    extra.push(`adapter: ${ADAPTER},`, `experimental: { enableWebAuthn: true },`);
    // Database sessions would change the measured request; the full app keeps JWT sessions.
    extra.push(`session: { strategy: "jwt" },`);
  }
  return `${imports.join("\n")}
const config = {
  secret: ${JSON.stringify(SECRET)},
  trustHost: true,
  basePath: "/auth",
  logger: { error() {}, warn() {}, debug() {} },
  providers: [
    ${providers.join(",\n    ")},
  ],
  ${extra.join("\n  ")}
};
export default { fetch: (request) => Auth(request, config) };
`;
}

/**
 * The auth.ts of a credentials-only Next.js app, importing from `pkg` (`@tessera/next` or
 * `next-auth`), whose middleware.ts is `export { auth as middleware } from "./auth"`.
 *
 * @param {string} pkg
 */
export function middlewareAuthSource(pkg) {
  return [
    `import NextAuth from "${pkg}";`,
    `import Credentials from "${pkg}/providers/credentials";`,
    `export const { handlers, auth, signIn, signOut } = NextAuth({ secret: "${SECRET}", providers: [${CREDENTIALS}] });`,
  ].join("\n");
}
