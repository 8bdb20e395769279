/**
 * OAuth 2 / OIDC sign-in start: the authorization request (RFC 6749 §4.1.1, OIDC Core 1.0
 * §3.1.2.1) with its checks, sent as a redirect to the provider.
 */
import { InvalidEndpoints, InvalidProvider } from "../../../errors.js";
import type { ResponseInternal } from "../../../types.js";
import type { AuthContext } from "../../config/internal.js";
import { isOAuth1 } from "../../config/oauth-defaults.js";
import { DEFAULT_OIDC_SCOPE } from "../../config/oauth-provider.js";
import { ownCallbackUrl } from "../../http/callback-url.js";
import {
  createChecks,
  effectiveChecks,
  isOnRedirectProxy,
  isProxyActive,
  redirectUriOf,
} from "../../oauth/checks.js";
import { clientProblem } from "../../oauth/client.js";
import { serverMetadata } from "../../oauth/discovery.js";
import { toSignInError } from "../../oauth/errors.js";
import type { InternalOAuthProvider } from "../../provider-types.js";

/**
 * Parameters the flow itself sets; `authorizationParams` from `signIn()` cannot replace them
 * (an attacker-chosen `redirect_uri` or `state` would hand the code to someone else).
 */
const PROTECTED_PARAMS: ReadonlySet<string> = new Set([
  "client_id",
  "response_type",
  "redirect_uri",
  "state",
  "code_challenge",
  "code_challenge_method",
  "nonce",
]);

/** Query parameters of `POST /signin/<id>` that belong to Tessera, not to the provider. */
const OWN_PARAMS: ReadonlySet<string> = new Set(["callbackUrl", "csrfToken"]);

/**
 * `authorizationParams` of `signIn()`: they arrive as the query of `POST /signin/<id>`.
 *
 * @example
 * ```ts
 * // POST /auth/signin/google?prompt=consent&login_hint=ada%40example.com
 * requestedParams(ctx) // { prompt: "consent", login_hint: "ada@example.com" }
 * ```
 */
export function requestedParams(ctx: AuthContext): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [key, value] of ctx.request.url.searchParams)
    if (!PROTECTED_PARAMS.has(key) && !OWN_PARAMS.has(key)) params[key] = value;
  return params;
}

/**
 * Redirects to the provider's authorization endpoint and sets the check cookies.
 *
 * @example
 * ```ts
 * const { redirect, cookies } = await signinWithOAuth(ctx, github)
 * // redirect: https://github.com/login/oauth/authorize?response_type=code&client_id=…&code_challenge=…
 * ```
 */
export async function signinWithOAuth(
  ctx: AuthContext,
  provider: InternalOAuthProvider,
): Promise<ResponseInternal> {
  if (isOAuth1(provider)) {
    // OAuth 1.0a is loaded only by the apps that have such a provider.
    const { signinWithOAuth1 } = await import("../../oauth/oauth1-flow.js");
    try {
      return await signinWithOAuth1(ctx, provider);
    } catch (error) {
      throw toSignInError(error, provider);
    }
  }
  const problem = clientProblem(provider);
  if (problem) throw new InvalidProvider(problem);

  let endpoint: string | undefined;
  try {
    endpoint = (await serverMetadata(provider, "authorization")).as.authorization_endpoint;
  } catch (error) {
    throw toSignInError(error, provider);
  }
  if (!endpoint)
    throw new InvalidEndpoints(
      `Provider "${provider.id}" has no authorization endpoint: set \`authorization\` or an \`issuer\` whose discovery document names one.`,
    );
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch (error) {
    throw toSignInError(error, provider);
  }

  const checks = effectiveChecks(ctx, provider);
  // The redirect proxy forwards the callback to the deployment named in the state.
  const origin =
    isProxyActive(ctx, provider) && !isOnRedirectProxy(ctx, provider)
      ? ownCallbackUrl(ctx, provider)
      : undefined;
  const created = await createChecks(ctx, provider, checks, origin);

  const configured = provider.authorization?.params ?? {};
  const params: Record<string, string> = {
    ...configured,
    ...requestedParams(ctx),
    response_type: configured.response_type ?? "code",
    client_id: provider.clientId ?? "",
    redirect_uri: redirectUriOf(ctx, provider),
  };
  // Only fresh values protect a flow: fixed ones from the configuration are never sent.
  for (const key of ["state", "code_challenge", "code_challenge_method", "nonce"])
    delete params[key];
  if (provider.type === "oidc" && !params.scope) params.scope = DEFAULT_OIDC_SCOPE;
  if (created.state) params.state = created.state;
  if (created.codeChallenge) {
    params.code_challenge = created.codeChallenge;
    params.code_challenge_method = "S256";
  }
  if (created.nonce) params.nonce = created.nonce;

  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  ctx.logger.debug("oauth_authorization_url", { provider: provider.id, checks: [...checks] });
  return { redirect: url.href, cookies: created.cookies };
}
