/**
 * The runtime job: one scenario on every runtime Auth.js runs on, each from its npm package —
 * Bun (`bun`), Deno (`deno`), Cloudflare's workerd through Miniflare with and without
 * `nodejs_compat`, and Vercel's Edge Runtime (`edge-runtime`). One bundle, built the way
 * wrangler and Next.js's edge compiler build (no `node:` module resolves), serves them all; its
 * configuration comes from each platform's environment through `setEnvDefaults`. The OpenID
 * Provider is the real `oidc-provider` on 127.0.0.1, which the runtime itself calls for the
 * token exchange; the session cookies are checked against `@auth/core`'s on Node both ways.
 */
import { randomBytes } from "node:crypto";
import { decode, encode } from "@auth/core/jwt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type RunningOidcProvider,
  startOidcProvider,
} from "../packages/core/test/fixtures/oidc-provider.js";
import { freePort } from "../packages/core/test/fixtures/ports.js";
import { HttpClient } from "../packages/express/test/http-client.js";
import { buildWorkerBundle, type WorkerBundle } from "./bundle.js";
import { type Env, nodeHandlerHosts, type RunningHost, runtimeHosts } from "./hosts.js";

const SECRET = randomBytes(32).toString("hex");
const PASSWORD = randomBytes(12).toString("base64url");
const SESSION_COOKIE = "authjs.session-token";
const CLIENT = { id: "runtimes", secret: randomBytes(16).toString("hex") };

let bundle: WorkerBundle;
let op: RunningOidcProvider;
const ports = new Map<string, number>();
/** Milliseconds each runtime took from start to its last test, for the job's time budget. */
const timings: string[] = [];

