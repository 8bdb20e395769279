/**
 * Related origins (WebAuthn Level 3 §5.11): a passkey ceremony on another origin of the same
 * site family, using the configured RP id, is accepted when that origin is configured and served
 * in `/.well-known/webauthn`; any other origin is refused (phishing). Real signatures from the
 * software authenticator.
 */
import type { AuthConfig } from "@tessera/core";
import { webauthnWellKnown } from "@tessera/core";
import type { RelayingPartyOptions } from "@tessera/core/providers";
import Passkey from "@tessera/core/providers/passkey";
import { createMemoryStore, MemoryAdapter, type MemoryStore } from "@tessera/memory";
import { beforeEach, describe, expect, it } from "vitest";
import { Client, ORIGIN, recordingLogger, SECRET } from "./helpers.js";
import { type CreationOptionsJSON, SoftAuthenticator } from "./webauthn-authenticator.js";

const RELATED = "https://shop.example";
let store: MemoryStore;

function config(relayingParty: Partial<RelayingPartyOptions>): AuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    adapter: MemoryAdapter(store),
    logger: recordingLogger().logger,
    providers: [Passkey({ relayingParty })],
    experimental: { enableWebAuthn: true },
  };
}

beforeEach(() => {
  store = createMemoryStore();
});

async function register(client: Client, origin: string): Promise<Response> {
  const response = await client.get(
    "/auth/webauthn-options/passkey?action=register&email=ada%40example.com",
  );
  const { options } = (await response.json()) as { options: CreationOptionsJSON };
  const credential = new SoftAuthenticator(origin).register(options);
  return client.post("/auth/callback/passkey", {
    action: "register",
    data: JSON.stringify(credential),
    callbackUrl: "/home",
  });
}

describe("related origins", () => {
  it("accepts a registration from a configured related origin for the shared RP id", async () => {
    const client = new Client(config({ id: "localhost", relatedOrigins: [RELATED] }));
    const response = await register(client, RELATED);
    expect(response.headers.get("location")).toBe(`${ORIGIN}/home`);
    expect(store.authenticators.size).toBe(1);
  });

  it("refuses a registration from an origin that is not related (phishing)", async () => {
    const client = new Client(config({ id: "localhost", relatedOrigins: [RELATED] }));
    const response = await register(client, "https://shop.evil.example");
    expect(response.headers.get("location")).toContain("error=");
    expect(store.authenticators.size).toBe(0);
  });

  it("refuses the related origin when it is not configured", async () => {
    const client = new Client(config({ id: "localhost" }));
    const response = await register(client, RELATED);
    expect(response.headers.get("location")).toContain("error=");
    expect(store.authenticators.size).toBe(0);
  });

  it("serves /.well-known/webauthn with the app's and the related origins, and nothing else", async () => {
    const related = config({ id: "localhost", relatedOrigins: [RELATED] });
    const answer = webauthnWellKnown(new Request(`${ORIGIN}/.well-known/webauthn`), related);
    expect(answer?.status).toBe(200);
    expect(answer?.headers.get("content-type")).toBe("application/json");
    expect(await answer?.json()).toEqual({ origins: [ORIGIN, RELATED] });
    expect(webauthnWellKnown(new Request(`${ORIGIN}/.well-known/other`), related)).toBeNull();
    expect(
      webauthnWellKnown(new Request(`${ORIGIN}/.well-known/webauthn`), config({ id: "localhost" })),
    ).toBeNull();
  });

  it("refuses a configuration whose related origins are not origins, or lack the RP id", async () => {
    for (const relayingParty of [
      { id: "localhost", relatedOrigins: ["https://shop.example/path"] },
      { relatedOrigins: [RELATED] },
    ]) {
      const response = await new Client(config(relayingParty)).get("/auth/providers");
      expect(response.status).toBe(500);
    }
  });
});
