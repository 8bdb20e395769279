/**
 * Normalisation of OAuth 2 / OIDC providers, done once per configuration: endpoints become
 * `{ url, params }` objects, and checks, ID token use, `profile` and `account` get their defaults.
 */

import { InvalidEndpoints, InvalidProvider } from "../../errors.js";
import type {
  EndpointHandler,
  InternalEndpoint,
  InternalOAuthProvider,
  OAuthChecks,
  OAuthConfig,
} from "../provider-types.js";
import { envName } from "./env.js";
import { defaultAccount, defaultProfile, isOAuth1 } from "./oauth-defaults.js";

/** The scope OIDC providers ask for when their configuration names none. */
export const DEFAULT_OIDC_SCOPE = "openid profile email";

/** Parameter values as sent on the wire: strings as they are, objects (`claims`) as JSON. */
function paramValue(value: unknown): string {
  if (typeof value === "string") return value;
  if (value !== null && typeof value === "object") return JSON.stringify(value);
  return String(value);
}

function toParams(source: Record<string, unknown> | undefined): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [key, value] of Object.entries(source ?? {}))
    if (value !== undefined && value !== null) params[key] = paramValue(value);
  return params;
}

function handlerOf(value: string | EndpointHandler | undefined): EndpointHandler | undefined {
  if (value === undefined || value === null) return undefined;
  return typeof value === "string" ? { url: value } : value;
}

/**
 * The authorization endpoint: the query of a configured URL becomes params (explicit `params`
 * win), so that request parameters are merged in one place when the sign-in starts.
 */
function authorizationEndpoint(value: string | EndpointHandler | undefined): InternalEndpoint {
  const handler = handlerOf(value) ?? {};
  const params: Record<string, string> = {};
  let url: URL | undefined;
  if (handler.url) {
    url = new URL(handler.url);
    for (const [key, v] of url.searchParams) params[key] = v;
    url.search = "";
  }
  Object.assign(params, toParams(handler.params));
  return { ...(url && { url }), params };
}

/** The token endpoint: `params` go into the token request body. */
function tokenEndpoint(value: string | EndpointHandler | undefined): InternalEndpoint | undefined {
  const handler = handlerOf(value);
  if (!handler) return undefined;
  return {
    ...(handler.url && { url: new URL(handler.url) }),
    params: toParams(handler.params),
    ...(handler.request && { request: handler.request }),
    ...(handler.conform && { conform: handler.conform }),
  };
}

/** The userinfo endpoint: `params` become part of the URL's query. */
function userinfoEndpoint(
  value: string | EndpointHandler | undefined,
): InternalEndpoint | undefined {
  const handler = handlerOf(value);
  if (!handler) return undefined;
  const params = toParams(handler.params);
  let url: URL | undefined;
  if (handler.url) {
    url = new URL(handler.url);
    for (const [key, v] of Object.entries(params)) url.searchParams.set(key, v);
  }
  return {
    ...(url && { url }),
    params,
    ...(handler.request && { request: handler.request }),
    ...(handler.conform && { conform: handler.conform }),
  };
}

/**
 * Normalises an OAuth/OIDC provider (without its per-origin URLs). Throws a `TypeError` naming
 * the provider when an endpoint URL does not parse.
 *
 * @example
 * ```ts
 * const github = normalizeOAuthProvider(GitHub({ clientId, clientSecret }))
 * github.authorization?.params.scope // "read:user user:email"
 * ```
 */
