/**
 * OAuth 2 / OIDC callback (RFC 6749 §4.1.2): the redirect proxy's forwarding, then state, issuer
 * (RFC 9207), PKCE and nonce checks, the code exchange, the profile, and finally user resolution
 * and the session.
 *
 * The profile: the validated ID token claims for OIDC providers, otherwise the userinfo endpoint
 * (OIDC Core 1.0 §5.3, https://openid.net/specs/openid-connect-core-1_0.html#UserInfo) or the
 * provider's own `userinfo.request`; `userAndAccount` then maps it to a user and an account.
 */
import * as o from "oauth4webapi";
import { OAuthCallbackError, OAuthProfileParseError } from "../../../errors.js";
import type { Account, Profile, ResponseInternal, TokenSet, User } from "../../../types.js";
import type { AuthContext } from "../../config/internal.js";
import { isOAuth1 } from "../../config/oauth-defaults.js";
import {
  decodeState,
  effectiveChecks,
  forwardTarget,
  isOnRedirectProxy,
  redirectUriOf,
  useCheck,
} from "../../oauth/checks.js";
import { clientOf, httpOptions } from "../../oauth/client.js";
import {
  matchesIssuerTemplate,
  type ServerMetadata,
  serverMetadata,
  withIssuer,
} from "../../oauth/discovery.js";
import { toCallbackError } from "../../oauth/errors.js";
import { requestTokens, type TokenResult, verifyJwsSignature } from "../../oauth/token.js";
import type { InternalOAuthProvider } from "../../provider-types.js";
import { authorizeSignIn, completeSignIn, resolveUser } from "../../session/sign-in.js";
import { storeSignInTokens } from "../../session/sign-in-tokens.js";

/**
 * The authorization response parameters: the query of a redirect, or the body of a
 * `response_mode=form_post` POST. Duplicates are kept so that oauth4webapi refuses them
 * (parameter pollution).
 */
function callbackParams(ctx: AuthContext): URLSearchParams {
  if (ctx.request.method === "GET") return new URLSearchParams(ctx.request.url.searchParams);
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(ctx.request.body ?? {}))
    if (typeof value === "string") params.append(key, value);
  return params;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Reads a non-OIDC userinfo response: any JSON object, after a successful status. */
async function plainUserinfo(provider: InternalOAuthProvider, response: Response) {
  if (!response.ok)
    throw new OAuthCallbackError(
      `The userinfo endpoint of "${provider.id}" answered HTTP ${response.status}.`,
    );
  let body: unknown;
  try {
    body = await response.json();
  } catch (error) {
    throw new OAuthCallbackError(`The userinfo response of "${provider.id}" is not JSON.`, {
      cause: error,
    });
  }
  if (!isObject(body))
    throw new OAuthCallbackError(`The userinfo response of "${provider.id}" is not an object.`);
  return body as Profile;
}

/** The JWT of a signed userinfo response (`application/jwt`, OIDC Core 1.0 §5.3.2), if it is one. */
async function signedUserinfo(response: Response): Promise<string | undefined> {
  const type = response.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  return type === "application/jwt" ? await response.clone().text() : undefined;
}

/** Callback parameters the provider asked to add to the profile (Apple's `user`). */
function withCallbackParams(
  provider: InternalOAuthProvider,
  profile: Profile,
  callbackParams: URLSearchParams,
): Profile {
  const names = provider.profileCallbackParams;
  if (!names?.length) return profile;
  const extended: Profile = { ...profile };
  for (const name of names) {
    const raw = callbackParams.get(name);
    if (raw === null || name in extended) continue;
    try {
      extended[name] = JSON.parse(raw);
    } catch {
      extended[name] = raw;
    }
  }
  return extended;
}

/**
 * Fetches (or extracts) the profile of the signed-in user.
 *
 * @example
 * ```ts
 * const profile = await fetchProfile(provider, meta, tokenResult, callbackParams)
 * ```
 */
