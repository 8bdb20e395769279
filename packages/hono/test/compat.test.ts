/**
 * @tessera/hono against the wrapper it replaces, @hono/auth-js (on @auth/core): the same Hono app
 * written twice, differing only in its imports, answers the same requests in-process
 * (`app.request`). Where Tessera deliberately differs (the default base path, the session
 * `getAuthUser` reports), the test shows the original's behaviour next to Tessera's.
 */
import { encode as authjsEncode } from "@auth/core/jwt";
import AuthjsCredentials from "@auth/core/providers/credentials";
import * as original from "@hono/auth-js";
import Credentials from "@tessera/core/providers/credentials";
import { MemoryAdapter } from "@tessera/memory";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { HttpClient } from "../../express/test/http-client.js";
import * as tessera from "../src/index.js";

const SECRET = "hono-compat-test-secret-of-at-least-32-chars";
const ADA = { id: "ada-1", name: "Ada Lovelace", email: "ada@example.com" };
const ORIGIN = "http://127.0.0.1:8787";
/** Refused sign-ins are expected here; their log lines would only bury a real failure. */
const quiet = { error: () => {}, warn: () => {}, debug: () => {} };

/** Ada's password check, for both wrappers' credentials providers. */
function authorize(fields: Partial<Record<string, unknown>>) {
  return fields.username === "ada" && fields.password === "lovelace" ? ADA : null;
}

/** The session callback both apps set: what the app adds to every session. */
function greet<S extends { user?: { name?: string | null } }>({ session }: { session: S }) {
  return { ...session, greeting: `Hello, ${session.user?.name}` };
}

/** The README's routes: the auth routes at /api/auth, a guarded API, the user read directly. */
function withRoutes(app: Hono, wrapper: typeof tessera | typeof original): Hono {
  app.use("/api/auth/*", wrapper.authHandler());
  app.use("/api/protected/*", wrapper.verifyAuth());
  app.get("/api/protected", (c) => c.json(c.get("authUser")));
  app.get("/whoami", async (c) => c.json(await wrapper.getAuthUser(c)));
  return app;
}

/** The app on @hono/auth-js; `overrides` as the original's config takes them. */
function originalApp(overrides: Partial<original.AuthConfig> = {}): Hono {
  const app = new Hono();
  app.use(
    "*",
    original.initAuthConfig(() => ({
      secret: SECRET,
      trustHost: true,
      logger: quiet,
      providers: [AuthjsCredentials({ credentials: { username: {}, password: {} }, authorize })],
      callbacks: { session: greet },
      ...overrides,
    })),
  );
  return withRoutes(app, original);
}

/** The same app with the imports changed to Tessera's. */
function tesseraApp(overrides: Partial<tessera.AuthConfig> = {}): Hono {
  const config: tessera.AuthConfig = {
    secret: SECRET,
    trustHost: true,
    logger: quiet,
    providers: [Credentials({ credentials: { username: {}, password: {} }, authorize })],
    callbacks: { session: greet },
    ...overrides,
  };
  const app = new Hono();
  app.use(
    "*",
    tessera.initAuthConfig(() => config),
  );
  return withRoutes(app, tessera);
}

/** `HttpClient`'s cookie jar, talking to an app in-process. */
function clientFor(app: Hono): HttpClient {
  const client = new HttpClient(ORIGIN);
  client.fetch = async (path, init = {}) => {
    const headers = new Headers(init.headers);
    if (client.jar.size && !headers.has("cookie"))
      headers.set("cookie", [...client.jar].map(([n, v]) => `${n}=${v}`).join("; "));
    const response = await app.request(new URL(path, ORIGIN).href, { ...init, headers });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const at = pair.indexOf("=");
      const value = pair.slice(at + 1);
      if (value === "" || /max-age=0/i.test(line)) client.jar.delete(pair.slice(0, at));
      else client.jar.set(pair.slice(0, at), value);
    }
    return response;
  };
  return client;
}

async function signIn(client: HttpClient, password = "lovelace"): Promise<Response> {
  const csrfToken = await client.csrfToken("/api/auth");
  return client.postForm("/api/auth/callback/credentials", {
    csrfToken,
    username: "ada",
    password,
    callbackUrl: "/",
  });
}

