/**
 * Hugging Face sign-in (OpenID Connect, issuer `https://huggingface.co`). The user is named by
 * their full name (`name`) and e-mail (with the `email` scope); Hugging Face requires `state`,
 * which is sent with PKCE.
 *
 * Callback URL to register (the OAuth app's redirect URLs):
 * `<origin>/auth/callback/huggingface`. Credentials from `AUTH_HUGGINGFACE_ID` and
 * `AUTH_HUGGINGFACE_SECRET`.
 *
 * @example
 * ```ts
 * import HuggingFace from "@tessera/core/providers/huggingface"
 * const config = { providers: [HuggingFace] }
 * ```
 */
import type { OIDCConfig, OIDCUserConfig } from "./index.js";

/** Claims of a Hugging Face ID token (scopes `openid profile email`). */
export interface HuggingfaceProfile {
  sub: string;
  name: string;
  preferred_username: string;
  profile: string;
  picture: string;
  website?: string;
  email?: string;
  email_verified?: boolean;
  isPro: boolean;
  canPay?: boolean;
  orgs?: { sub: string; name: string; picture: string; preferred_username: string }[];
  [claim: string]: unknown;
}

/**
 * Hugging Face provider.
 *
 * @example
 * ```ts
 * HuggingFace({ authorization: { params: { scope: "openid profile email read-repos" } } })
 * ```
 */
export default function HuggingFace<P extends HuggingfaceProfile = HuggingfaceProfile>(
  options: OIDCUserConfig<P> = {},
): OIDCConfig<P> {
  return {
    id: "huggingface",
    name: "Hugging Face",
    type: "oidc",
    issuer: "https://huggingface.co",
    checks: ["state", "pkce"],
    // Standard OIDC claims: the default profile mapping (sub, name, email, picture) applies.
    style: { brandColor: "#FFD21E" },
    options,
  };
}
