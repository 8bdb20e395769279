/**
 * Verification of the browser's responses: registration (W3C WebAuthn §7.1) and authentication
 * assertions (§7.2). The library checks the challenge, origin, RP ID hash, flags and signature;
 * the options that decide security (challenge, origin, RP ID) are always ours and never
 * overridable by provider options.
 */
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import type { AdapterAuthenticator } from "../../adapters.js";
import { WebAuthnVerificationError } from "../../errors.js";
import type { WebAuthnConfig } from "../provider-types.js";
import {
  fromBase64,
  storedCredentialId,
  stringToTransports,
  toBase64,
  transportsToString,
  webauthnCredentialId,
} from "./credential.js";
import type { WebAuthnLibrary } from "./library.js";
import type { ResolvedRelyingParty } from "./relying-party.js";

/** Responses larger than this are refused before parsing (real ones are a few kilobytes). */
const MAX_RESPONSE_LENGTH = 64 * 1024;

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * Parses the `data` field of the callback body: a JSON string (form posts) or an object (JSON
 * posts) shaped like a `PublicKeyCredential` serialised with base64url fields.
 */
export function parseCredentialResponse(data: unknown): Record<string, unknown> & {
  id: string;
  response: Record<string, unknown>;
} {
  let parsed: unknown = data;
  if (typeof data === "string") {
    if (data.length > MAX_RESPONSE_LENGTH)
      throw new WebAuthnVerificationError("The WebAuthn response is too large.");
    try {
      parsed = JSON.parse(data);
    } catch (cause) {
      throw new WebAuthnVerificationError("The WebAuthn response is not valid JSON.", { cause });
    }
  }
  if (!isRecord(parsed) || typeof parsed.id !== "string" || !isRecord(parsed.response))
    throw new WebAuthnVerificationError(
      "The WebAuthn response lacks `id` or `response`; post the serialised credential as `data`.",
    );
  if (!/^[A-Za-z0-9_-]{1,1366}$/.test(parsed.id))
    throw new WebAuthnVerificationError("The WebAuthn credential id is not base64url.");
  return parsed as Record<string, unknown> & { id: string; response: Record<string, unknown> };
}

function failure(what: string, error: unknown): WebAuthnVerificationError {
  const reason = error instanceof Error ? error.message : String(error);
  return new WebAuthnVerificationError(`The ${what} could not be verified: ${reason}`, {
    cause: error,
  });
}

/** A verified registration: the authenticator to store (without its user). */
export type VerifiedRegistration = Omit<AdapterAuthenticator, "userId">;

/**
 * Verifies a registration response against the challenge and relying party.
 *
 * @example
 * ```ts
 * const authenticator = await verifyRegistration(library, provider, rp, challenge, response)
 * await adapter.createAuthenticator({ ...authenticator, userId: user.id })
 * ```
 */
export async function verifyRegistration(
  library: WebAuthnLibrary,
  provider: WebAuthnConfig,
  rp: ResolvedRelyingParty,
  expectedChallenge: string,
  response: Record<string, unknown>,
): Promise<VerifiedRegistration> {
  let verification: Awaited<ReturnType<WebAuthnLibrary["verifyRegistrationResponse"]>>;
  try {
    verification = await library.verifyRegistrationResponse({
      ...(provider.verifyRegistrationOptions as object),
      response: response as unknown as RegistrationResponseJSON,
      expectedChallenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.ids,
    });
  } catch (error) {
    throw failure("WebAuthn registration", error);
  }
  if (!verification.verified || !verification.registrationInfo)
    throw new WebAuthnVerificationError("The WebAuthn registration could not be verified.");
  const { credential, credentialDeviceType, credentialBackedUp } = verification.registrationInfo;
  const credentialID = storedCredentialId(credential.id);
  const responseTransports = (response.response as { transports?: unknown }).transports;
  const transports = Array.isArray(responseTransports)
    ? responseTransports.filter((t): t is string => typeof t === "string")
    : credential.transports;
  return {
    credentialID,
    providerAccountId: credentialID,
    credentialPublicKey: toBase64(credential.publicKey),
    counter: credential.counter,
    credentialDeviceType,
    credentialBackedUp,
    transports: transportsToString(transports),
  };
}

/**
 * Verifies an assertion made with the stored `authenticator` and returns its new signature
 * counter.
 */
export async function verifyAuthentication(
  library: WebAuthnLibrary,
  provider: WebAuthnConfig,
  rp: ResolvedRelyingParty,
  expectedChallenge: string,
  response: Record<string, unknown>,
  authenticator: AdapterAuthenticator,
): Promise<number> {
  let verification: Awaited<ReturnType<WebAuthnLibrary["verifyAuthenticationResponse"]>>;
  try {
    const transports = stringToTransports(authenticator.transports);
    verification = await library.verifyAuthenticationResponse({
      ...(provider.verifyAuthenticationOptions as object),
      response: response as unknown as AuthenticationResponseJSON,
      expectedChallenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.ids,
      credential: {
        id: webauthnCredentialId(authenticator.credentialID),
        publicKey: fromBase64(authenticator.credentialPublicKey),
        counter: authenticator.counter,
        ...(transports && { transports }),
      },
    });
  } catch (error) {
    throw failure("WebAuthn assertion", error);
  }
  if (!verification.verified)
    throw new WebAuthnVerificationError("The WebAuthn assertion could not be verified.");
  const { newCounter, credentialID } = verification.authenticationInfo;
  if (credentialID !== webauthnCredentialId(authenticator.credentialID))
    throw new WebAuthnVerificationError("The assertion was verified for another credential.");
  // Cloned-authenticator defence (WebAuthn §6.1.1): a signature counter that does not grow
  // means a copy of the private key is in use somewhere. Counters that stay 0 are not counting.
  if ((newCounter > 0 || authenticator.counter > 0) && newCounter <= authenticator.counter)
    throw new WebAuthnVerificationError(
      `The authenticator's signature counter went from ${authenticator.counter} to ${newCounter}: it may be cloned.`,
    );
  return newCounter;
}
