/**
 * SolidAuth's handlers in the legacy `solid-start` 0.2 event shape, over HTTP, next to the
 * original `@auth/solid-start` (devDependency) where Tessera behaves differently on purpose. The
 * HTTP server is h3 (the server library under SolidStart) on 127.0.0.1; each request reaches the
 * handler as solid-start 0.2's `apiRoutes` middleware hands it over: a frozen `APIEvent` with
 * `request`, `clientAddress`, `locals`, `params`, `env`, `$type` and `fetch`. The current
 * `@solidjs/start` 1.x shape runs in the built example app (app.test.ts).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import AuthjsCredentials from "@auth/core/providers/credentials";
import {
  SolidAuth as OriginalSolidAuth,
  type SolidAuthConfig as OriginalSolidAuthConfig,
  getSession as originalGetSession,
} from "@auth/solid-start";
import Credentials from "@tessera/core/providers/credentials";
import { createApp, eventHandler, getRequestIP, toNodeListener, toWebRequest } from "h3";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { HttpClient } from "../../express/test/http-client.js";
import { AuthError, getSession, SolidAuth, type SolidAuthConfig } from "../src/index.js";

const SECRET = "solid-start-legacy-secret-of-32+-chars";
const USER = { id: "1", name: "Ada Lovelace", email: "ada@example.com" };
const PASSWORD = "lovelace";

function config(overrides: Partial<SolidAuthConfig> = {}): SolidAuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    providers: [
      Credentials({
        credentials: { email: {}, password: {} },
        authorize: ({ email, password }) =>
          email === USER.email && password === PASSWORD ? USER : null,
      }),
    ],
    ...overrides,
  };
}

/** What a catch-all route module exports, Tessera's or the original's. */
interface RouteModule {
  GET(event: unknown): Promise<Response | undefined>;
  POST(event: unknown): Promise<Response | undefined>;
}

/** The `$type` brand solid-start 0.2 puts on its events (`FETCH_EVENT`). */
const FETCH_EVENT = "$FETCH";

interface Mounted {
  origin: string;
  close(): Promise<void>;
}

/**
 * A server answering `<prefix>/*` with `route` in solid-start 0.2's event shape, and `/me` with
 * `readSession(request)` as a page's server data function would.
 */
async function mount(
  route: RouteModule,
  prefix: string,
  readSession: (request: Request) => Promise<unknown>,
): Promise<Mounted> {
  const app = createApp();
  app.use(
    eventHandler(async (h3Event) => {
      const request = toWebRequest(h3Event);
      const { pathname } = new URL(request.url);
      if (pathname === "/me") return Response.json(await readSession(request));
      if (!pathname.startsWith(`${prefix}/`)) return new Response("not found", { status: 404 });
      const event = Object.freeze({
        request,
        clientAddress: getRequestIP(h3Event) ?? "",
        locals: {},
        params: { solidauth: pathname.slice(prefix.length + 1) },
        env: {},
        $type: FETCH_EVENT,
        fetch: (input: string, init?: RequestInit) => fetch(new URL(input, request.url), init),
      });
      const handler = request.method === "POST" ? route.POST : route.GET;
      // solid-start 0.2 lets a route handler's `undefined` fall through to the pages.
      return (await handler(event)) ?? new Response("no answer from the route", { status: 404 });
    }),
  );
  const server: Server = createServer(toNodeListener(app));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const AUTH = "/api/auth";

/**
 * The same config for the original, with the providers of its own @auth/core and a logger that
 * keeps the stack traces it logs for each refused request out of the test output.
 */
function originalConfig(overrides: Partial<OriginalSolidAuthConfig> = {}): OriginalSolidAuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    providers: [
      AuthjsCredentials({
        credentials: { email: {}, password: {} },
        authorize: ({ email, password }) =>
          email === USER.email && password === PASSWORD ? USER : null,
      }),
    ],
    logger: { error: () => {} },
    ...overrides,
  };
}

