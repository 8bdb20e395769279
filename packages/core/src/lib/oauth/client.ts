/**
 * The OAuth client a provider configuration describes: its metadata for oauth4webapi, how it
 * authenticates at the token endpoint (RFC 6749 §2.3, OIDC Core 1.0 §9), and the transport every
 * request to the provider shares: the provider's `customFetch` (proxies, tests), a timeout, and
 * plain-HTTP endpoints allowed when configured.
 */
import * as o from "oauth4webapi";
import { InvalidProvider } from "../../errors.js";
import { envName } from "../config/env.js";
import type { InternalOAuthProvider } from "../provider-types.js";
import { customFetch } from "../symbols.js";
import { PROVIDER_TIMEOUT_SECONDS } from "./timeout.js";

/** Token endpoint authentication methods Tessera supports. */
export type ClientAuthMethod =
  | "client_secret_basic"
  | "client_secret_post"
  | "client_secret_jwt"
  | "private_key_jwt"
  | "none";

const METHODS: ReadonlySet<string> = new Set<ClientAuthMethod>([
  "client_secret_basic",
  "client_secret_post",
  "client_secret_jwt",
  "private_key_jwt",
  "none",
]);

/** The method `provider` authenticates with (`client_secret_basic` unless configured). */
export function authMethodOf(provider: InternalOAuthProvider): ClientAuthMethod {
  return (provider.client?.token_endpoint_auth_method ?? "client_secret_basic") as ClientAuthMethod;
}

/**
 * Reports what is missing for `provider` to authenticate, or `undefined` when it is complete.
 * Used at sign-in start so that a misconfiguration fails before the user leaves the site.
 */
export function clientProblem(provider: InternalOAuthProvider): string | undefined {
  // Only a message needs the variable's name: a complete client (every callback) builds none.
  const env = () => `AUTH_${envName(provider.id)}`;
  if (!provider.clientId)
    return `Provider "${provider.id}" has no clientId. Set ${env()}_ID or pass \`clientId\`.`;
  const method = authMethodOf(provider);
  if (!METHODS.has(method))
    return `Provider "${provider.id}" uses the unsupported token_endpoint_auth_method "${method}". Use one of ${[...METHODS].join(", ")}.`;
  if (method.startsWith("client_secret_") && !provider.clientSecret)
    return `Provider "${provider.id}" has no clientSecret (needed for ${method}). Set ${env()}_SECRET or pass \`clientSecret\`.`;
  // Normalisation has moved Auth.js's `token.clientPrivateKey` to `client.privateKey`.
  if (method === "private_key_jwt" && !provider.client?.privateKey)
    return `Provider "${provider.id}" uses private_key_jwt without a key. Pass \`client: { privateKey }\` (or \`token: { clientPrivateKey }\`).`;
  return undefined;
}

/** The client metadata oauth4webapi validates responses against. */
export function clientOf(provider: InternalOAuthProvider): o.Client {
  const { privateKey: _privateKey, ...metadata } = provider.client ?? {};
  return { ...metadata, client_id: provider.clientId ?? "" } as o.Client;
}

/**
 * HTTP Basic client authentication (RFC 6749 §2.3.1) with the encoding Auth.js uses: percent-
 * encoding that leaves `-`, `_`, `.`, `~` … as they are. Many providers do not decode the
 * credentials, so a stricter encoding would break secrets containing those characters.
 */
function clientSecretBasic(clientId: string, secret: string): o.ClientAuth {
  const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, "+");
  const credentials = btoa(`${encode(clientId)}:${encode(secret)}`);
  return (_as, _client, _body, headers) => {
    headers.set("authorization", `Basic ${credentials}`);
  };
}

/** How the client authenticates at the token endpoint. */
export function clientAuthOf(provider: InternalOAuthProvider): o.ClientAuth {
  const problem = clientProblem(provider);
  if (problem) throw new InvalidProvider(problem);
  const secret = provider.clientSecret ?? "";
  switch (authMethodOf(provider)) {
    case "client_secret_basic":
      return clientSecretBasic(provider.clientId ?? "", secret);
    case "client_secret_post":
      return o.ClientSecretPost(secret);
    case "client_secret_jwt":
      return o.ClientSecretJwt(secret);
    case "private_key_jwt": {
      const key = provider.client?.privateKey;
      // Unreachable: clientProblem() above refuses private_key_jwt without a key.
      if (!key) throw new InvalidProvider(`Provider "${provider.id}" has no private key.`);
      return o.PrivateKeyJwt(key);
    }
    case "none":
      return o.None();
  }
}

// Transport.

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
