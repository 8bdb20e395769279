/**
 * Eventbrite sign-in (OAuth 2). The scope `user.profile` is asked for and the code is exchanged
 * with the client credentials in the request body (`client_secret_post`), as Eventbrite
 * documents. The profile is `GET https://www.eventbriteapi.com/v3/users/me/`: the user's e-mail
 * is the address Eventbrite marks `primary`, and the image is built from `image_id` through
 * Eventbrite's image CDN (none without one).
 *
 * Callback URL to register (the API key's OAuth redirect URI in Eventbrite's app management):
 * `<origin>/auth/callback/eventbrite`. Credentials from `AUTH_EVENTBRITE_ID` (the API key) and
 * `AUTH_EVENTBRITE_SECRET` (the client secret).
 *
 * @example
 * ```ts
 * import Eventbrite from "@tessera/core/providers/eventbrite"
 * const config = { providers: [Eventbrite] }
 * ```
 */
import type { OAuthConfig, OAuthUserConfig } from "./index.js";

/** The response of `GET https://www.eventbriteapi.com/v3/users/me/`. */
export interface EventbriteProfile {
  id: string;
  name: string;
  first_name: string;
  last_name: string;
  emails: { email: string; verified: boolean; primary: boolean }[];
  image_id: string | null;
  [field: string]: unknown;
}

/**
 * Eventbrite provider.
 *
 * @example
 * ```ts
 * Eventbrite({ clientId: process.env.EVENTBRITE_API_KEY, clientSecret: process.env.EVENTBRITE_SECRET })
 * ```
 */
export default function Eventbrite<P extends EventbriteProfile = EventbriteProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "eventbrite",
    name: "Eventbrite",
    type: "oauth",
    authorization: {
      url: "https://www.eventbrite.com/oauth/authorize",
      params: { scope: "user.profile" },
    },
    token: "https://www.eventbrite.com/oauth/token",
    userinfo: "https://www.eventbriteapi.com/v3/users/me/",
    client: { token_endpoint_auth_method: "client_secret_post" },
    profile(profile) {
      const image = profile.image_id
        ? `https://img.evbuc.com/https%3A%2F%2Fcdn.evbuc.com%2Fimages%2F${profile.image_id}%2F1%2Foriginal.jpg`
        : null;
      return {
        id: profile.id,
        name: profile.name,
        email: profile.emails?.find((entry) => entry.primary)?.email ?? null,
        image,
      };
    },
    style: { brandColor: "#f05537" },
    options,
  };
}
