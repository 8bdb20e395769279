/**
 * The WebAuthn codecs of the browser client: the server's JSON options into the options
 * `navigator.credentials` takes, and a credential back into JSON. A module of their own because
 * their signatures name DOM types: no published declaration that server code imports reaches this
 * file, so `@tessera/core/client` type-checks in projects without the DOM library.
 */

export type Json = Record<string, unknown>;
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
export function requestOptionsFromJSON(options: Json): PublicKeyCredentialRequestOptions {
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