describe("SolidAuth in a solid-start 0.2 app (legacy event shape)", () => {
  const options = config();
  let app: Mounted;
  beforeAll(async () => {
    app = await mount(SolidAuth(options), AUTH, (request) => getSession(request, options));
  });
  afterAll(() => app.close());

  it("signs in with credentials at /api/auth, reads the session with getSession, signs out", async () => {
    const client = new HttpClient(app.origin);
    expect(await (await client.get("/me")).json()).toBeNull();
    const signedIn = await client.postForm(`${AUTH}/callback/credentials`, {
      csrfToken: await client.csrfToken(AUTH),
      email: USER.email,
      password: PASSWORD,
      callbackUrl: "/account",
    });
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.get("location")).toBe(`${app.origin}/account`);
    expect(await (await client.get("/me")).json()).toMatchObject({
      user: { name: USER.name, email: USER.email },
    });
    expect(await (await client.get(`${AUTH}/session`)).json()).toMatchObject({
      user: { email: USER.email },
    });

    const signedOut = await client.postForm(`${AUTH}/signout`, {
      csrfToken: await client.csrfToken(AUTH),
      callbackUrl: "/",
    });
    expect(signedOut.headers.get("location")).toBe(`${app.origin}/`);
    expect(client.jar.has("authjs.session-token")).toBe(false);
    expect(await (await client.get("/me")).json()).toBeNull();
  });

  it("refuses a post without the CSRF token and a wrong password (CredentialsSignin)", async () => {
    const client = new HttpClient(app.origin);
    const forged = await client.postForm(`${AUTH}/callback/credentials`, {
      email: USER.email,
      password: PASSWORD,
    });
    expect(forged.headers.get("location")).toBe(`${app.origin}${AUTH}/signin?error=MissingCSRF`);
    const wrong = await client.postForm(`${AUTH}/callback/credentials`, {
      csrfToken: await client.csrfToken(AUTH),
      email: USER.email,
      password: "wrong",
    });
    expect(wrong.headers.get("location")).toBe(
      `${app.origin}${AUTH}/signin?error=CredentialsSignin&code=credentials`,
    );
    expect(client.jar.has("authjs.session-token")).toBe(false);
  });

  it("writes the session cookie @auth/solid-start reads, and the other way round", async () => {
    const client = new HttpClient(app.origin);
    await client.postForm(`${AUTH}/callback/credentials`, {
      csrfToken: await client.csrfToken(AUTH),
      email: USER.email,
      password: PASSWORD,
    });
    const cookie = `authjs.session-token=${client.jar.get("authjs.session-token")}`;
    // The original reads it once given the basePath it does not set itself.
    const request = new Request(`${app.origin}/me`, { headers: { cookie } });
    const read = await originalGetSession(request, originalConfig({ basePath: AUTH }));
    expect(read).toMatchObject({ user: { name: USER.name, email: USER.email } });

    const original = await mount(OriginalSolidAuth(originalConfig({ basePath: AUTH })), AUTH, () =>
      Promise.resolve(null),
    );
    try {
      const other = new HttpClient(original.origin);
      await other.postForm(`${AUTH}/callback/credentials`, {
        csrfToken: await other.csrfToken(AUTH),
        email: USER.email,
        password: PASSWORD,
      });
      const written = other.jar.get("authjs.session-token") ?? "";
      expect(written).not.toBe("");
      const fromOriginal = new Request(`${app.origin}/me`, {
        headers: { cookie: `authjs.session-token=${written}` },
      });
      expect(await getSession(fromOriginal, options)).toMatchObject({
        user: { email: USER.email },
      });
    } finally {
      await original.close();
    }
  });

  it("answers under a custom prefix, and names the fix for a request outside it", async () => {
    const custom = config({ prefix: "/custom/auth" });
    const route = SolidAuth(custom);
    const mounted = await mount(route, "/custom/auth", (request) => getSession(request, custom));
    try {
      const client = new HttpClient(mounted.origin);
      const providers = await (await client.get("/custom/auth/providers")).json();
      expect(providers.credentials.callbackUrl).toBe(
        `${mounted.origin}/custom/auth/callback/credentials`,
      );
      expect(await (await client.get("/me")).json()).toBeNull();
    } finally {
      await mounted.close();
    }
    // The route file lives at /api/auth, the config says /custom/auth: a clear 404, no guess.
    const response = await route.GET({ request: new Request("http://127.0.0.1/api/auth/session") });
    expect(response.status).toBe(404);
    expect(await response.text()).toContain("Set `prefix` in the SolidAuth config");
    const original = OriginalSolidAuth(originalConfig({ prefix: "/custom/auth" }));
    expect(
      await original.POST({ request: new Request("http://127.0.0.1/api/auth/session") }),
    ).toBeUndefined();
  });
});

