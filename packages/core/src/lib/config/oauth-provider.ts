/**
 * Normalisation of OAuth 2 / OIDC providers: endpoints as `{ url, params }`, default checks,
 * default `profile` and `account` mappings.
 */
import type {
  EndpointHandler,
  InternalOAuthProvider,
  OAuthChecks,
  OAuthConfig,
} from "../../providers/index.js";
import type { Profile } from "../../types.js";
import { defaultAccount, defaultProfile } from "./providers.js";

function endpoint(value: string | EndpointHandler | undefined) {
  if (value === undefined) return undefined;
  const handler: EndpointHandler = typeof value === "string" ? { url: value } : value;
  if (!handler.url && !handler.request) return undefined;
  const url = handler.url ? new URL(handler.url) : new URL("https://authjs.invalid");
  const params: Record<string, string> = {};
  for (const [key, v] of Object.entries(handler.params ?? {}))
    if (v !== undefined) params[key] = String(v);
  for (const [key, v] of url.searchParams) params[key] ??= v;
  return { ...handler, url, params };
}

/** Normalises an OAuth/OIDC provider (without its per-origin URLs). */
export function normalizeOAuthProvider(
  config: OAuthConfig,
): Omit<InternalOAuthProvider, "signinUrl" | "callbackUrl"> {
  const checks: OAuthChecks[] =
    config.checks ?? (config.type === "oidc" ? ["pkce", "nonce"] : ["pkce"]);
  const authorization = endpoint(config.authorization);
  if (authorization && config.type === "oidc" && !authorization.params.scope)
    authorization.params.scope = "openid profile email";
  return {
    ...config,
    type: config.type,
    authorization,
    token: endpoint(config.token) as InternalOAuthProvider["token"],
    userinfo: endpoint(config.userinfo) as InternalOAuthProvider["userinfo"],
    checks,
    idToken: config.idToken ?? config.type === "oidc",
    profile: (config.profile ?? defaultProfile) as (
      p: Profile,
      t: object,
    ) => ReturnType<typeof defaultProfile>,
    account: config.account ?? defaultAccount,
  } as Omit<InternalOAuthProvider, "signinUrl" | "callbackUrl">;
}