describe("@tessera/hono where @hono/auth-js is broken", () => {
  it("serves /api/auth, its README's default, without basePath or AUTH_URL; the original answers 400", async () => {
    delete process.env.AUTH_URL;
    const before = await clientFor(originalApp()).get("/api/auth/providers");
    expect(before.status).toBe(400);

    const after = await clientFor(tesseraApp()).get("/api/auth/providers");
    expect(after.status).toBe(200);
    expect(await after.json()).toMatchObject({
      credentials: { callbackUrl: `${ORIGIN}/api/auth/callback/credentials` },
    });
  });

  it("serves the path authHandler is mounted at when the config names none", async () => {
    const app = new Hono();
    app.use(
      "*",
      tessera.initAuthConfig(() => ({ secret: SECRET, trustHost: true, providers: [] })),
    );
    app.use("/auth/*", tessera.authHandler());
    const response = await app.request(`${ORIGIN}/auth/csrf`);
    expect(response.status).toBe(200);
    expect(await response.json()).toHaveProperty("csrfToken");
  });

  it("keeps serving the mount path when the session was read before the first auth request", async () => {
    const app = new Hono();
    const config = { secret: SECRET, trustHost: true, providers: [] };
    app.use(
      "*",
      tessera.initAuthConfig(() => config),
    );
    app.use("/auth/*", tessera.authHandler());
    app.get("/", async (c) => c.json(await tessera.getAuthUser(c)));
    expect(await (await app.request(`${ORIGIN}/`)).json()).toBeNull();
    expect((await app.request(`${ORIGIN}/auth/csrf`)).status).toBe(200);
    expect(await (await app.request(`${ORIGIN}/auth/providers`)).json()).toEqual({});
  });

  it("gives getAuthUser(c).session as the session callback returned it; the original gives the session before the callback", async () => {
    const before = clientFor(originalApp({ basePath: "/api/auth" }));
    await signIn(before);
    const originalUser = (await (await before.get("/whoami")).json()) as tessera.AuthUser;
    expect(originalUser.session).not.toHaveProperty("greeting");
    // What the same cookie's GET /session answers: the callback's session.
    expect(await (await before.get("/api/auth/session")).json()).toHaveProperty("greeting");

    const after = clientFor(tesseraApp());
    await signIn(after);
    const authUser = (await (await after.get("/whoami")).json()) as tessera.AuthUser;
    expect(authUser.session).toMatchObject({
      user: { name: ADA.name, email: ADA.email },
      greeting: "Hello, Ada Lovelace",
    });
    expect(authUser.session).toEqual(await (await after.get("/api/auth/session")).json());
    expect(authUser.token).toMatchObject({ sub: ADA.id, email: ADA.email });
  });
});

describe("@tessera/hono where it deliberately differs from @hono/auth-js", () => {
  it("gives getAuthUser the adapter's user with database sessions, and no token", async () => {
    const client = clientFor(
      tesseraApp({ adapter: MemoryAdapter(), session: { strategy: "database" } }),
    );
    await signIn(client);
    const authUser = (await (await client.get("/api/protected")).json()) as tessera.AuthUser;
    expect(authUser.user).toMatchObject({ email: ADA.email, name: ADA.name });
    expect(authUser.token).toBeUndefined();
    expect(authUser.session).toMatchObject({ greeting: "Hello, Ada Lovelace" });
  });

  it("sets the session cookie getAuthUser re-issued (rolling expiry) on the response; the original drops it", async () => {
    // updateAge 0: every read extends the session, as a read after updateAge does.
    const before = clientFor(originalApp({ basePath: "/api/auth", session: { updateAge: 0 } }));
    await signIn(before);
    const originalRead = await before.get("/whoami");
    expect(await originalRead.json()).not.toBeNull();
    expect(originalRead.headers.getSetCookie()).toEqual([]);

    const after = clientFor(tesseraApp({ session: { updateAge: 0 } }));
    await signIn(after);
    const read = await after.get("/whoami");
    expect(await read.json()).not.toBeNull();
    const names = read.headers.getSetCookie().map((line) => line.split("=")[0]);
    expect(names).toEqual(["authjs.session-token"]);
  });

  it("answers a missing secret with the core's configuration error and logs the fix; the original throws a plain 500", async () => {
    const saved = Object.entries(process.env).filter(([name]) => name.startsWith("AUTH_SECRET"));
    for (const [name] of saved) delete process.env[name];
    try {
      const errors: unknown[] = [];
      const logger = { error: (error: unknown) => errors.push(error) };
      const before = await clientFor(originalApp({ basePath: "/api/auth", secret: undefined })).get(
        "/api/auth/session",
      );
      expect(before.status).toBe(500);
      expect(await before.text()).toBe("Missing AUTH_SECRET");

      const after = await clientFor(tesseraApp({ secret: undefined, logger })).get(
        "/api/auth/session",
      );
      expect(after.status).toBe(500);
      expect(await after.json()).toEqual({
        message:
          "There was a problem with the server configuration. Check the server logs for more information.",
      });
      expect(String(errors[0])).toMatch(/AUTH_SECRET/);
    } finally {
      for (const [name, value] of saved) process.env[name] = value;
    }
  });
});

