/**
 * The cross-instance refresh lock and shared outcome (`oauth.store`), driven directly: a real
 * memory store shared by two "instances" (two resolved configs). Timing that would take 30 s in
 * production (a lock expiring under a slow refresh) is simulated by writing the store the way the
 * other instance would, inside the refresh.
 */
import { createHash } from "node:crypto";
import type { AuthConfig } from "@tessera/core";
import { memoryStore } from "@tessera/core/store";
import { describe, expect, it } from "vitest";
import { resolveConfig } from "../src/lib/config/resolve.js";
import type { RefreshedTokens } from "../src/lib/oauth/refresh.js";
import { refreshOnce } from "../src/lib/oauth/refresh-flight.js";
import type { InternalOAuthProvider } from "../src/providers/index.js";
import { recordingLogger, SECRET } from "./helpers.js";

const provider = { id: "op", type: "oidc" } as InternalOAuthProvider;
const flightKey = (refreshToken: string) =>
  createHash("sha256").update(`${provider.id}\n${refreshToken}`).digest("base64url");
const lockKey = (refreshToken: string) => `tessera:refresh:lock:${flightKey(refreshToken)}`;
const outcomeKey = (refreshToken: string) => `tessera:refresh:outcome:${flightKey(refreshToken)}`;

const tokens = (access_token: string): RefreshedTokens => ({
  access_token,
  token_type: "bearer",
  refresh_token: `rotated-${access_token}`,
});

function instance(store: ReturnType<typeof memoryStore>) {
  const source: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    logger: recordingLogger().logger,
    providers: [],
    oauth: { store },
  };
  return resolveConfig(source);
}

describe("the refresh lock shared through oauth.store", () => {
  it("an instance never releases another instance's refresh lock", async () => {
    const store = memoryStore();
    const a = instance(store);
    const answer = await refreshOnce(a, provider, "refresh-1", async () => {
      // A's refresh outlived its lock: the lock expired and instance B took it.
      await store.delete(lockKey("refresh-1"));
      expect(await store.add(lockKey("refresh-1"), "instance-b", 60)).toBe(true);
      return tokens("from-a");
    });
    expect(answer).toEqual(tokens("from-a"));
    expect(await store.get(lockKey("refresh-1"))).toBe("instance-b");
  });

  it("releases its own lock when the refresh is done", async () => {
    const store = memoryStore();
    await refreshOnce(instance(store), provider, "refresh-2", async () => tokens("fresh"));
    expect(await store.get(lockKey("refresh-2"))).toBeNull();
  });

  it("refuses a sealed outcome copied from another refresh token's key", async () => {
    const store = memoryStore();
    const a = instance(store);
    // The attacker's own refresh publishes an outcome holding the attacker's tokens…
    await refreshOnce(a, provider, "attacker-refresh", async () => tokens("attacker-access"));
    const sealed = await store.get(outcomeKey("attacker-refresh"));
    expect(sealed).toEqual(expect.any(String));
    // …which someone with write access to the store (not the secret) copies to the victim's key.
    await store.add(outcomeKey("victim-refresh"), sealed as string, 60);
    let refreshed = false;
    const outcome = await refreshOnce(instance(store), provider, "victim-refresh", async () => {
      refreshed = true;
      return tokens("victim-access");
    }).catch((error: unknown) => error);
    expect(outcome).not.toEqual(tokens("attacker-access"));
    expect(JSON.stringify(outcome ?? null)).not.toContain("attacker-access");
    expect(refreshed || outcome instanceof Error).toBe(true);
  });

  it("still shares a well-sealed outcome with the instances that waited", async () => {
    const store = memoryStore();
    await refreshOnce(instance(store), provider, "refresh-3", async () => tokens("shared"));
    const other = await refreshOnce(instance(store), provider, "refresh-3", async () =>
      tokens("second-refresh"),
    );
    expect(other).toEqual(tokens("shared"));
  });
});

describe("the refresh-margin-exceeds-lifetime warning", () => {
  /** An app of its own (a secret no other test uses) whose warnings are recorded. */
  function app() {
    const { logger, warnings } = recordingLogger();
    const secret = `refresh-app-${crypto.randomUUID()}-secret-of-32+-characters`;
    return { config: resolveConfig({ secret, trustHost: true, logger, providers: [] }), warnings };
  }

  /** Tokens that are due the moment they arrive (they expire within the default margin). */
  const dueOnArrival = (): RefreshedTokens => ({
    ...tokens("short-lived"),
    expires_at: Math.floor(Date.now() / 1000) + 30,
  });

  it("is said once per app and provider: one app's warning does not silence another's", async () => {
    const first = app();
    // Driven directly like the rest of this file (the grant is the test's function);
    // access-token.test.ts shows the warning itself against oidc-provider.
    await refreshOnce(first.config, provider, "refresh-a1", async () => dueOnArrival());
    await refreshOnce(first.config, provider, "refresh-a2", async () => dueOnArrival());
    expect(first.warnings).toEqual(["refresh-margin-exceeds-lifetime"]);

    const second = app();
    await refreshOnce(second.config, provider, "refresh-b1", async () => dueOnArrival());
    expect(second.warnings).toEqual(["refresh-margin-exceeds-lifetime"]);
  });
});
