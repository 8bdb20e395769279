/**
 * `@tessera/core/client` against a real Tessera server: `Auth()` behind `node:http` on
 * 127.0.0.1, reached with Node's own `fetch`, and a real OpenID Provider (oidc-provider) for the
 * OAuth sign-in. Two browser parts cannot run in Node and are stood in for, as a browser would
 * behave: `fetch` keeps cookies in a jar for the server's origin, and `window.location` records
 * where the client navigates. Passkeys run in real Chromium in e2e/webauthn-client.test.ts.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Auth, type AuthConfig } from "@tessera/core";
import {
  type AuthEndpoint,
  authActionUrl,
  clientAt,
  endpointFromUrl,
  fetchAuthJson,
  getCsrfToken,
  getProviders,
  getSession,
  signIn,
  signOut,
  updateSession,
  webauthnCeremony,
} from "@tessera/core/client";
import Credentials from "@tessera/core/providers/credentials";
import Email from "@tessera/core/providers/email";
import Passkey from "@tessera/core/providers/passkey";
import { createMemoryStore, MemoryAdapter } from "@tessera/memory";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { toRequest, writeResponse } from "../../../e2e/auth-server.js";
import { recordingSender } from "./email-helpers.js";
import { type RunningOidcProvider, startOidcProvider } from "./fixtures/oidc-provider.js";
import { SECRET } from "./helpers.js";
import { parseSetCookie } from "./set-cookie.js";

const ADA = { sub: "ada-1", email: "ada@example.com", email_verified: true, name: "Ada" };
const PASSWORD = "lovelace";
const sender = recordingSender();
const realFetch = globalThis.fetch;

let op: RunningOidcProvider;
let server: Server;
let origin = "";
let endpoint: AuthEndpoint;

function config(): AuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    basePath: "/auth",
    // Refused sign-ins below would otherwise print their errors.
    logger: { error() {}, warn() {}, debug() {} },
    adapter: MemoryAdapter(createMemoryStore()),
    session: { strategy: "jwt" },
    experimental: { enableWebAuthn: true },
    providers: [
      Credentials({
        credentials: { email: {}, password: { type: "password" } },
        authorize: (c) =>
          c.email === ADA.email && c.password === PASSWORD
            ? { id: ADA.sub, name: ADA.name, email: ADA.email }
            : null,
      }),
      Email({ sendVerificationRequest: sender.sendVerificationRequest }),
      {
        id: "op",
        name: "OP",
        type: "oidc",
        issuer: op.issuer,
        clientId: "rp",
        clientSecret: "rp-secret",
      },
      Passkey(),
    ],
    callbacks: {
      jwt({ token, trigger, session }) {
        const name = (session as { user?: { name?: unknown } } | undefined)?.user?.name;
        if (trigger === "update" && typeof name === "string") token.name = name;
        return token;
      },
    },
  };
}

beforeAll(async () => {
  server = createServer((req, res) => {
    void (async () => {
      try {
        await writeResponse(await Auth(await toRequest(req), settings), res);
      } catch (error) {
        res.writeHead(500).end(String(error));
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  endpoint = { baseUrl: origin, basePath: "/auth" };
  op = await startOidcProvider({
    clients: [
      {
        client_id: "rp",
        client_secret: "rp-secret",
        redirect_uris: [`${origin}/auth/callback/op`],
      },
    ],
    accounts: [ADA],
  });
});

/** The server's configuration; each test starts with an empty user store. */
let settings: AuthConfig;

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await op?.close();
});

/** The browser's cookies for the server's origin, and the requests it made. */
let jar: Map<string, string>;
let requests: { method: string; path: string; body?: URLSearchParams }[];
let location: { href: string; reload: () => void };
let reloads: number;

