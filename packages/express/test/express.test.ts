/**
 * @tessera/express in a real Express 5 app on 127.0.0.1, driven over HTTP like a browser:
 * CSRF + credentials sign-in, server-rendered session, protected route, sign-out, proxies.
 */
import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ExpressAuth, getSession, toWebRequest } from "../src/index.js";
import { createApp, createAuthConfig } from "./app.js";
import { HttpClient } from "./http-client.js";

const servers: http.Server[] = [];

/** Starts `app` on a random port of 127.0.0.1 and returns its origin. */
async function listen(app: express.Express): Promise<string> {
  const server = app.listen(0, "127.0.0.1");
  servers.push(server);
  await once(server, "listening");
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
});

/** A raw HTTP/1.1 request (fetch will not send a hand-written Host header). */
function rawRequest(
  origin: string,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const url = new URL(origin);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: options.method ?? "GET",
        path: options.path,
        headers: options.headers,
      },
      (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          body += chunk;
        });
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
        );
      },
    );
    request.on("error", reject);
    request.end(options.body);
  });
}

/** Signs `client` in as Ada through the real CSRF + credentials POST flow. */
async function signIn(client: HttpClient, callbackUrl = "/", headers: Record<string, string> = {}) {
  const csrfToken = await client.csrfToken("/auth", headers);
  return client.postForm(
    "/auth/callback/credentials",
    { csrfToken, username: "ada", password: "lovelace", callbackUrl },
    headers,
  );
}

async function homeStatus(client: HttpClient, headers: Record<string, string> = {}) {
  const html = await (await client.get("/", headers)).text();
  return /<p id="status">(.*?)<\/p>/.exec(html)?.[1];
}

