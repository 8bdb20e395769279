/**
 * The test OpenID Provider starts quietly: neither oidc-provider's notice that Node.js 20 is not
 * its preferred runtime nor its warning about the development store reaches the test output
 * (they were printed once per test file and once per provider). Its other messages are untouched.
 */
import { afterAll, describe, expect, it, vi } from "vitest";
import { type RunningOidcProvider, startOidcProvider } from "./fixtures/oidc-provider.js";

const running: RunningOidcProvider[] = [];
afterAll(async () => {
  for (const op of running) await op.close();
});

describe("test OpenID Provider", () => {
  it("starts, and restarts with a rotated key, without writing to the console", async () => {
    const written: unknown[][] = [];
    const record = (...args: unknown[]) => void written.push(args);
    const spies = (["warn", "info", "log", "error"] as const).map((method) =>
      vi.spyOn(console, method).mockImplementation(record),
    );
    try {
      const op = await startOidcProvider({
        clients: [{ client_id: "quiet", client_secret: "quiet-secret", redirect_uris: [] }],
        accounts: [{ sub: "ada" }],
      });
      running.push(op);
      await op.rotateSigningKey();
      const discovery = await fetch(`${op.issuer}/.well-known/openid-configuration`);
      expect(discovery.status).toBe(200);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    expect(written).toEqual([]);
  });
});
