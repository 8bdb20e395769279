/**
 * The redirect proxy (`redirectProxyUrl` / `AUTH_REDIRECT_PROXY_URL`): preview deployments whose
 * URLs a provider does not know send the provider's redirect to one stable deployment (the proxy),
 * which forwards it to the originating deployment named in the encrypted `state`. Both share the
 * secret, so only they can mint or read that state.
 */

import type { AuthContext } from "../config/internal.js";
import type { InternalOAuthProvider } from "../provider-types.js";

/**
 * The proxy URL in effect for `provider`, if any. `form_post` responses cannot be forwarded by a
 * redirect (they are POST bodies), so the proxy is ignored for them.
 */
export function proxyUrlOf(ctx: AuthContext, provider: InternalOAuthProvider): string | undefined {
  if (provider.authorization?.params.response_mode === "form_post") return undefined;
  return provider.redirectProxyUrl ?? ctx.config.redirectProxyUrl;
}

/** Whether a redirect proxy is in use for `provider`. */
export function isProxyActive(ctx: AuthContext, provider: InternalOAuthProvider): boolean {
  return proxyUrlOf(ctx, provider) !== undefined;
}

/** Whether this request is served by the proxy deployment itself. */
export function isOnRedirectProxy(ctx: AuthContext, provider: InternalOAuthProvider): boolean {
  const proxy = proxyUrlOf(ctx, provider);
  if (!proxy) return false;
  try {
    return new URL(proxy).origin === ctx.url.origin;
  } catch {
    return false;
  }
}

/** This deployment's own callback URL for `provider`. */
export function ownCallbackUrl(ctx: AuthContext, provider: { id: string }): string {
  return `${ctx.url.href}/callback/${encodeURIComponent(provider.id)}`;
}

/**
 * The `redirect_uri` of the authorization and token requests: the proxy's callback URL when a
 * proxy is in use (`provider.callbackUrl` already points there), else this deployment's own.
 */
export function redirectUriOf(ctx: AuthContext, provider: InternalOAuthProvider): string {
  return isProxyActive(ctx, provider) ? provider.callbackUrl : ownCallbackUrl(ctx, provider);
}

/**
 * Where the proxy forwards a callback: the originating deployment's callback URL with the
 * provider's parameters, or `undefined` when the callback belongs to this deployment.
 */
export function forwardTarget(
  ctx: AuthContext,
  origin: string | undefined,
  params: URLSearchParams,
): string | undefined {
  if (!origin) return undefined;
  let target: URL;
  try {
    target = new URL(origin);
  } catch {
    return undefined;
  }
  if (target.protocol !== "https:" && target.protocol !== "http:") return undefined;
  if (target.origin === ctx.url.origin) return undefined;
  target.search = params.toString();
  target.hash = "";
  return target.href;
}
