/**
 * The signed-in user as the provider describes them, and as Tessera stores them. The profile: the
 * validated ID token claims for OIDC providers, otherwise the userinfo endpoint (OIDC Core 1.0
 * §5.3) or the provider's own `userinfo.request`. Then `provider.profile(profile, tokens)` maps it
 * to a user (its `id` becomes the account's `providerAccountId`), and `provider.account(tokens)`
 * chooses the token fields stored on the account.
 */
import * as o from "oauth4webapi";
import { OAuthCallbackError, OAuthProfileParseError } from "../../errors.js";
import type { Account, Profile, TokenSet, User } from "../../types.js";
import type { InternalOAuthProvider } from "../provider-types.js";
import { clientOf, httpOptions } from "./client.js";
import type { ServerMetadata } from "./discovery.js";
import type { TokenResult } from "./token.js";
import { verifyJwsSignature } from "./token.js";

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
export async function fetchProfile(
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
