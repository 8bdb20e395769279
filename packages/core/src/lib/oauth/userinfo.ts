/**
 * The provider's profile of the signed-in user: the validated ID token claims for OIDC providers,
 * otherwise the userinfo endpoint (OIDC Core 1.0 §5.3) or the provider's own `userinfo.request`.
 */
import * as o from "oauth4webapi";
import { OAuthCallbackError } from "../../errors.js";
import type { Profile, TokenSet } from "../../types.js";
import type { InternalOAuthProvider } from "../provider-types.js";
import { clientOf } from "./client.js";
import type { ServerMetadata } from "./discovery.js";
import { httpOptions } from "./http.js";
import { verifyJwsSignature } from "./signature.js";
import type { TokenResult } from "./token.js";

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
