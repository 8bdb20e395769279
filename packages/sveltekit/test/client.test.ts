/**
 * `@tessera/sveltekit/client` choosing the provider to sign in with, its base path, and signing
 * out. The server side is real (Tessera's `Auth()` answers every fetch); the browser is not:
 * `window.location` is a stub that records navigations and `fetch` keeps cookies in a jar as a
 * browser would, because this test runs in Node (the Chromium test in app.test.ts covers the real
 * page).
 */
import { Auth, type AuthConfig } from "@tessera/core";
import Credentials from "@tessera/core/providers/credentials";
import GitHub from "@tessera/core/providers/github";
import { signIn, signOut } from "@tessera/sveltekit/client";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

// `$app/paths` exists only inside a SvelteKit build; the app here lives under the base `/base`.
vi.mock("$app/paths", () => ({ base: "/base", assets: "" }));

const origin = "http://127.0.0.1:5173";
const config: AuthConfig = {
  secret: "sveltekit-client-test-secret-at-least-32-chars",
  trustHost: true,
  basePath: "/base/auth",
  // The refused credentials post below would otherwise print its error.
  logger: { error: () => {}, warn: () => {}, debug: () => {} },
  providers: [
    GitHub({ clientId: "id", clientSecret: "secret" }),
    Credentials({ authorize: () => null }),
  ],
};

let requests: { method: string; path: string }[];
let location: { href: string; reload: () => void };
let jar: Map<string, string>;

/** A `fetch` answered by `Auth(…, settings)` with the jar's cookies, as a browser would send them. */
function browserFetch(settings: AuthConfig) {
  return async (input: string, init?: RequestInit) => {
    const request = new Request(new URL(input, origin), init);
    requests.push({ method: request.method, path: new URL(request.url).pathname });
    if (jar.size)
      request.headers.set("cookie", [...jar].map(([name, value]) => `${name}=${value}`).join("; "));
    const response = await Auth(request, settings);
    for (const header of response.headers.getSetCookie()) {
      const [pair = ""] = header.split(";");
      const separator = pair.indexOf("=");
      jar.set(pair.slice(0, separator), pair.slice(separator + 1));
    }
    return response;
  };
}

beforeEach(() => {
  requests = [];
  jar = new Map();
  location = { href: `${origin}/page`, reload: () => {} };
  vi.stubGlobal("window", { location });
  vi.stubGlobal("fetch", browserFetch(config));
});

afterEach(() => vi.unstubAllGlobals());

describe("signIn() of @tessera/sveltekit/client", () => {
  it.each(["__proto__", "constructor", "toString", "hasOwnProperty"])(
    "does not resolve %s to a provider through Object.prototype (prototype key confusion)",
    async (id) => {
      expect(await signIn(id)).toBeUndefined();
      expect(requests.filter((r) => r.method === "POST")).toEqual([]);
      expect(location.href).toBe(
        `/base/auth/signin?${new URLSearchParams({ callbackUrl: `${origin}/page` })}`,
      );
    },
  );

  it("posts to a configured provider's endpoint", async () => {
    const result = await signIn("credentials", { redirect: false, username: "ada" });
    expect(requests.filter((r) => r.method === "POST")).toEqual([
      { method: "POST", path: "/base/auth/callback/credentials" },
    ]);
    expect(result?.ok).toBe(false);
    await signIn("github", { redirect: false });
    expect(requests.at(-1)).toEqual({ method: "POST", path: "/base/auth/signin/github" });
  });

  it("talks to the base path given in the options", async () => {
    vi.stubGlobal("fetch", browserFetch({ ...config, basePath: "/custom" }));
    const result = await signIn("credentials", {
      basePath: "/custom/",
      callbackUrl: "/next",
      redirect: false,
      username: "ada",
    });
    expect(result).toEqual({
      error: "CredentialsSignin",
      code: "credentials",
      status: 200,
      ok: false,
      url: null,
    });
    expect(requests.map((r) => r.path)).toEqual([
      "/custom/providers",
      "/custom/csrf",
      "/custom/callback/credentials",
    ]);
  });
});

describe("signOut() of @tessera/sveltekit/client", () => {
  it("resolves with the URL it would go to when redirect is false", async () => {
    expect(await signOut({ redirect: false, redirectTo: "/bye" })).toEqual({
      url: `${origin}/bye`,
    });
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      "GET /base/auth/csrf",
      "POST /base/auth/signout",
    ]);
    expect(location.href).toBe(`${origin}/page`);
  });

  it("navigates to the current page by default", async () => {
    location.href = `${origin}/account`;
    expect(await signOut()).toBeUndefined();
    expect(location.href).toBe(`${origin}/account`);
  });
});