describe("a configuration without a secret", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("answers the route with a 500 that shows no stack, and throws an AuthError from getSession", async () => {
    vi.stubEnv("AUTH_SECRET", undefined);
    const { secret: _, ...withoutSecret } = config();
    const request = new Request("http://127.0.0.1:3000/api/auth/session");
    const response = await SolidAuth(withoutSecret).GET({ request });
    expect(response.status).toBe(500);
    expect(await response.text()).not.toMatch(/\bat .*\.(m?js|ts):\d+/);
    const reading = getSession(request, { ...withoutSecret });
    await expect(reading).rejects.toBeInstanceOf(AuthError);
    await expect(reading).rejects.toThrow("the session action answered 500");
  });
});

describe("where @auth/solid-start is broken, Tessera is not (the original runs beside it)", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("serves /api/auth by default: the original never tells the core, which answers 400", async () => {
    const original = await mount(OriginalSolidAuth(originalConfig()), AUTH, () =>
      Promise.resolve(null),
    );
    const ours = await mount(SolidAuth(config()), AUTH, () => Promise.resolve(null));
    try {
      for (const action of ["providers", "session", "csrf"]) {
        expect((await new HttpClient(original.origin).get(`${AUTH}/${action}`)).status).toBe(400);
        expect((await new HttpClient(ours.origin).get(`${AUTH}/${action}`)).status).toBe(200);
      }
    } finally {
      await original.close();
      await ours.close();
    }
  });

  it("getSession works without basePath: the original's throws", async () => {
    const request = new Request("http://127.0.0.1:3000/");
    await expect(originalGetSession(request, originalConfig())).rejects.toThrow();
    expect(await getSession(request, config())).toBeNull();
  });

  it("answers an unknown action with 400; the original returns nothing (SolidStart 1.x: a 500 for POST)", async () => {
    const request = new Request("http://127.0.0.1:3000/api/auth/unknown", { method: "POST" });
    expect(await OriginalSolidAuth(originalConfig()).POST({ request })).toBeUndefined();
    const response = await SolidAuth(config()).POST({ request });
    expect(response.status).toBe(400);
  });

  it("does not trust a forged Host header when NODE_ENV is unset (the original does)", async () => {
    vi.stubEnv("NODE_ENV", undefined);
    vi.stubEnv("AUTH_TRUST_HOST", undefined);
    vi.stubEnv("AUTH_URL", undefined);
    const { trustHost: _, ...untrusted } = originalConfig();
    const { trustHost: __, ...ours } = config();
    // Host header poisoning: SolidStart builds `event.request.url` from the Host header, so a
    // forged one names the origin of every link and redirect the core builds.
    const request = () => new Request("http://evil.example/api/auth/providers");
    // The original, with the basePath it needs, builds its URLs from the forged host.
    const original = OriginalSolidAuth({ ...untrusted, basePath: AUTH });
    const answered = await original.GET({ request: request() });
    expect(JSON.stringify(await answered?.json())).toContain("evil.example");
    // Tessera refuses: a configuration error (UntrustedHost) names AUTH_URL in the server log.
    const refused = await SolidAuth(ours).GET({ request: request() });
    expect(refused.status).toBe(500);
  });
});
