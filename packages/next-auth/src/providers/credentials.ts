/**
 * next-auth v4's Credentials provider: `authorize(credentials, req)`, where `req` is v4's
 * request record (`body`, `query`, `headers`, `method`) rather than a Fetch `Request`.
 *
 * @example
 * ```ts
 * import CredentialsProvider from "@tessera/next-auth/providers/credentials"
 *
 * CredentialsProvider({
 *   name: "Password",
 *   credentials: { username: { label: "User name" }, password: { label: "Password", type: "password" } },
 *   async authorize(credentials, req) {
 *     return credentials?.password === "secret" ? { id: "1", name: credentials.username } : null
 *   },
 * })
 * ```
 */

import type { CredentialsConfig as CoreCredentialsConfig } from "@tessera/core/providers/credentials";
import Credentials from "@tessera/core/providers/credentials";
import type { Awaitable, CredentialInput, User } from "../types.js";

export type { CredentialInput };

/** The request `authorize` receives, as next-auth v4 describes it. */
export interface RequestInternal {
  body?: Record<string, unknown>;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  method?: string;
}

/** The options of {@link CredentialsProvider}, with v4's `authorize`. */
export interface CredentialsConfig<
  C extends Record<string, CredentialInput> = Record<string, CredentialInput>,
> {
  id?: string;
  name?: string;
  type?: "credentials";
  credentials?: C;
  authorize: (
    credentials: Record<keyof C, string> | undefined,
    req: Pick<RequestInternal, "body" | "query" | "headers" | "method">,
  ) => Awaitable<(Omit<User, "id"> & { id?: string }) | null>;
}

/** v4's view of the request `authorize` runs for. */
function v4Request(
  credentials: Record<string, unknown>,
  request: Request,
): Pick<RequestInternal, "body" | "query" | "headers" | "method"> {
  const url = new URL(request.url);
  return {
    body: credentials,
    query: Object.fromEntries(url.searchParams),
    headers: Object.fromEntries(request.headers),
    method: request.method,
  };
}

/**
 * A credentials provider (`id` defaults to `credentials`) whose `authorize` gets the submitted
 * fields (as strings) and v4's request record. Return a user to sign in, `null` to refuse.
 *
 * @example
 * ```ts
 * CredentialsProvider({ credentials: { code: {} }, authorize: async (c) => (c?.code === "42" ? { id: "1" } : null) })
 * ```
 */
export default function CredentialsProvider<
  C extends Record<string, CredentialInput> = Record<string, CredentialInput>,
>(options: CredentialsConfig<C>): CoreCredentialsConfig<C> {
  const { authorize, type: _type, ...rest } = options;
  return Credentials<C>({
    ...rest,
    authorize: async (credentials, request) => {
      const fields = credentials as Record<string, unknown>;
      const user = await authorize(fields as Record<keyof C, string>, v4Request(fields, request));
      // v4 accepts a user without an id (the JWT's `sub` is then unset); the core needs a string.
      return user ? ({ ...user, id: user.id ?? "" } as User) : null;
    },
  });
}
