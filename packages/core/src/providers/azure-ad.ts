/**
 * Azure Active Directory sign-in: the former name of Microsoft Entra ID, kept under its old id
 * `azure-ad` so that apps registered with `<origin>/auth/callback/azure-ad` keep working. It is
 * {@link MicrosoftEntraID} with another id and name: same issuer (default
 * `https://login.microsoftonline.com/common/v2.0`, every tenant; set `issuer` to
 * `https://login.microsoftonline.com/<tenant id>/v2.0` for one tenant), same scopes and the
 * Microsoft Graph photo (`profilePhotoSize`). New apps should use
 * `@tessera/core/providers/microsoft-entra-id`.
 *
 * Callback URL to register: `<origin>/auth/callback/azure-ad`. Credentials from
 * `AUTH_AZURE_AD_ID` and `AUTH_AZURE_AD_SECRET`; the issuer from `AUTH_AZURE_AD_ISSUER` (or, as
 * with Auth.js, `AUTH_MICROSOFT_ENTRA_ID_ISSUER`).
 *
 * @example
 * ```ts
 * import AzureAD from "@tessera/core/providers/azure-ad"
 * const config = { providers: [AzureAD({ issuer: `https://login.microsoftonline.com/${tenantId}/v2.0` })] }
 * ```
 */
import type { OIDCConfig } from "./index.js";
import MicrosoftEntraID, {
  type MicrosoftEntraIDOptions,
  type MicrosoftEntraIDProfile,
} from "./microsoft-entra-id.js";

/** Claims of an Azure AD (Entra ID) v2.0 ID token. */
export type AzureADProfile = MicrosoftEntraIDProfile;

/**
 * Azure Active Directory provider.
 *
 * @example
 * ```ts
 * AzureAD({ profilePhotoSize: 96, authorization: { params: { prompt: "select_account" } } })
 * ```
 */
export default function AzureAD<P extends AzureADProfile = AzureADProfile>(
  options: MicrosoftEntraIDOptions<P> = {},
): OIDCConfig<P> {
  return { ...MicrosoftEntraID(options), id: "azure-ad", name: "Azure Active Directory" };
}
