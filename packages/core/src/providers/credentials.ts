/**
 * The credentials provider: sign in with any fields (user name and password, a one-time code, …)
 * checked by your `authorize` function. Works with JWT and database sessions.
 *
 * @example
 * ```ts
 * import Credentials from "@tessera/core/providers/credentials"
 * Credentials({
 *   credentials: { email: { label: "E-mail" }, password: { label: "Password", type: "password" } },
 *   async authorize({ email, password }) {
 *     const user = await db.findUser(String(email))
 *     return user && (await verifyPassword(user, String(password))) ? user : null
 *   },
 * })
 * ```
 */
import type { CredentialInput, CredentialsConfig } from "./index.js";

/** Options of {@link Credentials}: every field optional (without `authorize` nobody signs in). */
export type CredentialsUserConfig<C extends Record<string, CredentialInput>> = Partial<
  Omit<CredentialsConfig<C>, "options" | "type">
>;

export type { CredentialInput, CredentialsConfig };

/** Signs nobody in: the `authorize` of a `Credentials()` given none, as in Auth.js. */
const refuseEveryone = (): null => null;

/**
 * Creates a credentials provider (`id` defaults to `credentials`). Without `authorize` every
 * sign-in is refused (`CredentialsSignin`), as with Auth.js's `Credentials()`; a provider object
 * written by hand without one is still a configuration error (`MissingAuthorize`).
 *
 * @example
 * ```ts
 * Credentials({ credentials: { password: {} }, authorize: async ({ password }) => findUser(password) })
 * ```
 */
export default function Credentials<
  C extends Record<string, CredentialInput> = Record<string, CredentialInput>,
>(config: CredentialsUserConfig<C> = {}): CredentialsConfig<C> {
  return {
    id: "credentials",
    name: "Credentials",
    type: "credentials",
    credentials: {} as C,
    ...config,
    authorize: config.authorize ?? refuseEveryone,
    options: config as Partial<CredentialsConfig<C>>,
  };
}
