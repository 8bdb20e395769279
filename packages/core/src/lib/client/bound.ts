/**
 * `signIn` and `signOut` for a framework package's `/client` entry: the core's requests, aimed at
 * the auth routes the package mounts by default, unless a call names another path.
 */
import type { AuthEndpoint } from "./endpoint.js";
import {
  type SignInAuthorizationParams,
  type SignInOptions,
  type SignInResponse,
  signIn,
} from "./sign-in.js";
import { type SignOutOptions, type SignOutResponse, signOut } from "./sign-out.js";

/** The option naming the auth routes' path (`basePath`, or `prefix` where a wrapper named it so). */
export type BasePathOption<Key extends string> = { [K in Key]?: string };

/** `signIn` and `signOut` aimed at one package's auth routes. */
export interface BoundClient<Key extends string> {
  signIn(
    provider?: string,
    options?: SignInOptions & BasePathOption<Key>,
    authorizationParams?: SignInAuthorizationParams,
  ): Promise<SignInResponse | undefined>;
  signOut(options?: SignOutOptions & BasePathOption<Key>): Promise<SignOutResponse | undefined>;
}

/**
 * Binds the browser's `signIn` and `signOut` to the page's origin and `defaultBasePath`; the
 * option `key` of a call (default `basePath`) names another path, and is not posted.
 *
 * @example
 * ```ts
 * const client = clientAt("/api/auth", "prefix")
 * await client.signIn("credentials", { email, password, redirect: false, prefix: "/auth" })
 * ```
 */
export function clientAt<Key extends string = "basePath">(
  defaultBasePath: string,
  key: Key = "basePath" as Key,
): BoundClient<Key> {
  const split = <T extends BasePathOption<Key>>(options: T) => {
    const { [key]: basePath, ...rest } = options;
    const path = (basePath ?? defaultBasePath).replace(/\/+$/, "");
    const endpoint: AuthEndpoint = { baseUrl: "", basePath: path };
    return { endpoint, rest };
  };
  return {
    signIn(provider, options = {}, authorizationParams) {
      const { endpoint, rest } = split(options);
      return signIn(endpoint, provider, rest, authorizationParams);
    },
    signOut(options = {}) {
      const { endpoint, rest } = split(options);
      return signOut(endpoint, rest);
    },
  };
}