describe("an Express app with ExpressAuth", () => {
  let origin: string;
  beforeAll(async () => {
    origin = await listen(createApp());
  });

  it("shows a signed-out home page and redirects /protected to the sign-in page", async () => {
    const client = new HttpClient(origin);
    expect(await homeStatus(client)).toBe("Not signed in");
    const response = await client.get("/protected");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/auth/signin?callbackUrl=%2Fprotected");
    const signinPage = await client.get("/auth/signin?callbackUrl=%2Fprotected");
    expect(signinPage.status).toBe(200);
    expect(await signinPage.text()).toContain(`action="${origin}/auth/callback/credentials"`);
  });

  it("signs in with credentials, renders the session server-side and opens /protected", async () => {
    const client = new HttpClient(origin);
    const response = await signIn(client, "/protected");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${origin}/protected`);
    const session = client.lastSetCookies.find((c) => c.name === "authjs.session-token");
    expect(session?.attributes).toMatchObject({ httponly: "", path: "/", samesite: "Lax" });
    expect(session?.attributes.secure).toBeUndefined();

    expect(await homeStatus(client)).toBe("Signed in as Ada Lovelace (ada@example.com)");
    const page = await client.get("/protected");
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Secret for ada@example.com");
    const json = await (await client.get("/auth/session")).json();
    expect(json).toMatchObject({ user: { name: "Ada Lovelace", email: "ada@example.com" } });
  });

  it("signs out through the CSRF-protected POST and forgets the session", async () => {
    const client = new HttpClient(origin);
    await signIn(client);
    expect(client.jar.has("authjs.session-token")).toBe(true);
    const page = await client.get("/auth/signout");
    expect(page.status).toBe(200);
    const csrfToken = /name="csrfToken" value="([0-9a-f]+)"/.exec(await page.text())?.[1];
    expect(csrfToken).toMatch(/^[0-9a-f]{64}$/);
    const response = await client.postForm("/auth/signout", {
      csrfToken: csrfToken!,
      callbackUrl: "/",
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${origin}/`);
    expect(client.jar.has("authjs.session-token")).toBe(false);
    expect(await homeStatus(client)).toBe("Not signed in");
    expect((await client.get("/protected")).status).toBe(302);
  });

  it("refuses a sign-out posted without the CSRF token (logout CSRF)", async () => {
    const client = new HttpClient(origin);
    await signIn(client);
    const response = await client.postForm("/auth/signout", { callbackUrl: "/" });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${origin}/auth/signin?error=MissingCSRF`);
    expect(await homeStatus(client)).toBe("Signed in as Ada Lovelace (ada@example.com)");
  });

  it("never redirects a sign-in to a foreign site (open redirect)", async () => {
    const client = new HttpClient(origin);
    const response = await signIn(client, "https://evil.example/phish");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(origin);
  });

  it("sends a wrong password back to the sign-in page with CredentialsSignin", async () => {
    const client = new HttpClient(origin);
    const csrfToken = await client.csrfToken();
    const response = await client.postForm("/auth/callback/credentials", {
      csrfToken,
      username: "ada",
      password: "wrong",
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(
      `${origin}/auth/signin?error=CredentialsSignin&code=credentials`,
    );
    expect(client.jar.has("authjs.session-token")).toBe(false);
  });

  it("refuses a credentials post without the CSRF cookie (login CSRF)", async () => {
    const client = new HttpClient(origin);
    const response = await client.postForm("/auth/callback/credentials", {
      csrfToken: "f".repeat(64),
      username: "ada",
      password: "lovelace",
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${origin}/auth/signin?error=MissingCSRF`);
    expect(client.jar.has("authjs.session-token")).toBe(false);
  });

  it("answers X-Auth-Return-Redirect with {url} instead of a redirect", async () => {
    const client = new HttpClient(origin);
    const csrfToken = await client.csrfToken();
    const response = await client.postForm(
      "/auth/callback/credentials",
      { csrfToken, username: "ada", password: "lovelace", callbackUrl: "/protected" },
      { "X-Auth-Return-Redirect": "1" },
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ url: `${origin}/protected` });
    expect(client.jar.has("authjs.session-token")).toBe(true);

    // The token rotates at every sign-in: the next post needs the new one.
    const failed = await client.postForm(
      "/auth/callback/credentials",
      { csrfToken: await client.csrfToken(), username: "ada", password: "nope" },
      { "X-Auth-Return-Redirect": "1" },
    );
    expect(await failed.json()).toEqual({
      url: `${origin}/auth/signin?error=CredentialsSignin&code=credentials`,
    });
  });

  it("serves the session with no-store caching headers and no ETag", async () => {
    const client = new HttpClient(origin);
    await signIn(client);
    const response = await client.get("/auth/session");
    expect(response.headers.get("cache-control")).toBe("private, no-cache, no-store");
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(response.headers.get("etag")).toBeNull();
  });

  it("answers an absolute-form request target as the core does, with the Host header's origin", async () => {
    for (const app of [createApp(), createApp(createAuthConfig(), { mountAtRoot: true })]) {
      const appOrigin = await listen(app);
      const response = await rawRequest(appOrigin, {
        path: "http://evil.test/auth/providers",
        headers: { host: new URL(appOrigin).host },
      });
      expect(response.status).toBe(200);
      expect(response.body).toContain(`${appOrigin}/auth/callback/credentials`);
      expect(response.body).not.toContain("evil.test");
    }
  });

  it("answers malformed requests with 400, never a 500", async () => {
    const unknown = await rawRequest(origin, { path: "/auth/nope" });
    expect(unknown.status).toBe(400);
    const badHost = await rawRequest(origin, {
      path: "/auth/session",
      headers: { host: "evil.example/auth/x?" },
    });
    expect(badHost.status).toBe(400);
    expect(JSON.parse(badHost.body)).toBe("Bad request.");
    const brokenJson = await rawRequest(origin, {
      method: "POST",
      path: "/auth/session",
      headers: { "content-type": "application/json" },
      body: "{not json",
    });
    expect(brokenJson.status).toBe(400);
  });

  it("refuses bodies over 1 MiB with 413 before buffering them (memory exhaustion)", async () => {
    const big = await rawRequest(origin, {
      method: "POST",
      path: "/auth/callback/credentials",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `username=${"a".repeat(1024 * 1024 + 10)}`,
    });
    expect(big.status).toBe(413);
    expect(JSON.parse(big.body)).toBe("Payload too large.");
  });
});

