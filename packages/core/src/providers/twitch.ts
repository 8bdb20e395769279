/**
 * Twitch sign-in (OpenID Connect). Twitch asks for the e-mail and picture claims through the
 * `claims` parameter, wants the client credentials in the token request body, and answers the
 * token request with `scope` as an array (RFC 6749 §5.1 says a string): it is joined here.
 *
 * Deliberate difference from Auth.js: the `email_verified` claim is requested too, so that an
 * address Twitch has not verified is known as such.
 *
 * Callback URL to register: `<origin>/auth/callback/twitch`. Credentials from `AUTH_TWITCH_ID`
 * and `AUTH_TWITCH_SECRET`.
 *
 * @example
 * ```ts
 * import Twitch from "@tessera/core/providers/twitch"
 * const config = { providers: [Twitch] }
 * ```
 */
import type { OIDCConfig, OIDCUserConfig } from "./index.js";

/** Claims of a Twitch ID token (with the `claims` this provider requests). */
export interface TwitchProfile {
  sub: string;
  preferred_username?: string;
  email?: string;
  email_verified?: boolean;
  picture?: string;
  aud: string;
  iss: string;
  [claim: string]: unknown;
}

/** Rewrites a successful token response whose `scope` is an array into the standard string. */
export async function joinScopeArray(response: Response): Promise<Response | undefined> {
  if (!response.ok) return undefined;
  let body: Record<string, unknown>;
  try {
    body = (await response.json()) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (!Array.isArray(body.scope)) return undefined;
  return Response.json({ ...body, scope: body.scope.join(" ") }, { status: response.status });
}

/**
 * Twitch provider.
 *
 * @example
 * ```ts
 * Twitch({ authorization: { params: { scope: "openid user:read:email user:read:follows" } } })
 * ```
 */
export default function Twitch<P extends TwitchProfile = TwitchProfile>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  return {
    id: "twitch",
    name: "Twitch",
    type: "oidc",
    issuer: "https://id.twitch.tv/oauth2",
    client: { token_endpoint_auth_method: "client_secret_post" },
    authorization: {
      params: {
        scope: "openid user:read:email",
        claims: {
          id_token: { email: null, email_verified: null, picture: null, preferred_username: null },
        },
      },
    },
    token: { conform: joinScopeArray },
    profile(profile) {
      return {
        id: profile.sub,
        name: profile.preferred_username ?? null,
        email: profile.email ?? null,
        image: profile.picture ?? null,
      };
    },
    style: { brandColor: "#9146FF" },
    options,
  };
}
