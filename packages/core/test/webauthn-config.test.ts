/**
 * WebAuthn configuration: the experimental flag, the adapter requirements, the static checks of
 * WebAuthn providers, the provider factories' defaults, and the lazy loading of
 * @simplewebauthn/server.
 */

import type { AuthConfig } from "@tessera/core";
import type { Adapter } from "@tessera/core/adapters";
import type { WebAuthnConfig } from "@tessera/core/providers";
import Passkey from "@tessera/core/providers/passkey";
import WebAuthn, { importSimpleWebAuthn } from "@tessera/core/providers/webauthn";
import { MemoryAdapter } from "@tessera/memory";
import { describe, expect, it } from "vitest";
import { Client, recordingLogger, SECRET } from "./helpers.js";

function setup(overrides: Partial<AuthConfig> = {}) {
  const log = recordingLogger();
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    adapter: MemoryAdapter(),
    logger: log.logger,
    providers: [Passkey()],
    experimental: { enableWebAuthn: true },
    ...overrides,
  };
  return { client: new Client(config), log };
}

/** Requests options and returns the configuration error that was logged (or undefined). */
async function configurationError(overrides: Partial<AuthConfig>) {
  const { client, log } = setup(overrides);
  const response = await client.get("/auth/webauthn-options/passkey?action=authenticate");
  return { status: response.status, error: log.errors[0] };
}

describe("webauthn configuration", () => {
  it("requires experimental.enableWebAuthn", async () => {
    const { status, error } = await configurationError({ experimental: {} });
    expect(status).toBe(500);
    expect(error).toMatchObject({ type: "ExperimentalFeatureNotEnabled" });
    expect(error?.message).toContain("enableWebAuthn");
  });

  it("warns once that WebAuthn is experimental when the flag is set", async () => {
    const { client, log } = setup();
    await client.get("/auth/webauthn-options/passkey?action=authenticate");
    await client.get("/auth/providers");
    expect(log.warnings).toEqual(["experimental-webauthn"]);
    expect(log.errors).toEqual([]);
  });

  it("requires an adapter", async () => {
    const { status, error } = await configurationError({ adapter: undefined });
    expect(status).toBe(500);
    expect(error).toMatchObject({ type: "MissingAdapter" });
  });

  it("names the authenticator methods an adapter lacks", async () => {
    const {
      getAuthenticator: _get,
      updateAuthenticatorCounter: _update,
      ...partial
    } = MemoryAdapter() as Required<Adapter>;
    const { status, error } = await configurationError({ adapter: partial });
    expect(status).toBe(500);
    expect(error).toMatchObject({ type: "MissingAdapterMethods" });
    expect(error?.message).toContain("`getAuthenticator`");
    expect(error?.message).toContain("`updateAuthenticatorCounter`");
  });

  it("refuses conditional UI on two providers", async () => {
    const { error } = await configurationError({ providers: [WebAuthn(), Passkey()] });
    expect(error).toMatchObject({ type: "DuplicateConditionalUI" });
    expect(error?.message).toContain('"webauthn" and "passkey"');
  });

  it("refuses conditional UI without a field whose autocomplete has `webauthn`", async () => {
    const { error } = await configurationError({
      providers: [Passkey({ formFields: { email: { label: "Email", autocomplete: "username" } } })],
    });
    expect(error).toMatchObject({ type: "MissingWebAuthnAutocomplete" });
  });

  it("refuses a hand-written provider without the WebAuthn library", async () => {
    const handWritten: WebAuthnConfig = { id: "passkey", name: "Passkey", type: "webauthn" };
    const { error } = await configurationError({ providers: [handWritten] });
    expect(error).toMatchObject({ type: "InvalidProvider" });
    expect(error?.message).toContain("Passkey()");
  });

  it("refuses a relying party origin that is not an origin", async () => {
    const { error } = await configurationError({
      providers: [Passkey({ relayingParty: { origin: "https://example.com/app" } })],
    });
    expect(error).toMatchObject({ type: "InvalidProvider" });
    expect(error?.message).toContain("https://example.com/app");
  });

  it("lists WebAuthn providers, also when given as bare factories", async () => {
    const { client } = setup({ providers: [Passkey] });
    const response = await client.get("/auth/providers");
    expect(await response.json()).toEqual({
      passkey: {
        id: "passkey",
        name: "Passkey",
        type: "webauthn",
        signinUrl: "http://localhost:3000/auth/signin/passkey",
        callbackUrl: "http://localhost:3000/auth/callback/passkey",
      },
    });
  });
});

describe("webauthn providers", () => {
  it("Passkey requires resident keys and user verification, and keeps them under overrides", () => {
    const passkey = Passkey({ registrationOptions: { timeout: 1000 } });
    expect(passkey).toMatchObject({ id: "passkey", type: "webauthn", enableConditionalUI: true });
    expect(passkey.registrationOptions).toEqual({
      timeout: 1000,
      authenticatorSelection: { residentKey: "required", userVerification: "required" },
    });
    expect(passkey.authenticationOptions).toMatchObject({ userVerification: "required" });
    expect(passkey.verifyRegistrationOptions).toEqual({ requireUserVerification: true });
    expect(passkey.verifyAuthenticationOptions).toEqual({ requireUserVerification: true });
  });

  it("WebAuthn without conditional UI drops `webauthn` from the default field's autocomplete", () => {
    expect(WebAuthn().formFields?.email?.autocomplete).toBe("username webauthn");
    const plain = WebAuthn({ enableConditionalUI: false });
    expect(plain.formFields?.email?.autocomplete).toBe("username");
    expect(plain.relayingParty).toEqual({});
  });

  it("names the missing package when @simplewebauthn/server cannot be loaded", async () => {
    // The package is installed here, so its absence is simulated by an importer that fails the
    // way Node does for a missing package.
    const missing = Object.assign(new Error("Cannot find package '@simplewebauthn/server'"), {
      code: "ERR_MODULE_NOT_FOUND",
    });
    const failed = importSimpleWebAuthn(() => Promise.reject(missing));
    await expect(failed).rejects.toMatchObject({ type: "InvalidProvider" });
    await expect(failed).rejects.toThrow(/npm install @simplewebauthn\/server/);
    const library = await importSimpleWebAuthn();
    expect(typeof library.verifyAuthenticationResponse).toBe("function");
  });
});
