/**
 * The Passkey provider: WebAuthn with discoverable credentials (resident keys) and user
 * verification required on registration and sign-in, so a passkey alone — no user name, no
 * password — signs a user in. Same requirements as `WebAuthn` (experimental flag, adapter with
 * the authenticator methods, `@simplewebauthn/server`).
 *
 * @example
 * ```ts
 * import Passkey from "@tessera/core/providers/passkey"
 * Auth(request, { adapter, providers: [Passkey], experimental: { enableWebAuthn: true } })
 * ```
 */
import { merge } from "../lib/config/providers.js";
import type { WebAuthnConfig } from "./index.js";
import WebAuthn, { DEFAULT_WEBAUTHN_TIMEOUT, type WebAuthnUserConfig } from "./webauthn.js";

const PASSKEY_DEFAULTS: WebAuthnUserConfig = {
  id: "passkey",
  name: "Passkey",
  authenticationOptions: { timeout: DEFAULT_WEBAUTHN_TIMEOUT, userVerification: "required" },
  registrationOptions: {
    timeout: DEFAULT_WEBAUTHN_TIMEOUT,
    authenticatorSelection: { residentKey: "required", userVerification: "required" },
  },
  verifyAuthenticationOptions: { requireUserVerification: true },
  verifyRegistrationOptions: { requireUserVerification: true },
};

/**
 * Creates a passkey provider (`id` defaults to `passkey`). Options are deep-merged over the
 * passkey defaults, so `registrationOptions: { timeout }` keeps the resident-key requirement.
 */
export default function Passkey(config: WebAuthnUserConfig = {}): WebAuthnConfig {
  return WebAuthn(merge(PASSKEY_DEFAULTS as Record<string, unknown>, config) as WebAuthnUserConfig);
}