async function fetchProfile(
  provider: InternalOAuthProvider,
  meta: ServerMetadata,
  { tokens, idTokenClaims }: TokenResult,
  callbackParams: URLSearchParams,
): Promise<Profile> {
  let profile: Profile;
  if (provider.userinfo?.request) {
    const result = await provider.userinfo.request({
      provider,
      params: {},
      checks: {},
      tokens,
    });
    if (!isObject(result))
      throw new OAuthCallbackError(`The userinfo.request of "${provider.id}" returned no object.`);
    profile = result as Profile;
  } else if (provider.idToken && idTokenClaims) {
    profile = { ...idTokenClaims } as Profile;
  } else {
    if (!meta.as.userinfo_endpoint)
      throw new OAuthCallbackError(
        `Provider "${provider.id}" has no userinfo endpoint to fetch the profile from.`,
      );
    const response = await o.userInfoRequest(
      meta.as,
      clientOf(provider),
      (tokens as TokenSet & { access_token: string }).access_token,
      httpOptions(provider),
    );
    if (provider.type === "oidc") {
      const jwt = await signedUserinfo(response);
      // Token substitution defence (OIDC Core 1.0 §5.3.2): userinfo must be about the ID token's subject.
      profile = (await o.processUserInfoResponse(
        meta.as,
        clientOf(provider),
        idTokenClaims?.sub ?? o.skipSubjectCheck,
        response,
      )) as unknown as Profile;
      if (jwt)
        await verifyJwsSignature(provider, meta, meta.as, response, jwt, {
          what: "userinfo response",
        });
    } else profile = await plainUserinfo(provider, response);
  }
  return withCallbackParams(provider, profile, callbackParams);
}

/** The user a provider profile maps to, and the account linking it to the provider. */
export interface ProfileResult {
  user: User & { id: string };
  account: Account;
}

/**
 * Runs the provider's `profile` and `account` callbacks. The e-mail is lower-cased so that the
 * same address always finds the same user. Throws `OAuthProfileParseError` when `profile` throws
 * or returns no `id` — a random id would create a new account on every sign-in.
 *
 * @example
 * ```ts
 * const { user, account } = await userAndAccount(provider, profile, tokens)
 * account.providerAccountId === user.id // true
 * ```
 */
export async function userAndAccount(
  provider: InternalOAuthProvider,
  profile: Profile,
  tokens: TokenSet,
): Promise<ProfileResult> {
  let mapped: User | undefined;
  try {
    mapped = await provider.profile(profile, tokens);
  } catch (error) {
    throw new OAuthProfileParseError(
      `The profile callback of "${provider.id}" threw: ${(error as Error)?.message ?? error}`,
      { cause: error },
    );
  }
  if (!mapped || typeof mapped !== "object")
    throw new OAuthProfileParseError(
      `The profile callback of "${provider.id}" must return a user object.`,
    );
  const id = mapped.id as unknown;
  if ((typeof id !== "string" && typeof id !== "number" && typeof id !== "bigint") || id === "")
    throw new OAuthProfileParseError(
      `The profile callback of "${provider.id}" returned no \`id\`. Return the provider's stable user id (for example \`profile.sub\`).`,
    );
  // A profile without an address keeps none (Auth.js omits it too); "" is no address.
  const email =
    typeof mapped.email === "string" && mapped.email !== ""
      ? mapped.email.toLowerCase()
      : mapped.email === undefined
        ? undefined
        : null;
  const user = { ...mapped, id: String(id), email };
  const stored = provider.account(tokens) ?? {};
  const account: Account = {
    ...stored,
    // `token_type` is case-insensitive (RFC 6749 §5.1, https://www.rfc-editor.org/rfc/rfc6749#section-5.1)
    // and stored lower case, as Auth.js stores it, whatever a custom `account` callback returns.
    ...(typeof stored.token_type === "string" && { token_type: stored.token_type.toLowerCase() }),
    provider: provider.id,
    type: provider.type,
    providerAccountId: user.id,
  };
  return { user, account };
}

/**
 * Validates the authorization response: state, issuer and error (oauth4webapi). Without a known
 * issuer an `iss` parameter cannot be compared with anything and is ignored.
 */
function validateResponse(
  meta: ServerMetadata,
  provider: InternalOAuthProvider,
  params: URLSearchParams,
  expectedState: string | undefined,
): URLSearchParams {
  const input = new URLSearchParams(params);
  let as = meta.as;
  const iss = input.get("iss");
  if (!meta.issuerKnown) input.delete("iss");
  else if (iss && meta.issuerTemplate && matchesIssuerTemplate(meta.issuerTemplate, iss))
    as = withIssuer(meta.as, iss);
  // Login CSRF and mix-up defence (RFC 6749 §10.12, RFC 9207 §2.4): the response must carry our
  // state and the issuer we sent the user to.
  return o.validateAuthResponse(as, clientOf(provider), input, expectedState ?? o.skipStateCheck);
}

