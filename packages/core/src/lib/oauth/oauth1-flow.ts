/**
 * The sign-in of an OAuth 1.0a provider (`version: "1.0A"`, RFC 5849): the request token and the
 * redirect to the provider, then at the callback the verifier exchanged for token credentials
 * and the profile read with them. The request token's secret waits in the sealed `state` check
 * cookie (never in the redirect URL), so any instance of the app can finish the sign-in.
 * Imported only when such a provider is used.
 */
import {
  InvalidCheck,
  InvalidEndpoints,
  InvalidProvider,
  OAuthCallbackError,
} from "../../errors.js";
import type { ResponseInternal, TokenSet } from "../../types.js";
import type { AuthContext } from "../config/internal.js";
import type { Profile } from "../identity-types.js";
import type { InternalOAuthProvider } from "../provider-types.js";
import { redirectUriOf, sealCheck, useCheck } from "./checks.js";
import { providerFetch } from "./client.js";
import {
  accessToken,
  type OAuth1Credentials,
  type OAuth1Send,
  requestToken,
  signedGet,
} from "./oauth1.js";

function endpoints(provider: InternalOAuthProvider) {
  const { requestTokenUrl, accessTokenUrl, profileUrl } = provider;
  const authorization = provider.authorization?.url;
  if (!requestTokenUrl || !accessTokenUrl || !profileUrl || !authorization)
    throw new InvalidEndpoints(
      `The OAuth 1.0a provider "${provider.id}" needs requestTokenUrl, authorization, accessTokenUrl and profileUrl.`,
    );
  return { requestTokenUrl, accessTokenUrl, profileUrl, authorization };
}

function credentials(provider: InternalOAuthProvider): OAuth1Credentials {
  if (!provider.clientId || !provider.clientSecret)
    throw new InvalidProvider(
      `The OAuth 1.0a provider "${provider.id}" needs clientId (the API key) and clientSecret (the API key secret).`,
    );
  return { consumerKey: provider.clientId, consumerSecret: provider.clientSecret };
}

function sender(provider: InternalOAuthProvider): OAuth1Send {
  return (url, init) => providerFetch(provider, url, init);
}

/**
 * Gets a request token announcing the callback URL (§2.1) and sends the user to the provider
 * with it (§2.2); the token and its secret go into the sealed `state` cookie.
 */
export async function signinWithOAuth1(
  ctx: AuthContext,
  provider: InternalOAuthProvider,
): Promise<ResponseInternal> {
  const { requestTokenUrl, authorization } = endpoints(provider);
  const token = await requestToken(
    sender(provider),
    requestTokenUrl,
    credentials(provider),
    redirectUriOf(ctx, provider),
  );
  const cookie = await sealCheck(
    ctx,
    "state",
    provider,
    JSON.stringify([token.oauth_token, token.oauth_token_secret]),
  );
  const url = new URL(authorization);
  for (const [key, value] of Object.entries(provider.authorization?.params ?? {}))
    url.searchParams.set(key, value);
  url.searchParams.set("oauth_token", token.oauth_token);
  ctx.logger.debug("oauth1_authorization_url", { provider: provider.id });
  return { redirect: url.href, cookies: [cookie] };
}

/**
 * The profile and token credentials of an OAuth 1.0a callback (§2.3, then the signed profile
 * read); the callback maps them to a user and an account as it does for OAuth 2.
 */
export async function oauth1SignIn(
  ctx: AuthContext,
  provider: InternalOAuthProvider,
): Promise<{ profile: Profile; tokens: TokenSet }> {
  const { accessTokenUrl, profileUrl } = endpoints(provider);
  const query = ctx.request.url.searchParams;
  // The cookie is read (and cleared) first, whatever the callback says.
  const sealed = await useCheck(ctx, "state", provider);
  // X answers a refused authorization with `?denied=<request token>`.
  if (query.has("denied"))
    throw new OAuthCallbackError(`The user did not authorize the sign-in with "${provider.id}".`);
  let pending: unknown;
  try {
    pending = JSON.parse(sealed);
  } catch {
    pending = undefined;
  }
  if (!Array.isArray(pending) || typeof pending[0] !== "string" || typeof pending[1] !== "string")
    throw new InvalidCheck("The state cookie holds no OAuth 1.0a request token.");
  const [token, tokenSecret] = pending as [string, string];
  // Session fixation (the attack OAuth 1.0a was made against): the callback must carry the
  // request token this browser was sent off with, not one an attacker authorized.
  if (query.get("oauth_token") !== token)
    throw new InvalidCheck("The callback's oauth_token is not the one this sign-in started with.");
  const verifier = query.get("oauth_verifier");
  if (!verifier)
    throw new OAuthCallbackError("The callback has no oauth_verifier (RFC 5849 §2.2).");
  const send = sender(provider);
  const client = credentials(provider);
  const tokens = await accessToken(
    send,
    accessTokenUrl,
    { ...client, token, tokenSecret },
    verifier,
  );
  const profile = await signedGet(send, profileUrl, {
    ...client,
    token: tokens.oauth_token,
    tokenSecret: tokens.oauth_token_secret,
  });
  if (typeof profile !== "object" || profile === null || Array.isArray(profile))
    throw new OAuthCallbackError(`The profile of "${provider.id}" is not a JSON object.`);
  // The token credentials are the tokens (other answer fields, such as screen_name, are not).
  const credentialsOfUser = {
    oauth_token: tokens.oauth_token,
    oauth_token_secret: tokens.oauth_token_secret,
  };
  return { profile: profile as Profile, tokens: credentialsOfUser };
}
