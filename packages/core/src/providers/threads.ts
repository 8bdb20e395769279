/**
 * Threads sign-in (OAuth 2, Meta's Threads API). The scope `threads_basic` is asked for and only
 * the `state` check is used; the client credentials are sent as token request parameters. The
 * profile is read from `GET https://graph.threads.net/v1.0/me` with the fields `id`, `username`
 * and `threads_profile_picture_url`, and handed to `profile()` under `data`, the shape Auth.js's
 * `ThreadsProfile` has. Threads never gives the e-mail address, so the user's `email` is `null`.
 *
 * Meta requires an https callback URL, localhost included (use a TLS proxy or tunnel during
 * development). Ask for more scopes (`threads_content_publish`, …) with
 * `authorization: { params: { scope: "threads_basic,threads_content_publish" } }`.
 *
 * Deliberate difference from Auth.js: the Graph response, which has the user's fields at its top
 * level, is passed to `profile()` as `{ data: <response> }`, and the `token_type` Threads leaves
 * out of its token response is added. Auth.js reads `data` from the bare response and refuses a
 * token response without `token_type`, so its Threads sign-in fails.
 *
 * Callback URL to register (the app's "Redirect Callback URLs" in the Meta app dashboard):
 * `<origin>/auth/callback/threads`. Credentials from `AUTH_THREADS_ID` (the Threads app ID) and
 * `AUTH_THREADS_SECRET` (the Threads app secret).
 *
 * @example
 * ```ts
 * import Threads from "@tessera/core/providers/threads"
 * const config = { providers: [Threads] }
 * ```
 */
import { bearer, providerJson } from "../lib/oauth/provider-request.js";
import { bearerTokenResponse } from "../lib/oauth/token-response.js";
import type { OAuthConfig, OAuthUserConfig } from "./index.js";

/** The response of `GET https://graph.threads.net/v1.0/me`, under `data`. */
export interface ThreadsProfile {
  data: {
    id: string;
    username?: string;
    name?: string;
    threads_profile_picture_url?: string;
    threads_biography?: string;
    [field: string]: unknown;
  };
  [field: string]: unknown;
}

const PROFILE_URL =
  "https://graph.threads.net/v1.0/me?fields=id,username,threads_profile_picture_url";

/**
 * Threads provider.
 *
 * @example
 * ```ts
 * Threads({
 *   userinfo: {
 *     url: "https://graph.threads.net/v1.0/me?fields=id,username,name,threads_profile_picture_url",
 *   },
 * })
 * ```
 */
export default function Threads<P extends ThreadsProfile = ThreadsProfile>(
  options: OAuthUserConfig<P> = {},
): OAuthConfig<P> {
  return {
    id: "threads",
    name: "Threads",
    type: "oauth",
    checks: ["state"],
    authorization: "https://threads.net/oauth/authorize?scope=threads_basic",
    token: {
      url: "https://graph.threads.net/oauth/access_token",
      conform: bearerTokenResponse(),
    },
    client: { token_endpoint_auth_method: "client_secret_post" },
    userinfo: {
      url: PROFILE_URL,
      async request({ tokens, provider }) {
        const url = provider.userinfo?.url ?? PROFILE_URL;
        const data = await providerJson(provider, url, { headers: bearer(tokens.access_token) });
        return { data } as Record<string, unknown>;
      },
    },
    profile({ data }) {
      return {
        id: data.id,
        name: data.username || null,
        email: null,
        image: data.threads_profile_picture_url || null,
      };
    },
    style: { brandColor: "#000000" },
    options,
  };
}
