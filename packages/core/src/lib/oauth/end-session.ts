/**
 * The RP-initiated logout request (OpenID Connect RP-Initiated Logout 1.0 §2): where the browser
 * goes to be signed out of the OpenID Provider after the local sign-out.
 */
import type { InternalOAuthProvider } from "../provider-types.js";
import { serverMetadata } from "./discovery.js";

/**
 * The provider's `end_session_endpoint` (from its discovery document, §2.1) with `id_token_hint`
 * (the ID token of the session, §2: it tells the OP whose session ends), `client_id` and
 * `post_logout_redirect_uri` (where the OP sends the browser back; it must be registered at the
 * OP). `undefined` when the provider publishes no `end_session_endpoint`.
 *
 * @example
 * ```ts
 * const url = await endSessionUrl(provider, account.id_token, "https://app.example/")
 * // https://op.example/session/end?id_token_hint=…&client_id=app&post_logout_redirect_uri=…
 * ```
 */
export async function endSessionUrl(
  provider: InternalOAuthProvider,
  idToken: string,
  postLogoutRedirectUri: string,
): Promise<string | undefined> {
  const { as } = await serverMetadata(provider, "logout");
  const endpoint = as.end_session_endpoint;
  if (typeof endpoint !== "string") return undefined;
  const url = new URL(endpoint);
  url.searchParams.set("id_token_hint", idToken);
  if (provider.clientId) url.searchParams.set("client_id", provider.clientId);
  url.searchParams.set("post_logout_redirect_uri", postLogoutRedirectUri);
  return url.href;
}