describe("@tessera/hono and @hono/auth-js answer alike", () => {
  const apps = {
    original: () => originalApp({ basePath: "/api/auth" }),
    tessera: () => tesseraApp(),
  };

  it.each(Object.entries(apps))(
    "%s: verifyAuth answers 401 Unauthorized when signed out, the user when signed in",
    async (_name, make) => {
      const client = clientFor(make());
      const refused = await client.get("/api/protected");
      expect(refused.status).toBe(401);
      expect(await refused.text()).toBe("Unauthorized");
      expect(await (await client.get("/whoami")).json()).toBeNull();

      await signIn(client);
      const allowed = await client.get("/api/protected");
      expect(allowed.status).toBe(200);
      expect(await allowed.json()).toMatchObject({ token: { sub: ADA.id, name: ADA.name } });
    },
  );

  it.each(Object.entries(apps))(
    "%s: a wrong password redirects to the sign-in page with error=CredentialsSignin",
    async (_name, make) => {
      const client = clientFor(make());
      const response = await signIn(client, "wrong");
      expect(response.status).toBe(302);
      const location = new URL(response.headers.get("location") ?? "");
      expect(location.pathname).toBe("/api/auth/signin");
      expect(location.searchParams.get("error")).toBe("CredentialsSignin");
      expect(location.searchParams.get("code")).toBe("credentials");
      expect(client.jar.has("authjs.session-token")).toBe(false);
    },
  );

  it.each(Object.entries(apps))(
    "%s: a sign-in POST without the CSRF token is refused (login CSRF)",
    async (_name, make) => {
      const client = clientFor(make());
      await client.csrfToken("/api/auth");
      const response = await client.postForm("/api/auth/callback/credentials", {
        username: "ada",
        password: "lovelace",
      });
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe(`${ORIGIN}/api/auth/signin?error=MissingCSRF`);
      expect(client.jar.has("authjs.session-token")).toBe(false);
    },
  );

  it("reads the session cookie the original wrote, and the original reads Tessera's", async () => {
    const fromOriginal = clientFor(apps.original());
    await signIn(fromOriginal);
    const tesseraApp = apps.tessera();
    const carried = clientFor(tesseraApp);
    for (const [name, value] of fromOriginal.jar) carried.jar.set(name, value);
    const read = (await (await carried.get("/api/protected")).json()) as tessera.AuthUser;
    expect(read.session).toMatchObject({
      user: { email: ADA.email },
      greeting: "Hello, Ada Lovelace",
    });

    const fromTessera = clientFor(tesseraApp);
    await signIn(fromTessera);
    const back = clientFor(apps.original());
    for (const [name, value] of fromTessera.jar) back.jar.set(name, value);
    expect(await (await back.get("/api/auth/session")).json()).toMatchObject({
      user: { email: ADA.email },
      greeting: "Hello, Ada Lovelace",
    });
  });

  it("reads a session cookie @auth/core encoded itself", async () => {
    const token = await authjsEncode({
      salt: "authjs.session-token",
      secret: SECRET,
      token: { sub: ADA.id, name: ADA.name, email: ADA.email },
    });
    const client = clientFor(apps.tessera());
    client.jar.set("authjs.session-token", token);
    const read = (await (await client.get("/api/protected")).json()) as tessera.AuthUser;
    expect(read.token).toMatchObject({ sub: ADA.id });
    expect(read.session.user).toMatchObject({ name: ADA.name, email: ADA.email });
  });

  it("answers hostile input without a 5xx: a malformed session cookie, a foreign callbackUrl", async () => {
    const client = clientFor(apps.tessera());
    client.jar.set("authjs.session-token", "not.a.jwe%00");
    const refused = await client.get("/api/protected");
    expect(refused.status).toBe(401);
    // Open redirect: a foreign callbackUrl ends on the site itself.
    const csrfToken = await client.csrfToken("/api/auth");
    const response = await client.postForm("/api/auth/callback/credentials", {
      csrfToken,
      username: "ada",
      password: "lovelace",
      callbackUrl: "https://evil.example/phish",
    });
    expect(response.status).toBe(302);
    expect(new URL(response.headers.get("location") ?? "").origin).toBe(ORIGIN);
  });
});
