/**
 * Slack sign-in ("Sign in with Slack", OpenID Connect). Slack protects the flow with `nonce`;
 * it does not support PKCE for this flow.
 *
 * Deliberate difference from Auth.js: `state` is sent as well as `nonce` (login CSRF defence,
 * RFC 6749 §10.12); Auth.js sends only `nonce`.
 *
 * Callback URL to register: `<origin>/auth/callback/slack` (https only, even locally). Credentials
 * from `AUTH_SLACK_ID` and `AUTH_SLACK_SECRET`.
 *
 * @example
 * ```ts
 * import Slack from "@tessera/core/providers/slack"
 * const config = { providers: [Slack] }
 * ```
 */
import type { OIDCConfig, OIDCUserConfig } from "./index.js";

/** Claims of a Slack ID token. */
export interface SlackProfile {
  sub: string;
  name?: string;
  given_name?: string;
  family_name?: string;
  email?: string;
  email_verified?: boolean;
  picture?: string;
  locale?: string;
  "https://slack.com/user_id"?: string;
  "https://slack.com/team_id"?: string;
  "https://slack.com/team_name"?: string;
  "https://slack.com/team_domain"?: string;
  [claim: string]: unknown;
}

/**
 * Slack provider.
 *
 * @example
 * ```ts
 * Slack({ authorization: { params: { team: "T0123456" } } })
 * ```
 */
export default function Slack<P extends SlackProfile = SlackProfile>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  return {
    id: "slack",
    name: "Slack",
    type: "oidc",
    issuer: "https://slack.com",
    checks: ["nonce", "state"],
    profile(profile) {
      return {
        id: profile.sub,
        name: profile.name ?? null,
        email: profile.email ?? null,
        image: profile.picture ?? null,
      };
    },
    style: { brandColor: "#4A154B" },
    options,
  };
}
