/**
 * The `@simplewebauthn/server` functions a provider carries. Core never imports the package: the
 * `WebAuthn()` provider loads it on first use, so applications without WebAuthn do not need it.
 */
import type * as SimpleWebAuthn from "@simplewebauthn/server";
import { InvalidProvider } from "../../errors.js";
import { missingLibraryMethods } from "../config/assert.js";
import type { WebAuthnConfig } from "../provider-types.js";

/** The four functions, with the package's own types. */
export type WebAuthnLibrary = Pick<
  typeof SimpleWebAuthn,
  | "generateRegistrationOptions"
  | "generateAuthenticationOptions"
  | "verifyRegistrationResponse"
  | "verifyAuthenticationResponse"
>;

/**
 * The provider's WebAuthn functions. Throws `InvalidProvider` when a hand-written provider
 * object lacks them (the static config check reports this at start-up already).
 */
export function webauthnLibrary(provider: WebAuthnConfig): WebAuthnLibrary {
  const missing = missingLibraryMethods(provider);
  if (missing.length)
    throw new InvalidProvider(
      `The WebAuthn provider "${provider.id}" lacks simpleWebAuthn.${missing.join(", simpleWebAuthn.")}. Create it with WebAuthn() or Passkey() from @tessera/core/providers.`,
    );
  return provider.simpleWebAuthn as unknown as WebAuthnLibrary;
}