/**
 * Completes an OAuth sign-in.
 *
 * @example
 * ```ts
 * // GET /auth/callback/github?code=…&state=…
 * const { redirect, cookies } = await callbackWithOAuth(ctx, github)
 * ```
 */
export async function callbackWithOAuth(
  ctx: AuthContext,
  provider: InternalOAuthProvider,
): Promise<ResponseInternal> {
  if (isOAuth1(provider)) {
    // OAuth 1.0a is loaded only by the apps that have such a provider.
    const { oauth1SignIn } = await import("../../oauth/oauth1-flow.js");
    let signIn: ProfileResult & { profile: Profile };
    try {
      const { profile, tokens } = await oauth1SignIn(ctx, provider);
      signIn = { ...(await userAndAccount(provider, profile, tokens)), profile };
    } catch (error) {
      throw toCallbackError(error, provider);
    }
    return finishOAuthSignIn(ctx, signIn);
  }
  const params = callbackParams(ctx);
  const checks = effectiveChecks(ctx, provider);

  if (checks.has("state") && isOnRedirectProxy(ctx, provider)) {
    const state = params.get("state");
    const decoded = state ? await decodeState(ctx, state) : null;
    const target = forwardTarget(ctx, decoded?.origin, params);
    if (target) {
      ctx.logger.debug("oauth_redirect_proxy_forward", { provider: provider.id });
      return { redirect: target };
    }
  }

  let signIn: ProfileResult & { profile: Profile };
  try {
    // Every check cookie is read (and scheduled for deletion) before any network request.
    const expectedState = checks.has("state") ? await useCheck(ctx, "state", provider) : undefined;
    const codeVerifier = checks.has("pkce")
      ? await useCheck(ctx, "pkceCodeVerifier", provider)
      : undefined;
    const nonce = checks.has("nonce") ? await useCheck(ctx, "nonce", provider) : undefined;

    const meta = await serverMetadata(provider, "callback", (error) =>
      ctx.logger.debug("oauth_discovery_failed", { provider: provider.id, error: String(error) }),
    );
    const validated = validateResponse(meta, provider, params, expectedState);
    const tokenResult = await requestTokens(
      provider,
      meta,
      {
        callbackParams: validated,
        redirectUri: redirectUriOf(ctx, provider),
        ...(codeVerifier !== undefined && { codeVerifier }),
        ...(nonce !== undefined && { nonce }),
        ...(expectedState !== undefined && { state: expectedState }),
      },
      ctx.logger,
    );
    const profile = await fetchProfile(provider, meta, tokenResult, validated);
    signIn = { ...(await userAndAccount(provider, profile, tokenResult.tokens)), profile };
  } catch (error) {
    throw toCallbackError(error, provider);
  }
  return finishOAuthSignIn(ctx, signIn);
}

/**
 * After the provider has vouched for the user: the `signIn` callback, the user and account
 * rows, and the session.
 */
async function finishOAuthSignIn(
  ctx: AuthContext,
  signIn: ProfileResult & { profile: Profile },
): Promise<ResponseInternal> {
  const { user, account, profile } = signIn;
  const adapter = ctx.config.adapter;
  const existing = adapter
    ? await adapter.getUserByAccount({
        provider: account.provider,
        providerAccountId: account.providerAccountId,
      })
    : null;
  // The signIn callback decides before anything is stored, so a refused user leaves no rows.
  const redirect = await authorizeSignIn(ctx, { user: existing ?? user, account, profile });
  if (redirect) return { redirect };
  // The lookup above is passed on, so one sign-in asks the adapter once.
  const resolved = await resolveUser(
    ctx,
    user,
    account,
    profile,
    adapter ? { user: existing } : undefined,
  );
  // A returning user's account row gets this sign-in's tokens (Tessera extension).
  if (existing) await storeSignInTokens(ctx, resolved.account);
  return completeSignIn(ctx, {
    user: resolved.user,
    account: resolved.account,
    profile,
    isNewUser: resolved.isNewUser,
  });
}
