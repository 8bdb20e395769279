/**
 * Microsoft Entra ID sign-in (OpenID Connect). The default issuer
 * `https://login.microsoftonline.com/common/v2.0` admits every tenant and personal accounts: each
 * ID token is checked against the issuer of the tenant it names (`tid`). Set `issuer` (or
 * `AUTH_MICROSOFT_ENTRA_ID_ISSUER`) to `https://login.microsoftonline.com/<tenant id>/v2.0` for a
 * single tenant. The profile photo comes from Microsoft Graph, as a `data:` URL.
 *
 * Callback URL to register: `<origin>/auth/callback/microsoft-entra-id`. Credentials from
 * `AUTH_MICROSOFT_ENTRA_ID_ID` and `AUTH_MICROSOFT_ENTRA_ID_SECRET`.
 *
 * @example
 * ```ts
 * import MicrosoftEntraID from "@tessera/core/providers/microsoft-entra-id"
 * const config = { providers: [MicrosoftEntraID({ issuer: `https://login.microsoftonline.com/${tenantId}/v2.0` })] }
 * ```
 */
import { processEnv } from "../lib/config/env.js";
import { bearer, providerRequest } from "../lib/oauth/provider-request.js";
import { customFetch } from "../lib/symbols.js";
import type { OIDCConfig, OIDCUserConfig } from "./index.js";

/** Claims of an Entra ID v2.0 ID token. */
export interface MicrosoftEntraIDProfile {
  sub: string;
  oid?: string;
  tid?: string;
  name?: string;
  email?: string;
  preferred_username?: string;
  nonce?: string;
  iss: string;
  aud: string;
  iat: number;
  exp: number;
  [claim: string]: unknown;
}

/** Photo sizes Microsoft Graph serves. */
export type EntraPhotoSize = 48 | 64 | 96 | 120 | 240 | 360 | 432 | 504 | 648;

/** Options of {@link MicrosoftEntraID}. */
export interface MicrosoftEntraIDOptions<
  P extends MicrosoftEntraIDProfile = MicrosoftEntraIDProfile,
> extends OIDCUserConfig<P> {
  /** Size of the profile photo in pixels (default 48); `false` skips the photo request. */
  profilePhotoSize?: EntraPhotoSize | false;
}

const GRAPH = "https://graph.microsoft.com/v1.0";

function base64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/**
 * Microsoft Entra ID provider.
 *
 * @example
 * ```ts
 * MicrosoftEntraID({ profilePhotoSize: 96, authorization: { params: { prompt: "select_account" } } })
 * ```
 */
export default function MicrosoftEntraID<
  P extends MicrosoftEntraIDProfile = MicrosoftEntraIDProfile,
>(options: MicrosoftEntraIDOptions<P> = {}): OIDCConfig<P> {
  const { profilePhotoSize = 48 } = options;
  return {
    id: "microsoft-entra-id",
    name: "Microsoft Entra ID",
    type: "oidc",
    // Read here too: a called factory's defaults would otherwise hide the environment's issuer.
    issuer:
      options.issuer ??
      processEnv().AUTH_MICROSOFT_ENTRA_ID_ISSUER ??
      "https://login.microsoftonline.com/common/v2.0",
    authorization: { params: { scope: "openid profile email User.Read" } },
    async profile(profile, tokens) {
      let image: string | null = null;
      if (profilePhotoSize && tokens.access_token) {
        const requester = { id: "microsoft-entra-id", [customFetch]: options[customFetch] };
        const url = `${GRAPH}/me/photos/${profilePhotoSize}x${profilePhotoSize}/$value`;
        try {
          const response = await providerRequest(requester, url, {
            headers: bearer(tokens.access_token),
          });
          const type = response.headers.get("content-type") ?? "image/jpeg";
          if (type.startsWith("image/"))
            image = `data:${type};base64,${base64(new Uint8Array(await response.arrayBuffer()))}`;
        } catch {
          // Users without a photo (404) or without the User.Read scope sign in without one.
        }
      }
      return {
        id: profile.sub,
        name: profile.name ?? null,
        email: profile.email ?? null,
        image,
      };
    },
    style: { brandColor: "#0078d4" },
    options,
  };
}
