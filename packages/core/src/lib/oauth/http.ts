/**
 * Transport options shared by every request Tessera makes to a provider: the provider's
 * `customFetch` (proxies, tests), a timeout, and plain-HTTP endpoints allowed when configured.
 */
import * as o from "oauth4webapi";
import type { InternalOAuthProvider } from "../provider-types.js";
import { customFetch } from "../symbols.js";
import { PROVIDER_TIMEOUT_SECONDS } from "./timeout.js";

/** oauth4webapi's fetch replacement, for requests of any method and body. */
type AnyCustomFetch = (
  url: string,
  options: o.CustomFetchOptions<string, unknown>,
) => Promise<Response>;

/** The `fetch` to use for `provider` (its `customFetch` when set). */
export function fetchOf(provider: Pick<InternalOAuthProvider, typeof customFetch>): typeof fetch {
  return provider[customFetch] ?? fetch;
}

/**
 * Options for oauth4webapi requests. Plain `http:` endpoints are allowed because only the
 * developer's configuration (or the issuer it names) chooses them — local identity providers
 * such as a Keycloak container are reached that way.
 */
export function httpOptions(provider: Pick<InternalOAuthProvider, typeof customFetch>) {
  const custom = provider[customFetch];
  return {
    ...(custom && { [o.customFetch]: custom as AnyCustomFetch }),
    [o.allowInsecureRequests]: true,
    signal: () => AbortSignal.timeout(PROVIDER_TIMEOUT_SECONDS * 1000),
  };
}

/** A request with the same fetch, timeout and defaults (for endpoints oauth4webapi does not wrap). */
export function providerFetch(
  provider: Pick<InternalOAuthProvider, typeof customFetch>,
  url: string | URL,
  init: RequestInit = {},
): Promise<Response> {
  return fetchOf(provider)(url.toString(), {
    redirect: "manual",
    signal: AbortSignal.timeout(PROVIDER_TIMEOUT_SECONDS * 1000),
    ...init,
  });
}
