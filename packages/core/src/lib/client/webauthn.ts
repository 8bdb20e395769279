/**
 * The browser half of a passkey sign-in or registration (W3C WebAuthn Level 3): fetch the options
 * from `<basePath>/webauthn-options/<id>`, run `navigator.credentials.get()` or `.create()`, and
 * encode the credential as the JSON the callback verifies.
 */
import { type AuthEndpoint, authActionUrl } from "./endpoint.js";

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

type Json = Record<string, unknown>;
type DescriptorJSON = { id: string } & Json;

function toBuffer(base64url: string): ArrayBuffer {
  const binary = atob(base64url.replaceAll("-", "+").replaceAll("_", "/"));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes.buffer;
}

function toBase64url(buffer: ArrayBuffer | null | undefined): string | undefined {
  if (!buffer) return undefined;
  let binary = "";
  for (const byte of new Uint8Array(buffer)) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function descriptors(list: unknown): PublicKeyCredentialDescriptor[] {
  if (!Array.isArray(list)) return [];
  return (list as DescriptorJSON[]).map(
    (item) => ({ ...item, id: toBuffer(item.id) }) as PublicKeyCredentialDescriptor,
  );
}

/**
 * `PublicKeyCredentialCreationOptionsJSON` → the options `navigator.credentials.create()` takes.
 *
 * @example
 * ```ts
 * await navigator.credentials.create({ publicKey: creationOptionsFromJSON(options) })
 * ```
 */
export function creationOptionsFromJSON(options: Json): PublicKeyCredentialCreationOptions {
  const user = options.user as { id: string } & Json;
  return {
    ...options,
    challenge: toBuffer(options.challenge as string),
    user: { ...user, id: toBuffer(user.id) },
    excludeCredentials: descriptors(options.excludeCredentials),
  } as PublicKeyCredentialCreationOptions;
}

/**
 * `PublicKeyCredentialRequestOptionsJSON` → the options `navigator.credentials.get()` takes.
 *
 * @example
 * ```ts
 * await navigator.credentials.get({ publicKey: requestOptionsFromJSON(options) })
 * ```
 */
function requestOptionsFromJSON(options: Json): PublicKeyCredentialRequestOptions {
  return {
    ...options,
    challenge: toBuffer(options.challenge as string),
    allowCredentials: descriptors(options.allowCredentials),
  } as PublicKeyCredentialRequestOptions;
}

/**
 * A credential from `navigator.credentials` as `RegistrationResponseJSON` or
 * `AuthenticationResponseJSON` (binary fields base64url-encoded).
 *
 * @example
 * ```ts
 * const data = JSON.stringify(credentialToJSON(await navigator.credentials.get({ publicKey })))
 * ```
 */
export function credentialToJSON(credential: PublicKeyCredential): Json {
  const r = credential.response;
  const response: Json = { clientDataJSON: toBase64url(r.clientDataJSON) };
  if ("attestationObject" in r) {
    const attestation = r as AuthenticatorAttestationResponse;
    response.attestationObject = toBase64url(attestation.attestationObject);
    response.transports =
      typeof attestation.getTransports === "function" ? attestation.getTransports() : [];
  } else {
    const assertion = r as AuthenticatorAssertionResponse;
    response.authenticatorData = toBase64url(assertion.authenticatorData);
    response.signature = toBase64url(assertion.signature);
    response.userHandle = toBase64url(assertion.userHandle);
  }
  return {
    id: credential.id,
    rawId: toBase64url(credential.rawId),
    type: credential.type,
    response,
    authenticatorAttachment: credential.authenticatorAttachment ?? undefined,
    clientExtensionResults: credential.getClientExtensionResults(),
  };
}

/**
 * Fetches options for `providerId` (`params` go into the query: `action`, `email`, …), asks the
 * browser's authenticator, and returns the encoded credential. Resolves with `null` when the
 * server refuses (e.g. registering an address that has an account); rejects with the browser's
 * `DOMException` when the user cancels (`NotAllowedError`).
 *
 * @example
 * ```ts
 * const result = await webauthnCeremony(endpoint, "passkey", { action: "register", email })
 * ```
 */
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
