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

/** Options of {@link Credentials}: every field optional except `authorize`. */
export type CredentialsUserConfig<C extends Record<string, CredentialInput>> = Partial<
  Omit<CredentialsConfig<C>, "options" | "type">
> &
  Pick<CredentialsConfig<C>, "authorize">;

export type { CredentialInput, CredentialsConfig };

/** Creates a credentials provider (`id` defaults to `credentials`). */
export default function Credentials<
  C extends Record<string, CredentialInput> = Record<string, CredentialInput>,
>(config: CredentialsUserConfig<C>): CredentialsConfig<C> {
  return {
    id: "credentials",
    name: "Credentials",
    type: "credentials",
    credentials: {} as C,
    ...config,
    options: config as Partial<CredentialsConfig<C>>,
  };
}