export function normalizeOAuthProvider(
  config: OAuthConfig,
): Omit<InternalOAuthProvider, "signinUrl" | "callbackUrl"> {
  let authorization: InternalEndpoint;
  let token: InternalEndpoint | undefined;
  let userinfo: InternalEndpoint | undefined;
  try {
    authorization = authorizationEndpoint(config.authorization);
    token = tokenEndpoint(config.token);
    userinfo = userinfoEndpoint(config.userinfo);
  } catch (error) {
    throw new TypeError(
      `Provider "${config.id}" has an endpoint URL that does not parse: ${(error as Error).message}`,
    );
  }
  // Auth.js apps give the private_key_jwt key as `token.clientPrivateKey`; one place holds it.
  const tokenKey = typeof config.token === "object" ? config.token.clientPrivateKey : undefined;
  const client =
    tokenKey && !config.client?.privateKey
      ? { ...config.client, privateKey: tokenKey }
      : config.client;
  if (config.type === "oidc" && !authorization.params.scope)
    authorization.params.scope = DEFAULT_OIDC_SCOPE;
  // PKCE (RFC 7636) is the default check for both flavours, as in Auth.js; RFC 9700 §2.1.1
  // (https://www.rfc-editor.org/rfc/rfc9700#section-2.1.1) asks every client to use it.
  const checks: OAuthChecks[] = [...(config.checks ?? ["pkce"])];
  return {
    ...config,
    type: config.type,
    authorization,
    ...(token && { token }),
    ...(userinfo && { userinfo }),
    ...(client && { client }),
    checks,
    idToken: config.idToken ?? config.type === "oidc",
    profile: config.profile ?? defaultProfile,
    account: config.account ?? defaultAccount,
  } as Omit<InternalOAuthProvider, "signinUrl" | "callbackUrl">;
}

const KNOWN_CHECKS: ReadonlySet<string> = new Set<OAuthChecks>(["pkce", "state", "nonce", "none"]);

function isUrl(value: string): boolean {
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

/**
 * The static configuration problem of a normalised OAuth provider, or `undefined`. Without an
 * `issuer` or `wellKnown` to discover from, the authorization and token endpoints must be
 * configured, and so must userinfo unless the profile comes from the ID token.
 *
 * @example
 * ```ts
 * oauthProviderProblem(normalizeOAuthProvider({ id: "x", name: "X", type: "oauth" }))
 * // InvalidEndpoints: Provider "x" has no `issuer` and no `authorization` endpoint …
 * ```
 */
export function oauthProviderProblem(
  provider: Omit<InternalOAuthProvider, "signinUrl" | "callbackUrl">,
  globalRedirectProxyUrl?: string,
): Error | undefined {
  const { id } = provider;
  if (isOAuth1(provider)) {
    // OAuth 1.0a (RFC 5849) has its own endpoints and no discovery.
    const missing = (["requestTokenUrl", "accessTokenUrl", "profileUrl"] as const).find(
      (name) => typeof provider[name] !== "string" || !isUrl(provider[name]),
    );
    if (!provider.authorization?.url || missing)
      return new InvalidEndpoints(
        `The OAuth 1.0a provider "${id}" needs \`${missing ?? "authorization"}\` as a URL (with \`requestTokenUrl\`, \`authorization\`, \`accessTokenUrl\` and \`profileUrl\`).`,
      );
  } else if (!provider.issuer && !provider.wellKnown) {
    let missing: string | undefined;
    if (!provider.authorization?.url) missing = "authorization";
    else if (!provider.token?.url && !provider.token?.request) missing = "token";
    else if (!provider.idToken && !provider.userinfo?.url && !provider.userinfo?.request)
      missing = "userinfo";
    if (missing)
      return new InvalidEndpoints(
        `Provider "${id}" has no \`issuer\` (or \`wellKnown\`) and no \`${missing}\` endpoint. Set \`issuer\` (or AUTH_${envName(id)}_ISSUER) or the endpoint.`,
      );
  }
  for (const [name, value] of [
    ["issuer", provider.issuer],
    ["wellKnown", provider.wellKnown],
    ["redirectProxyUrl", provider.redirectProxyUrl ?? globalRedirectProxyUrl],
  ] as const)
    if (value !== undefined && (typeof value !== "string" || !isUrl(value)))
      return new InvalidProvider(`Provider "${id}" has a \`${name}\` that is not a URL.`);
  const unknown = provider.checks.filter((check) => !KNOWN_CHECKS.has(check));
  if (unknown.length)
    return new InvalidProvider(
      `Provider "${id}" has unknown checks ${unknown.join(", ")}. Use "pkce", "state", "nonce" or "none".`,
    );
  return undefined;
}
