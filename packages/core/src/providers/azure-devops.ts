/**
 * Azure DevOps sign-in (Azure DevOps OAuth 2.0). Microsoft no longer takes new Azure DevOps
 * OAuth apps and recommends Microsoft Entra ID (`@tessera/core/providers/microsoft-entra-id`)
 * for new ones; this provider serves apps registered before.
 *
 * Azure DevOps departs from OAuth 2: the authorization request says `response_type=Assertion`,
 * and the code is exchanged as a JWT bearer assertion — the client authenticates with its
 * client secret as `client_assertion`, the code being the `assertion`. Its token response says
 * `token_type: "jwt-bearer"`; the access token is used as a bearer token, as Microsoft
 * documents. The profile is `GET /_apis/profile/profiles/me` with the avatar, which becomes a
 * `data:` URL. The `scope` option lists the app's authorized scopes (space separated; default
 * `vso.profile`), which must match its registration.
 *
 * Deliberate difference from Auth.js: the code is exchanged at
 * `https://app.vssps.visualstudio.com/oauth2/token`, the token endpoint Microsoft documents;
 * Auth.js sends that request to the authorization endpoint's URL.
 *
 * Callback URL to register (https, even for localhost): `<origin>/auth/callback/azure-devops`.
 * Credentials from `AUTH_AZURE_DEVOPS_ID` (the App ID) and `AUTH_AZURE_DEVOPS_SECRET` (the
 * Client Secret, not the App Secret).
 *
 * @example
 * ```ts
 * import AzureDevOps from "@tessera/core/providers/azure-devops"
 * const config = { providers: [AzureDevOps({ scope: "vso.profile vso.code" })] }
 * ```
 */
import { providerJson } from "../lib/oauth/provider-request.js";
import type { OAuthConfig, OAuthUserConfig } from "./index.js";

/** The profile of `GET /_apis/profile/profiles/me?details=true&coreAttributes=Avatar`. */
export interface AzureDevOpsProfile {
  id: string;
  displayName: string;
  publicAlias?: string;
  emailAddress: string;
  coreRevision?: number;
  timeStamp?: string;
  revision?: number;
  coreAttributes: {
    Avatar: { value: { value: string; contentType?: string } };
    [attribute: string]: unknown;
  };
  [field: string]: unknown;
}

/** Options of {@link AzureDevOps}: provider overrides plus the authorized scopes. */
export interface AzureDevOpsOptions<P extends AzureDevOpsProfile = AzureDevOpsProfile>
  extends OAuthUserConfig<P> {
  /** The app's authorized scopes, space separated. Default `vso.profile`. */
  scope?: string;
}

const TOKEN_URL = "https://app.vssps.visualstudio.com/oauth2/token";
const PROFILE_URL =
  "https://app.vssps.visualstudio.com/_apis/profile/profiles/me?details=true&coreAttributes=Avatar&api-version=6.0";

/**
 * Azure DevOps provider.
 *
 * @example
 * ```ts
 * AzureDevOps({ scope: process.env.AZURE_DEVOPS_SCOPE })
 * ```
 */
export default function AzureDevOps<P extends AzureDevOpsProfile = AzureDevOpsProfile>(
  options: AzureDevOpsOptions<P> = {},
): OAuthConfig<P> {
  const { scope = "vso.profile", ...rest } = options;
  return {
    id: "azure-devops",
    name: "Azure DevOps",
    type: "oauth",
    authorization: {
      url: "https://app.vssps.visualstudio.com/oauth2/authorize",
      params: { response_type: "Assertion", scope },
    },
    token: {
      url: TOKEN_URL,
      async request({ provider, params }) {
        const body = new URLSearchParams({
          client_assertion_type: "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
          client_assertion: provider.clientSecret ?? "",
          grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
          assertion: params.code ?? "",
          redirect_uri: provider.callbackUrl,
        });
        const tokens = (await providerJson(provider, provider.token?.url ?? TOKEN_URL, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body,
        })) as Record<string, unknown>;
        // "jwt-bearer" names how the token was obtained; it is sent as a bearer token.
        return { tokens: { ...tokens, token_type: "bearer" } };
      },
    },
    userinfo: { url: PROFILE_URL },
    profile(profile) {
      return {
        id: profile.id,
        name: profile.displayName,
        email: profile.emailAddress,
        image: `data:image/jpeg;base64,${profile.coreAttributes.Avatar.value.value}`,
      };
    },
    style: { brandColor: "#0078d7" },
    options: rest,
  };
}
