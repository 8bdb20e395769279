/**
 * `@tessera/sveltekit/client` choosing the provider to sign in with. The server side is real
 * (Tessera's `Auth()` answers every fetch); the browser is not: `window.location` is a stub that
 * records navigations, because this test runs in Node (the Chromium test in sveltekit.test.ts
 * covers the real page).
 */
import { Auth, type AuthConfig } from "@tessera/core";
import Credentials from "@tessera/core/providers/credentials";
import GitHub from "@tessera/core/providers/github";
import { signIn } from "@tessera/sveltekit/client";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

const origin = "http://127.0.0.1:5173";
const config: AuthConfig = {
  secret: "sveltekit-client-test-secret-at-least-32-chars",
  trustHost: true,
  // The refused credentials post below would otherwise print its error.
  logger: { error: () => {}, warn: () => {}, debug: () => {} },
  providers: [
    GitHub({ clientId: "id", clientSecret: "secret" }),
    Credentials({ authorize: () => null }),
  ],
};

let requests: { method: string; path: string }[];
let location: { href: string; reload: () => void };

beforeEach(() => {
  requests = [];
  location = { href: `${origin}/page`, reload: () => {} };
  vi.stubGlobal("window", { location });
  vi.stubGlobal("fetch", async (input: string, init?: RequestInit) => {
    const request = new Request(new URL(input, origin), init);
    requests.push({ method: request.method, path: new URL(request.url).pathname });
    return Auth(request, config);
  });
});

afterEach(() => vi.unstubAllGlobals());

describe("signIn() of @tessera/sveltekit/client", () => {
  it.each(["__proto__", "constructor", "toString", "hasOwnProperty"])(
    "does not resolve %s to a provider through Object.prototype (prototype key confusion)",
    async (id) => {
      expect(await signIn(id)).toBeUndefined();
      expect(requests.filter((r) => r.method === "POST")).toEqual([]);
      expect(location.href).toBe(
        `/auth/signin?${new URLSearchParams({ callbackUrl: `${origin}/page` })}`,
      );
    },
  );

  it("posts to a configured provider's endpoint", async () => {
    const result = await signIn("credentials", { redirect: false, username: "ada" });
    expect(requests.filter((r) => r.method === "POST")).toEqual([
      { method: "POST", path: "/auth/callback/credentials" },
    ]);
    expect(result?.ok).toBe(false);
    await signIn("github", { redirect: false });
    expect(requests.at(-1)).toEqual({ method: "POST", path: "/auth/signin/github" });
  });
});