describe("ExpressAuth under hostile or unusual input", () => {
  const STACK = /\n\s+at .+:\d+:\d+/;
  let origin: string;
  beforeAll(async () => {
    origin = await listen(createApp(createAuthConfig({ logger: { error: () => {} } })));
  });

  it("answers a lone-surrogate callbackUrl without a stack trace (stack-trace disclosure)", async () => {
    const response = await rawRequest(origin, {
      method: "POST",
      path: "/auth/signin/credentials",
      headers: { "content-type": "application/json" },
      // JSON.parse makes `\ud800` a lone UTF-16 surrogate, which encodeURIComponent refuses.
      body: '{"callbackUrl":"/\\ud800"}',
    });
    expect(response.body).not.toMatch(STACK);
    expect(response.status).toBe(302);
    const cookies = response.headers["set-cookie"] ?? [];
    expect(cookies.find((c) => c.startsWith("authjs.callback-url="))).toContain(
      encodeURIComponent(`${origin}/%EF%BF%BD`),
    );
    expect((await rawRequest(origin, { path: "/auth/session" })).status).toBe(200);
  });

  it("signs in and lands on the percent-encoded URL for callbackUrl=/привет", async () => {
    const client = new HttpClient(origin);
    const response = await signIn(client, "/привет");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(new URL("/привет", origin).href);
    expect(await homeStatus(client)).toBe("Signed in as Ada Lovelace (ada@example.com)");
  });

  it("signs in and lands on the percent-encoded URL for a callback-url cookie /☃", async () => {
    const client = new HttpClient(origin);
    client.jar.set("authjs.callback-url", encodeURIComponent("/☃"));
    const csrfToken = await client.csrfToken();
    const response = await client.postForm("/auth/callback/credentials", {
      csrfToken,
      username: "ada",
      password: "lovelace",
    });
    expect(response.headers.get("location")).toBe(new URL("/☃", origin).href);
  });

  it("answers 500 {message}, never a stack, when the core's answer cannot be written", async () => {
    const errors: Error[] = [];
    const config = createAuthConfig({
      logger: { error: (error: Error) => void errors.push(error) },
      // A session callback returning what JSON cannot carry: a server-side mistake.
      callbacks: { session: ({ session }) => ({ ...session, visits: 1n }) },
    });
    const app = createApp(config);
    const bigintOrigin = await listen(app);
    const client = new HttpClient(bigintOrigin);
    await signIn(client);
    const response = await rawRequest(bigintOrigin, {
      path: "/auth/session",
      headers: { cookie: [...client.jar].map(([n, v]) => `${n}=${v}`).join("; ") },
    });
    expect(response.status).toBe(500);
    expect(response.body).not.toMatch(STACK);
    expect(JSON.parse(response.body)).toEqual({
      message: expect.stringContaining("server configuration"),
    });
    expect(response.headers["set-cookie"]).toBeUndefined();
    expect(errors.some((e) => e.message.includes("BigInt"))).toBe(true);
  });
});

describe("ExpressAuth with Express body parsers before it", () => {
  it("uses the parsed form and JSON bodies", async () => {
    const origin = await listen(createApp(createAuthConfig(), { bodyParsers: true }));
    const client = new HttpClient(origin);
    expect((await signIn(client, "/protected")).headers.get("location")).toBe(
      `${origin}/protected`,
    );
    expect(await homeStatus(client)).toBe("Signed in as Ada Lovelace (ada@example.com)");

    const jsonClient = new HttpClient(origin);
    const csrfToken = await jsonClient.csrfToken();
    const response = await jsonClient.fetch("/auth/callback/credentials", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ csrfToken, username: "ada", password: "lovelace" }),
    });
    expect(response.status).toBe(302);
    expect(jsonClient.jar.has("authjs.session-token")).toBe(true);
  });
});

describe("ExpressAuth mounted at the root", () => {
  it("handles the base path and passes every other path on", async () => {
    const origin = await listen(createApp(createAuthConfig(), { mountAtRoot: true }));
    const client = new HttpClient(origin);
    await signIn(client);
    expect(await homeStatus(client)).toBe("Signed in as Ada Lovelace (ada@example.com)");
    expect((await client.get("/missing")).status).toBe(404);
  });

  it("takes the base path from the mount path, as @auth/express does: app.use('/api/auth', …) needs no basePath", async () => {
    const authConfig = createAuthConfig();
    const app = express();
    app.use("/api/auth", ExpressAuth(authConfig));
    app.get("/me", async (req, res) => {
      res.json(await getSession(req, authConfig));
    });
    const origin = await listen(app);
    const client = new HttpClient(origin);
    const providers = (await (await client.get("/api/auth/providers")).json()) as Record<
      string,
      { signinUrl: string; callbackUrl: string }
    >;
    expect(providers.credentials).toMatchObject({
      signinUrl: `${origin}/api/auth/signin/credentials`,
      callbackUrl: `${origin}/api/auth/callback/credentials`,
    });
    const { csrfToken } = (await (await client.get("/api/auth/csrf")).json()) as {
      csrfToken: string;
    };
    await client.postForm("/api/auth/callback/credentials", {
      csrfToken,
      username: "ada",
      password: "lovelace",
    });
    expect(await (await client.get("/me")).json()).toMatchObject({
      user: { email: "ada@example.com" },
    });
  });

  it("lets the mount path win over a different basePath, as @auth/express does", async () => {
    const app = express();
    app.use("/api/auth/*splat", ExpressAuth(createAuthConfig({ basePath: "/auth" })));
    const origin = await listen(app);
    const response = await fetch(`${origin}/api/auth/csrf`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ csrfToken: expect.any(String) });
  });
});

