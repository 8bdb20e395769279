/**
 * The WebAuthn provider: sign in with a security key, a platform authenticator or a passkey.
 * Needs `experimental: { enableWebAuthn: true }`, an adapter with the authenticator methods, and
 * the optional package `@simplewebauthn/server` (loaded on first use, so applications that do not
 * use WebAuthn never need it).
 *
 * The built-in sign-in page offers "Sign in with passkey" and "Create a passkey", plus autofill
 * (conditional UI) where the browser supports it. For passkeys specifically (discoverable
 * credentials, user verification required) use `Passkey` from `@tessera/core/providers/passkey`.
 *
 * @example
 * ```ts
 * import WebAuthn from "@tessera/core/providers/webauthn"
 * Auth(request, {
 *   adapter,
 *   providers: [WebAuthn({ relayingParty: { name: "Example" } })],
 *   experimental: { enableWebAuthn: true },
 * })
 * ```
 */
import type * as SimpleWebAuthn from "@simplewebauthn/server";
import { InvalidProvider } from "../errors.js";
import { merge } from "../lib/config/providers.js";
import type { SimpleWebAuthnMethods, WebAuthnConfig } from "./index.js";

export type { WebAuthnConfig };

/** Milliseconds the browser's prompt may stay open (the ceremony timeout of the options). */
export const DEFAULT_WEBAUTHN_TIMEOUT = 5 * 60 * 1000;

/** What `WebAuthn()` accepts: any field of the configuration. */
export type WebAuthnUserConfig = Partial<Omit<WebAuthnConfig, "type" | "options">>;

type Library = typeof SimpleWebAuthn;
type Importer = () => Promise<Library>;

/**
 * Imports `@simplewebauthn/server`. A missing package becomes an `InvalidProvider` error that
 * names it and how to install it.
 *
 * @example
 * ```ts
 * const { verifyRegistrationResponse } = await importSimpleWebAuthn()
 * ```
 */
export async function importSimpleWebAuthn(
  importer: Importer = () => import("@simplewebauthn/server"),
): Promise<Library> {
  try {
    return await importer();
  } catch (cause) {
    throw new InvalidProvider(
      "WebAuthn needs the optional package @simplewebauthn/server (version 13 or later), which could not be loaded. Install it: npm install @simplewebauthn/server",
      { cause },
    );
  }
}

let loading: Promise<Library> | undefined;

/** Imports the package once per process; after a failure the next call tries again. */
function loadSimpleWebAuthn(): Promise<Library> {
  loading ??= importSimpleWebAuthn().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

/** The library's functions, each loading the package on its first call. */
const lazySimpleWebAuthn = {
  generateRegistrationOptions: async (options) =>
    (await loadSimpleWebAuthn()).generateRegistrationOptions(options),
  generateAuthenticationOptions: async (options) =>
    (await loadSimpleWebAuthn()).generateAuthenticationOptions(options),
  verifyRegistrationResponse: async (options) =>
    (await loadSimpleWebAuthn()).verifyRegistrationResponse(options),
  verifyAuthenticationResponse: async (options) =>
    (await loadSimpleWebAuthn()).verifyAuthenticationResponse(options),
} satisfies Pick<Library, keyof SimpleWebAuthnMethods> as SimpleWebAuthnMethods;

/** The nested option objects merged key by key (so one override keeps the other defaults). */
const NESTED = [
  "relayingParty",
  "authenticationOptions",
  "registrationOptions",
  "verifyAuthenticationOptions",
  "verifyRegistrationOptions",
] as const;

/**
 * Creates a WebAuthn provider (`id` defaults to `webauthn`). Nested option objects
 * (`registrationOptions`, `relayingParty`, …) are merged over the defaults; `formFields`
 * replaces the default e-mail field.
 */
export default function WebAuthn(config: WebAuthnUserConfig = {}): WebAuthnConfig {
  const enableConditionalUI = config.enableConditionalUI ?? true;
  const defaults: WebAuthnConfig = {
    id: "webauthn",
    name: "WebAuthn",
    type: "webauthn",
    enableConditionalUI,
    simpleWebAuthn: lazySimpleWebAuthn,
    relayingParty: {},
    authenticationOptions: { timeout: DEFAULT_WEBAUTHN_TIMEOUT },
    registrationOptions: { timeout: DEFAULT_WEBAUTHN_TIMEOUT },
    verifyAuthenticationOptions: {},
    verifyRegistrationOptions: {},
    formFields: {
      email: {
        label: "Email",
        type: "email",
        placeholder: "you@example.com",
        required: true,
        // `webauthn` in autocomplete is what makes the browser offer passkeys in the autofill.
        autocomplete: enableConditionalUI ? "username webauthn" : "username",
      },
    },
  };
  const provider: WebAuthnConfig = { ...defaults, ...config, type: "webauthn" };
  for (const key of NESTED)
    provider[key] = merge(
      (defaults[key] ?? {}) as Record<string, unknown>,
      config[key] as Record<string, unknown> | undefined,
    ) as never;
  return provider;
}
