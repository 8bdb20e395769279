/**
 * The browser half of a passkey sign-in or registration (W3C WebAuthn Level 3): fetch the options
 * from `<basePath>/webauthn-options/<id>`, run `navigator.credentials.get()` or `.create()`, and
 * encode the credential as the JSON the callback verifies.
 */
import { type AuthEndpoint, authActionUrl } from "./endpoint.js";
import {
  creationOptionsFromJSON,
  credentialToJSON,
  type Json,
  requestOptionsFromJSON,
} from "./webauthn-codec.js";

/** The two ceremonies. */
export type WebAuthnAction = "register" | "authenticate";

/** A finished ceremony, ready to be posted to `<basePath>/callback/<id>`. */
export interface WebAuthnCeremonyResult {
  action: WebAuthnAction;
  /** The credential as JSON text (the `data` form field). */
  data: string;
}

/** Runs a ceremony; `null` when the server refused to give options (logged). */
export type WebAuthnCeremony = (
  endpoint: AuthEndpoint,
  providerId: string,
  params: Record<string, string>,
) => Promise<WebAuthnCeremonyResult | null>;

export const webauthnCeremony: WebAuthnCeremony = async (endpoint, providerId, params) => {
  const url = authActionUrl(endpoint, `webauthn-options/${encodeURIComponent(providerId)}`);
  const response = await fetch(`${url}?${new URLSearchParams(params)}`, {
    credentials: "same-origin",
    headers: { Accept: "application/json" },
  });
  if (!response.ok) {
    console.error(
      "[tessera] passkey options refused:",
      response.status,
      await response.text().catch(() => ""),
    );
    return null;
  }
  const ceremony = await readOptions(response);
  if (!ceremony) return null;
  const credential =
    "create" in ceremony
      ? await navigator.credentials.create({ publicKey: ceremony.create })
      : await navigator.credentials.get({ publicKey: ceremony.get });
  if (!(credential instanceof PublicKeyCredential))
    throw new Error("The authenticator returned no public key credential.");
  return { action: ceremony.action, data: JSON.stringify(credentialToJSON(credential)) };
};

type Ceremony =
  | { action: "register"; create: PublicKeyCredentialCreationOptions }
  | { action: "authenticate"; get: PublicKeyCredentialRequestOptions };

/** The options answer as browser options; `null` (logged) when it is not what the server sends. */
async function readOptions(response: Response): Promise<Ceremony | null> {
  try {
    const { action, options } = (await response.json()) as { action?: unknown; options: Json };
    if (action === "register") return { action, create: creationOptionsFromJSON(options) };
    if (action === "authenticate") return { action, get: requestOptionsFromJSON(options) };
    throw new TypeError(`unknown ceremony ${String(action)}`);
  } catch (error) {
    console.error("[tessera] passkey options unreadable:", error);
    return null;
  }
}

/**
 * Asks the browser's authenticator for an assertion over `options` (authentication options as
 * the server sends them, base64url fields) and answers the credential as JSON text, ready to
 * post. Rejects with the browser's `DOMException` when the user cancels (`NotAllowedError`).
 *
 * @example
 * ```ts
 * const data = await passkeyAssertion(options)
 * ```
 */
export async function passkeyAssertion(options: Record<string, unknown>): Promise<string> {
  const credential = await navigator.credentials.get({
    publicKey: requestOptionsFromJSON(options),
  });
  if (!(credential instanceof PublicKeyCredential))
    throw new Error("The authenticator returned no public key credential.");
  return JSON.stringify(credentialToJSON(credential));
}