describe("ExpressAuth behind a reverse proxy", () => {
  const forwarded = { "X-Forwarded-Proto": "https", "X-Forwarded-Host": "app.example.com" };

  it("with trust proxy: secure cookie names and redirects to the public host", async () => {
    const origin = await listen(createApp(createAuthConfig(), { trustProxy: true }));
    const client = new HttpClient(origin);
    await client.csrfToken("/auth", forwarded);
    const csrfCookie = client.lastSetCookies[0];
    expect(csrfCookie?.name).toBe("__Host-authjs.csrf-token");
    expect(csrfCookie?.attributes.secure).toBe("");

    const response = await signIn(client, "/protected", forwarded);
    expect(response.headers.get("location")).toBe("https://app.example.com/protected");
    expect(client.jar.has("__Secure-authjs.session-token")).toBe(true);
    expect(client.jar.has("authjs.session-token")).toBe(false);
    expect(await homeStatus(client, forwarded)).toBe("Signed in as Ada Lovelace (ada@example.com)");
  });

  it("without trust proxy: forwarded headers from clients are ignored (host spoofing)", async () => {
    const origin = await listen(createApp());
    const client = new HttpClient(origin);
    const response = await signIn(client, "/protected", forwarded);
    expect(response.headers.get("location")).toBe(`${origin}/protected`);
    expect(client.jar.has("authjs.session-token")).toBe(true);
    expect(client.jar.has("__Secure-authjs.session-token")).toBe(false);
  });
});

describe("getSession", () => {
  it("adds the re-issued session cookie to the response (rolling sessions)", async () => {
    const config = createAuthConfig({ session: { updateAge: 0 } });
    const origin = await listen(createApp(config));
    const client = new HttpClient(origin);
    await signIn(client);
    const before = client.jar.get("authjs.session-token");
    await new Promise((resolve) => setTimeout(resolve, 1100)); // a new `iat` second
    expect(await homeStatus(client)).toBe("Signed in as Ada Lovelace (ada@example.com)");
    const reissued = client.lastSetCookies.find((c) => c.name === "authjs.session-token");
    expect(reissued?.value).toBeTruthy();
    expect(reissued?.value).not.toBe(before);
  });

  it("throws an AuthError naming the log when the config is invalid", async () => {
    const config = createAuthConfig({ secret: undefined, trustHost: false });
    const app = express();
    let caught: unknown;
    app.get("/", async (req, res) => {
      caught = await getSession(req, config).catch((error: unknown) => error);
      res.end();
    });
    const origin = await listen(app);
    await fetch(origin);
    expect((caught as Error).name).toBe("AuthError");
    expect((caught as Error).message).toContain("server log names the cause");
  });
});

describe("ExpressAuth checks the config when it is created", () => {
  afterEach(() => vi.unstubAllEnvs());

  it("throws MissingSecret at start-up, naming AUTH_SECRET, instead of failing the first request", () => {
    vi.stubEnv("AUTH_SECRET", undefined);
    expect(() => ExpressAuth(createAuthConfig({ secret: undefined }))).toThrow(
      expect.objectContaining({
        name: "MissingSecret",
        message: expect.stringContaining("AUTH_SECRET"),
      }),
    );
  });

  it("takes AUTH_SECRET from process.env when the middleware is created", async () => {
    vi.stubEnv("AUTH_SECRET", "express-env-secret-of-at-least-32-characters");
    const app = express();
    app.use("/auth", ExpressAuth(createAuthConfig({ secret: undefined })));
    const response = await fetch(`${await listen(app)}/auth/session`);
    expect(response.status).toBe(200);
  });

  it("throws UntrustedHost in production without AUTH_URL, naming AUTH_URL first", () => {
    for (const name of ["AUTH_URL", "NEXTAUTH_URL", "AUTH_TRUST_HOST", "VERCEL"])
      vi.stubEnv(name, undefined);
    vi.stubEnv("NODE_ENV", "production");
    expect(() => ExpressAuth(createAuthConfig({ trustHost: undefined }))).toThrow(
      /^Host must be trusted\. Set AUTH_URL .*AUTH_TRUST_HOST=true/,
    );
  });
});

describe("toWebRequest", () => {
  it("rebuilds URL, method, headers and body of an Express request", async () => {
    const app = express();
    let seen: { url: string; method: string; header: string | null; body: string } | undefined;
    app.post("/hook", async (req, res) => {
      const request = await toWebRequest(req);
      seen = {
        url: request.url,
        method: request.method,
        header: request.headers.get("x-test"),
        body: await request.text(),
      };
      res.end();
    });
    const origin = await listen(app);
    await fetch(`${origin}/hook?a=1`, { method: "POST", headers: { "x-test": "yes" }, body: "hi" });
    expect(seen).toEqual({ url: `${origin}/hook?a=1`, method: "POST", header: "yes", body: "hi" });
  });
});

describe("the package root", () => {
  it("re-exports AuthError, CredentialsSignin and customFetch as @auth/express does, the core's own", async () => {
    const root = await import("@tessera/express");
    const core = await import("@tessera/core");
    const errors = await import("@tessera/core/errors");
    expect(root.AuthError).toBe(errors.AuthError);
    expect(root.CredentialsSignin).toBe(errors.CredentialsSignin);
    expect(root.customFetch).toBe(core.customFetch);
    expect(new root.CredentialsSignin()).toBeInstanceOf(root.AuthError);
  });
});