function cookieHeader(): string {
  return [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
}

/** `fetch` as a browser on the server's origin makes it: cookies sent and stored. */
async function browserFetch(input: string | URL | Request, init: RequestInit = {}) {
  const url = new URL(String(input), origin);
  const headers = new Headers(init.headers);
  if (url.origin === origin && jar.size) headers.set("cookie", cookieHeader());
  const body = init.body instanceof URLSearchParams ? new URLSearchParams(init.body) : undefined;
  requests.push({ method: init.method ?? "GET", path: url.pathname, ...(body && { body }) });
  const response = await realFetch(url, { ...init, headers, redirect: "manual" });
  if (url.origin === origin)
    for (const header of response.headers.getSetCookie()) {
      const cookie = parseSetCookie(header);
      if (cookie.maxAge === 0 || cookie.value === "") jar.delete(cookie.name);
      else jar.set(cookie.name, cookie.value);
    }
  return response;
}

beforeEach(() => {
  settings = config();
  jar = new Map();
  requests = [];
  reloads = 0;
  location = { href: `${origin}/page`, reload: () => void reloads++ };
  vi.stubGlobal("window", { location });
  vi.stubGlobal("fetch", browserFetch);
  // Failed requests are logged on purpose; keep the output readable.
  vi.spyOn(console, "error").mockImplementation(() => {});
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const posts = () => requests.filter((r) => r.method === "POST");

async function signInWithPassword(password = PASSWORD) {
  return signIn(endpoint, "credentials", { email: ADA.email, password, redirect: false });
}

describe("endpoint", () => {
  it("builds action URLs from the origin and base path", () => {
    expect(authActionUrl({ baseUrl: "", basePath: "/api/auth" }, "csrf")).toBe("/api/auth/csrf");
    expect(authActionUrl(endpoint, "signin/op")).toBe(`${origin}/auth/signin/op`);
  });

  it.each([
    ["https://example.com/auth/", { baseUrl: "https://example.com", basePath: "/auth" }],
    ["https://example.com", { baseUrl: "https://example.com", basePath: "/api/auth" }],
    ["example.com/x", { baseUrl: "https://example.com", basePath: "/x" }],
    [undefined, { baseUrl: "http://localhost:3000", basePath: "/api/auth" }],
    ["http://[not a host", { baseUrl: "http://localhost:3000", basePath: "/api/auth" }],
  ])("reads %s as an endpoint", (url, expected) => {
    expect(endpointFromUrl(url)).toEqual(expected);
  });
});

describe("reading from the server", () => {
  it("gets a CSRF token whose double-submit cookie the server set", async () => {
    const token = await getCsrfToken(endpoint);
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(jar.get("authjs.csrf-token")?.split("|")[0]).toBe(token);
  });

  it("lists the providers and reads no session when signed out", async () => {
    const providers = await getProviders(endpoint);
    expect(Object.keys(providers ?? {})).toEqual(["credentials", "email", "op", "passkey"]);
    expect(providers?.op).toMatchObject({ id: "op", type: "oidc" });
    expect(await getSession(endpoint)).toBeNull();
  });

  it("answers null instead of throwing when the action is unknown or the server is gone", async () => {
    expect(await fetchAuthJson(endpoint, "no-such-action")).toBeNull();
    const gone = { baseUrl: "http://127.0.0.1:1", basePath: "/auth" };
    expect(await getProviders(gone)).toBeNull();
    expect(await getCsrfToken(gone)).toBe("");
    expect(await getSession(gone)).toBeNull();
  });
});

describe("signIn with credentials", () => {
  it("resolves a refused sign-in with redirect: false as { error, code, status, ok, url }", async () => {
    expect(await signInWithPassword("wrong")).toEqual({
      error: "CredentialsSignin",
      code: "credentials",
      status: 200,
      ok: false,
      url: null,
    });
    expect(location.href).toBe(`${origin}/page`);
    expect(await getSession(endpoint)).toBeNull();
  });

  it("posts the fields with the CSRF token and callback URL, and signs in", async () => {
    const result = await signIn(endpoint, "credentials", {
      email: ADA.email,
      password: PASSWORD,
      redirect: false,
      redirectTo: "/dashboard",
    });
    expect(result).toEqual({
      error: undefined,
      code: undefined,
      status: 200,
      ok: true,
      url: `${origin}/dashboard`,
    });
    const [post] = posts();
    expect(post?.path).toBe("/auth/callback/credentials");
    expect(Object.fromEntries(post?.body ?? [])).toEqual({
      email: ADA.email,
      password: PASSWORD,
      csrfToken: expect.stringMatching(/^[0-9a-f]{64}$/),
      callbackUrl: "/dashboard",
    });
    expect(location.href).toBe(`${origin}/page`);
    expect(await getSession(endpoint)).toMatchObject({
      user: { name: ADA.name, email: ADA.email },
    });
  });

  it("navigates to the callback URL by default", async () => {
    expect(
      await signIn(endpoint, "credentials", { email: ADA.email, password: PASSWORD }),
    ).toBeUndefined();
    expect(location.href).toBe(`${origin}/page`);
    expect(await getSession(endpoint)).toMatchObject({ user: { email: ADA.email } });
  });

  it("reloads when the destination differs from the page only in its fragment", async () => {
    await signIn(endpoint, "credentials", {
      email: ADA.email,
      password: PASSWORD,
      redirectTo: `${origin}/page#welcome`,
    });
    expect(location.href).toBe(`${origin}/page#welcome`);
    expect(reloads).toBe(1);
  });
});

describe("signIn with other providers", () => {
  it("requests an e-mail link and stays on the page with redirect: false", async () => {
    const result = await signIn(endpoint, "email", { email: ADA.email, redirect: false });
    expect(result).toMatchObject({ ok: true, status: 200, error: undefined });
    expect(result?.url).toBe(`${origin}/auth/verify-request?provider=email&type=email`);
    expect(posts().map((p) => p.path)).toEqual(["/auth/signin/email"]);
    const link = sender.lastLink(ADA.email);
    await browserFetch(`${link.pathname}${link.search}`);
    expect(await getSession(endpoint)).toMatchObject({ user: { email: ADA.email } });
  });

  it("sends the browser to the OpenID Provider with the authorization params, even with redirect: false", async () => {
    const result = await signIn(
      endpoint,
      "op",
      { redirect: false, redirectTo: "/after" },
      { login_hint: ADA.email, prompt: "login" },
    );
    expect(result).toBeUndefined();
    const authorization = new URL(location.href);
    expect(authorization.origin).toBe(op.issuer);
    expect(authorization.searchParams.get("login_hint")).toBe(ADA.email);
    expect(authorization.searchParams.get("prompt")).toBe("login");
    expect(posts().map((p) => p.path)).toEqual(["/auth/signin/op"]);

    const back = await op.authorize(authorization.href);
    const callback = await browserFetch(back.url);
    expect(callback.headers.get("location")).toBe(`${origin}/after`);
    expect(await getSession(endpoint)).toMatchObject({ user: { email: ADA.email } });
  });

  it.each(["__proto__", "constructor", "toString", "hasOwnProperty", "unknown"])(
    "sends %s to the sign-in page instead of posting (prototype key confusion)",
    async (id) => {
      expect(await signIn(endpoint, id, { redirect: false })).toBeUndefined();
      expect(posts()).toEqual([]);
      expect(location.href).toBe(
        `${origin}/auth/signin?${new URLSearchParams({ callbackUrl: `${origin}/page` })}`,
      );
    },
  );

  it("sends a passkey provider to the sign-in page when no ceremony is given", async () => {
    expect(await signIn(endpoint, "passkey", { redirect: false })).toBeUndefined();
    expect(posts()).toEqual([]);
    expect(new URL(location.href).pathname).toBe("/auth/signin");
  });

  it("goes to the error page when the server cannot be reached", async () => {
    const gone = { baseUrl: "http://127.0.0.1:1", basePath: "/auth" };
    expect(await signIn(gone, "credentials", { redirect: false })).toBeUndefined();
    expect(location.href).toBe("http://127.0.0.1:1/auth/error");
  });
});

describe("updateSession and signOut", () => {
  it("updates the session with data through POST /session and reads it without", async () => {
    await signInWithPassword();
    const updated = await updateSession(endpoint, { user: { name: "Grace" } });
    expect(updated).toMatchObject({ user: { name: "Grace", email: ADA.email } });
    const update = posts().at(-1);
    expect(update?.path).toBe("/auth/session");
    expect(await getSession(endpoint)).toMatchObject({ user: { name: "Grace" } });

    const before = requests.length;
    expect(await updateSession(endpoint)).toMatchObject({ user: { name: "Grace" } });
    expect(requests.slice(before)).toEqual([{ method: "GET", path: "/auth/session" }]);
  });

  it("fetches a fresh CSRF token for an update, so a stale token cookie does not break it", async () => {
    await signInWithPassword();
    jar.set("authjs.csrf-token", `${"0".repeat(64)}|${"0".repeat(64)}`);
    expect(await updateSession(endpoint, { user: { name: "Grace" } })).toMatchObject({
      user: { name: "Grace" },
    });
    expect(requests.slice(-2).map((r) => `${r.method} ${r.path}`)).toEqual([
      "GET /auth/csrf",
      "POST /auth/session",
    ]);
  });

  it("signs out with redirect: false, resolving with the URL it would go to", async () => {
    await signInWithPassword();
    expect(await signOut(endpoint, { redirect: false, redirectTo: "/bye" })).toEqual({
      url: `${origin}/bye`,
    });
    expect(posts().at(-1)?.path).toBe("/auth/signout");
    expect(Object.fromEntries(posts().at(-1)?.body ?? [])).toEqual({
      csrfToken: expect.stringMatching(/^[0-9a-f]{64}$/),
      callbackUrl: "/bye",
    });
    expect(location.href).toBe(`${origin}/page`);
    expect(await getSession(endpoint)).toBeNull();
  });

  it("signs out and navigates to the current page by default", async () => {
    await signInWithPassword();
    location.href = `${origin}/account`;
    expect(await signOut(endpoint)).toBeUndefined();
    expect(location.href).toBe(`${origin}/account`);
    expect(await getSession(endpoint)).toBeNull();
  });
});

describe("a server answering what Tessera never sends", () => {
  let hostile: Server;
  let hostileEndpoint: AuthEndpoint;
  const answers: Record<string, unknown> = {
    "GET /auth/providers": { odd: { id: "odd", type: "credentials" } },
    "GET /auth/csrf": { csrfToken: "token" },
    "POST /auth/callback/odd": { url: "http://[not a url" },
    "GET /auth/webauthn-options/odd": { action: "register", options: { challenge: "AAAA" } },
  };

  beforeAll(async () => {
    hostile = createServer((req, res) => {
      const answer = answers[`${req.method} ${(req.url ?? "").split("?")[0]}`];
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify(answer ?? "not what was asked"));
    });
    await new Promise<void>((resolve) => hostile.listen(0, "127.0.0.1", resolve));
    hostileEndpoint = {
      baseUrl: `http://127.0.0.1:${(hostile.address() as AddressInfo).port}`,
      basePath: "/auth",
    };
  });

  afterAll(async () => {
    hostile?.closeAllConnections();
    await new Promise((resolve) => hostile?.close(resolve));
  });

  it("reports a sign-in whose redirect URL cannot be read as not ok", async () => {
    expect(await signIn(hostileEndpoint, "odd", { redirect: false })).toEqual({
      error: undefined,
      code: undefined,
      status: 200,
      ok: false,
      url: "http://[not a url",
    });
  });

  it("ends a passkey ceremony with null when the options are malformed, before any prompt", async () => {
    // No navigator.credentials in Node: reaching it would throw instead of answering null.
    expect(await webauthnCeremony(hostileEndpoint, "odd", {})).toBeNull();
    expect(console.error).toHaveBeenCalledWith(
      "[tessera] passkey options unreadable:",
      expect.any(TypeError),
    );
  });
});

describe("clientAt", () => {
  it("aims signIn and signOut at its base path or the one a call names, which is never posted", async () => {
    const client = clientAt("/elsewhere", "prefix");
    const result = await client.signIn("credentials", {
      email: ADA.email,
      password: PASSWORD,
      redirect: false,
      prefix: "/auth",
    });
    expect(result?.ok).toBe(true);
    const [post] = posts();
    expect(post?.path).toBe("/auth/callback/credentials");
    expect(post?.body?.has("prefix")).toBe(false);
    expect(await getSession(endpoint)).toMatchObject({ user: { email: ADA.email } });

    // A trailing slash on the default is the same path.
    await clientAt("/auth/").signOut({ redirect: false });
    expect(posts().at(-1)?.path).toBe("/auth/signout");
    expect(await getSession(endpoint)).toBeNull();
  });
});
