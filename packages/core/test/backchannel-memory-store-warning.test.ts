/**
 * The `backchannel-memory-store` warning: back-channel logout of JWT sessions without a store
 * records its markers in one process's memory, so behind a load balancer a logout the OP sends to
 * one instance would not end the session on the others. The configuration says so once per
 * process (a lazy configuration is resolved on every request).
 */
import type { AuthConfig } from "@tessera/core";
import type { OIDCConfig } from "@tessera/core/providers";
import { memoryStore } from "@tessera/core/store";
import { MemoryAdapter } from "@tessera/memory";
import { describe, expect, it } from "vitest";
import { resolveConfig } from "../src/lib/config/resolve.js";
import { recordingLogger, SECRET } from "./helpers.js";

const op = (federatedLogout: boolean): OIDCConfig => ({
  id: "op",
  name: "OP",
  type: "oidc",
  issuer: "https://op.example.com",
  clientId: "app",
  clientSecret: "app-secret",
  federatedLogout,
});

function warningsOf(config: Partial<AuthConfig>): string[] {
  const { logger, warnings } = recordingLogger();
  resolveConfig({ secret: SECRET, trustHost: true, logger, providers: [op(true)], ...config });
  return warnings;
}

/** A secret no other test uses: another app in this process. */
const appSecret = () => `another-app-${crypto.randomUUID()}-secret-of-32+-characters`;

describe("back-channel logout state kept in one process", () => {
  it("warns once when JWT sessions of a federatedLogout provider have no store, and not otherwise", () => {
    expect(warningsOf({ oauth: { store: memoryStore() } })).toEqual([]);
    expect(warningsOf({ jwt: { revocation: memoryStore() } })).toEqual([]);
    expect(warningsOf({ adapter: MemoryAdapter(), session: { strategy: "database" } })).toEqual([]);
    expect(warningsOf({ providers: [op(false)] })).toEqual([]);
    expect(warningsOf({})).toEqual(["backchannel-memory-store"]);
    // A lazy configuration resolves per request: the warning is not repeated.
    expect(warningsOf({})).toEqual([]);
  });

  it("warns each app in the process once: one app's warning does not silence another's", () => {
    const first = appSecret();
    const second = appSecret();
    expect(warningsOf({ secret: first })).toEqual(["backchannel-memory-store"]);
    // The same app's lazy configuration, resolved again for the next request.
    expect(warningsOf({ secret: first })).toEqual([]);
    expect(warningsOf({ secret: second })).toEqual(["backchannel-memory-store"]);
  });
});