beforeAll(async () => {
  const started = performance.now();
  bundle = await buildWorkerBundle(undefined, { nodeHost: true });
  timings.push(`bundle ${Math.round(performance.now() - started)} ms, ${bundle.bytes} bytes`);
  for (const host of runtimeHosts) ports.set(host.name, await freePort());
  op = await startOidcProvider({
    clients: [
      {
        client_id: CLIENT.id,
        client_secret: CLIENT.secret,
        redirect_uris: [...ports.values()].map(
          (port) => `http://127.0.0.1:${port}/auth/callback/op`,
        ),
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    accounts: [
      { sub: "grace", email: "grace@example.com", email_verified: true, name: "Grace Hopper" },
    ],
  });
});

afterAll(async () => {
  await op?.close();
  bundle?.remove();
  console.info(`runtime job: ${timings.join("; ")}`);
});

/** The platform environment each runtime hands to the scenario's `setEnvDefaults`. */
function platformEnv(): Env {
  return {
    AUTH_SECRET: SECRET,
    AUTH_TRUST_HOST: "true",
    AUTH_OP_ISSUER: op.issuer,
    AUTH_OP_ID: CLIENT.id,
    AUTH_OP_SECRET: CLIENT.secret,
    SCENARIO_PASSWORD: PASSWORD,
  };
}

async function signInWithCredentials(client: HttpClient, password = PASSWORD) {
  const csrfToken = await client.csrfToken();
  return client.postForm("/auth/callback/credentials", { csrfToken, username: "ada", password });
}

async function session(client: HttpClient): Promise<{ user?: Record<string, unknown> } | null> {
  const response = await client.get("/auth/session");
  expect(response.status).toBe(200);
  return (await response.json()) as { user?: Record<string, unknown> } | null;
}

describe.each(runtimeHosts)("on $name", (host) => {
  let running: RunningHost;
  let started: number;

  beforeAll(async () => {
    started = performance.now();
    running = await host.start(bundle, ports.get(host.name) as number, platformEnv());
  });

  afterAll(async () => {
    await running?.stop();
    timings.push(`${host.name} ${Math.round(performance.now() - started)} ms`);
  });

  it(`hashes and seals with ${host.nodeCrypto ? "node:crypto" : "WebCrypto"}, as the runtime offers`, async () => {
    const response = await new HttpClient(running.url).get("/runtime");
    expect(await response.json()).toEqual({ nodeCrypto: host.nodeCrypto });
  });

  it("signs in with credentials: CSRF, sign-in, session read, sign-in page, sign-out", async () => {
    const client = new HttpClient(running.url);
    const signedIn = await signInWithCredentials(client);
    expect(signedIn.status).toBe(302);
    expect(client.jar.has(SESSION_COOKIE)).toBe(true);
    expect((await session(client))?.user).toMatchObject({
      name: "Ada Lovelace",
      email: "ada@example.com",
    });

    const page = await client.get("/auth/signin");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    const html = await page.text();
    expect(html).toContain("Local OP");
    expect(html).toContain('name="csrfToken"');

    const csrfToken = await client.csrfToken();
    const signedOut = await client.postForm("/auth/signout", { csrfToken });
    expect(signedOut.status).toBe(302);
    expect(client.jar.has(SESSION_COOKIE)).toBe(false);
    expect(await session(client)).toBeNull();
  });

  it("refuses a sign-in whose CSRF token does not match its cookie", async () => {
    const client = new HttpClient(running.url);
    await client.csrfToken();
    const forged = await client.postForm("/auth/callback/credentials", {
      csrfToken: "0".repeat(64),
      username: "ada",
      password: PASSWORD,
    });
    expect(forged.status).toBe(302);
    expect(forged.headers.get("location")).toContain("error=MissingCSRF");
    expect(client.jar.has(SESSION_COOKIE)).toBe(false);
  });

  it("signs in with the local OpenID Provider, whose token endpoint the runtime itself calls", async () => {
    const client = new HttpClient(running.url);
    const csrfToken = await client.csrfToken();
    const start = await client.postForm("/auth/signin/op", { csrfToken });
    expect(start.status).toBe(302);
    const authorization = new URL(start.headers.get("location") as string);
    expect(authorization.origin).toBe(op.issuer);
    expect(authorization.searchParams.get("code_challenge_method")).toBe("S256");

    const answer = await op.authorize(authorization.href);
    expect(answer.url.startsWith(`${running.url}/auth/callback/op?`)).toBe(true);
    const callback = await client.get(answer.url);
    expect(callback.status).toBe(302);
    expect(callback.headers.get("location")).not.toContain("error=");
    expect((await session(client))?.user).toMatchObject({
      name: "Grace Hopper",
      email: "grace@example.com",
    });
  });

  it("reads a session cookie that @auth/core wrote on Node", async () => {
    const client = new HttpClient(running.url);
    const token = await encode({
      token: { sub: "linus", name: "Linus", email: "linus@example.com" },
      secret: SECRET,
      salt: SESSION_COOKIE,
    });
    client.jar.set(SESSION_COOKIE, token);
    expect((await session(client))?.user).toMatchObject({
      name: "Linus",
      email: "linus@example.com",
    });
  });

  it("writes a session cookie that @auth/core reads on Node", async () => {
    const client = new HttpClient(running.url);
    await signInWithCredentials(client);
    const token = client.jar.get(SESSION_COOKIE) as string;
    const claims = await decode({ token, secret: SECRET, salt: SESSION_COOKIE });
    expect(claims).toMatchObject({ sub: "ada", name: "Ada Lovelace", email: "ada@example.com" });
  });

  it("takes its secret, provider credentials and password from the platform's environment", async () => {
    const providers = (await (
      await new HttpClient(running.url).get("/auth/providers")
    ).json()) as Record<string, { callbackUrl: string }>;
    expect(providers.op?.callbackUrl).toBe(`${running.url}/auth/callback/op`);

    const wrongPassword = await signInWithCredentials(new HttpClient(running.url), "not-it");
    expect(wrongPassword.headers.get("location")).toContain("error=CredentialsSignin");

    // A cookie sealed with any other secret than AUTH_SECRET is no session.
    const stranger = new HttpClient(running.url);
    stranger.jar.set(
      SESSION_COOKIE,
      await encode({
        token: { sub: "mallory" },
        secret: randomBytes(32).toString("hex"),
        salt: SESSION_COOKIE,
      }),
    );
    expect(await session(stranger)).toBeNull();
  });
});

describe.each(nodeHandlerHosts)("toNodeHandler on $name", (host) => {
  let running: RunningHost;
  let started: number;

  beforeAll(async () => {
    started = performance.now();
    running = await host.start(bundle, await freePort(), platformEnv());
  });

  afterAll(async () => {
    await running?.stop();
    timings.push(`${host.name} ${Math.round(performance.now() - started)} ms`);
  });

  it("serves from the runtime's own node:http server, with node:crypto", async () => {
    const response = await new HttpClient(running.url).get("/runtime");
    expect(await response.json()).toEqual({ nodeCrypto: true, nodeHttp: true });
  });

  it("signs in with credentials: CSRF, sign-in, session read, sign-out; @auth/core reads the cookie", async () => {
    const client = new HttpClient(running.url);
    const signedIn = await signInWithCredentials(client);
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.get("location")).not.toContain("error=");
    expect((await session(client))?.user).toMatchObject({
      name: "Ada Lovelace",
      email: "ada@example.com",
    });
    const claims = await decode({
      token: client.jar.get(SESSION_COOKIE) as string,
      secret: SECRET,
      salt: SESSION_COOKIE,
    });
    expect(claims).toMatchObject({ sub: "ada", email: "ada@example.com" });

    const signedOut = await client.postForm("/auth/signout", {
      csrfToken: await client.csrfToken(),
    });
    expect(signedOut.status).toBe(302);
    expect(client.jar.has(SESSION_COOKIE)).toBe(false);
    expect(await session(client)).toBeNull();
  });

  it("refuses a credentials post without a CSRF token, and a malformed body, without a 500", async () => {
    const client = new HttpClient(running.url);
    await client.csrfToken();
    const forged = await client.postForm("/auth/callback/credentials", {
      username: "ada",
      password: PASSWORD,
    });
    expect(forged.headers.get("location")).toContain("error=MissingCSRF");
    const garbage = await client.fetch("/auth/callback/credentials", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "%%%&&&=%E0%A4%A",
    });
    expect(garbage.status).toBeLessThan(500);
    expect(client.jar.has(SESSION_COOKIE)).toBe(false);
  });
});
