/**
 * `createSvelteKitAuth` (what `SvelteKitAuth` runs) against Tessera's real `Auth()`. SvelteKit
 * itself does not run here: the request event is a stand-in with a real `Request` and `URL`, a
 * recording `cookies` and plain `locals`, and `$env/dynamic/private`, `$app/paths` and
 * `$app/environment` are passed as the {@link KitEnvironment} that `index.ts` builds from them.
 * app.test.ts runs the same code inside a real SvelteKit build.
 */
import { randomUUID } from "node:crypto";
import { isRedirect, type RequestEvent } from "@sveltejs/kit";
import { defineExtension, type Session } from "@tessera/core";
import { AuthError, CredentialsSignin } from "@tessera/core/errors";
import Credentials from "@tessera/core/providers/credentials";
import GitHub from "@tessera/core/providers/github";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { SvelteKitAuthConfig } from "../src/config.js";
import type { KitEnvironment } from "../src/kit.js";
import { createSvelteKitAuth } from "../src/server.js";

const SECRET = "sveltekit-unit-test-secret-at-least-32-chars";
const ADA = { id: "1", name: "Ada Lovelace", email: "ada@example.com" };

afterEach(() => vi.unstubAllEnvs());

/** process.env as on a server where nothing about auth is set outside SvelteKit's env. */
function emptyProcessEnv() {
  for (const name of ["AUTH_SECRET", "AUTH_URL", "NEXTAUTH_URL", "AUTH_TRUST_HOST", "VERCEL"])
    vi.stubEnv(name, undefined);
  vi.stubEnv("NODE_ENV", "production");
}

function kit(overrides: Partial<KitEnvironment> = {}): KitEnvironment {
  return {
    env: () => ({ AUTH_SECRET: SECRET, AUTH_TRUST_HOST: "true" }),
    base: "",
    building: false,
    dev: false,
    ...overrides,
  };
}

function config(): SvelteKitAuthConfig {
  return {
    providers: [
      GitHub,
      Credentials({
        credentials: { username: {}, password: {} },
        authorize: ({ username, password }) =>
          username === "ada" && password === "lovelace" ? ADA : null,
      }),
    ],
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
  };
}

interface SetCookie {
  value: string;
  options: Record<string, unknown>;
}

/** A request event around a real Request; `cookies.set` records what the response would set. */
function requestEvent(url: string, init: RequestInit = {}) {
  const set = new Map<string, SetCookie>();
  const event = {
    url: new URL(url),
    request: new Request(url, init),
    locals: {} as App.Locals,
    cookies: {
      set: (name: string, value: string, options: Record<string, unknown>) =>
        void set.set(name, { value, options }),
      get: () => undefined,
      getAll: () => [],
      delete: (name: string) => void set.delete(name),
      serialize: () => "",
    },
  } as unknown as RequestEvent;
  return { event, set };
}

function formPost(url: string, fields: Record<string, string>) {
  return requestEvent(url, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { "content-type": "application/x-www-form-urlencoded", origin: new URL(url).origin },
  });
}

/** Runs `handle`; the app's own response is `app page`. */
async function handle(auth: ReturnType<typeof createSvelteKitAuth>, event: RequestEvent) {
  const resolve = vi.fn(async () => new Response("app page"));
  const response = await auth.handle({ event, resolve });
  return { response, resolved: resolve.mock.calls.length > 0 };
}

/** The redirect a form action throws (SvelteKit's `redirect()`). */
async function redirectOf(action: Promise<unknown>): Promise<{ status: number; location: string }> {
  try {
    await action;
  } catch (error) {
    if (isRedirect(error)) return { status: error.status, location: error.location };
    throw error;
  }
  throw new Error("the action did not redirect");
}

describe("handle", () => {
  it("answers <base>/auth/<action> under $app/paths' base and leaves other paths to the app", async () => {
    const auth = createSvelteKitAuth(config(), kit({ base: "/base" }));
    const providers = await handle(
      auth,
      requestEvent("http://127.0.0.1:5173/base/auth/providers").event,
    );
    expect(providers.resolved).toBe(false);
    expect(await providers.response.json()).toMatchObject({
      credentials: { callbackUrl: "http://127.0.0.1:5173/base/auth/callback/credentials" },
      github: { signinUrl: "http://127.0.0.1:5173/base/auth/signin/github" },
    });
    for (const path of ["/auth/providers", "/base/auth/not-an-action", "/base/page"]) {
      const other = await handle(auth, requestEvent(`http://127.0.0.1:5173${path}`).event);
      expect(other.resolved, path).toBe(true);
      expect(await other.response.text()).toBe("app page");
    }
  });

  it("takes the base path and the public origin from AUTH_URL in $env/dynamic/private", async () => {
    emptyProcessEnv();
    const env = { AUTH_SECRET: SECRET, AUTH_URL: "https://app.example/custom/auth" };
    const auth = createSvelteKitAuth(config(), kit({ base: "/base", env: () => env }));
    // Behind a proxy the app sees an internal address; AUTH_URL names the public one.
    const { response, resolved } = await handle(
      auth,
      requestEvent("http://10.0.0.7:3000/custom/auth/providers").event,
    );
    expect(resolved).toBe(false);
    expect(await response.json()).toMatchObject({
      github: { callbackUrl: "https://app.example/custom/auth/callback/github" },
    });
  });

  it("reads AUTH_SECRET and AUTH_GITHUB_ID/SECRET from $env/dynamic/private, not process.env", async () => {
    emptyProcessEnv();
    // SvelteKit fills the env when its server starts, before it loads the hooks.
    const env = {
      AUTH_SECRET: SECRET,
      AUTH_TRUST_HOST: "true",
      AUTH_GITHUB_ID: "kit-env-id",
      AUTH_GITHUB_SECRET: "kit-env-secret",
    };
    const auth = createSvelteKitAuth(config(), kit({ env: () => env }));
    const { event } = formPost("http://127.0.0.1:5173/signin", { providerId: "github" });
    const { status, location } = await redirectOf(auth.signIn(event));
    expect(status).toBe(303);
    const authorization = new URL(location);
    expect(authorization.origin).toBe("https://github.com");
    expect(authorization.searchParams.get("client_id")).toBe("kit-env-id");
  });

  it("trusts the Host under vite dev, and in production only when the environment says so", async () => {
    emptyProcessEnv();
    const env = () => ({ AUTH_SECRET: SECRET });
    const url = "http://127.0.0.1:5173/auth/session";
    const dev = await handle(
      createSvelteKitAuth(config(), kit({ env, dev: true })),
      requestEvent(url).event,
    );
    expect(dev.response.status).toBe(200);
    // A fixed config is refused at start-up; a lazy one on its request.
    expect(() => createSvelteKitAuth(config(), kit({ env, dev: false }))).toThrow(
      expect.objectContaining({
        name: "UntrustedHost",
        message: expect.stringContaining("AUTH_URL"),
      }),
    );
    const production = await handle(
      createSvelteKitAuth(() => config(), kit({ env, dev: false })),
      requestEvent(url).event,
    );
    expect(production.response.status).toBe(500);
  });

  it("refuses a fixed config without a secret when SvelteKitAuth() runs, with the fix in the message", () => {
    emptyProcessEnv();
    expect(() => createSvelteKitAuth(config(), kit({ env: () => ({}) }))).toThrow(
      expect.objectContaining({
        name: "MissingSecret",
        message: expect.stringContaining("AUTH_SECRET"),
      }),
    );
  });

  it("checks nothing at creation while SvelteKit builds, or for a lazy config", () => {
    emptyProcessEnv();
    expect(() =>
      createSvelteKitAuth(config(), kit({ building: true, env: () => ({}) })),
    ).not.toThrow();
    expect(() => createSvelteKitAuth(() => config(), kit({ env: () => ({}) }))).not.toThrow();
  });

  it("does no auth work while SvelteKit builds and prerenders: locals.auth() is null", async () => {
    const lazyConfig = vi.fn(config);
    const auth = createSvelteKitAuth(lazyConfig, kit({ building: true, env: () => ({}) }));
    const page = requestEvent("http://sveltekit-prerender/prerendered");
    expect((await handle(auth, page.event)).resolved).toBe(true);
    expect(await page.event.locals.auth()).toBeNull();
    expect(await page.event.locals.getSession()).toBeNull();
    // Not even <basePath>/* is answered: prerendering has no user and no secret.
    expect(
      (await handle(auth, requestEvent("http://sveltekit-prerender/auth/session").event)).resolved,
    ).toBe(true);
    const post = formPost("http://sveltekit-prerender/signin", { providerId: "credentials" });
    await expect(auth.signIn(post.event)).rejects.toThrow(/while SvelteKit builds or prerenders/);
    expect(lazyConfig).not.toHaveBeenCalled();
    expect(page.set.size).toBe(0);
  });

  it("answers a provider that cannot be built with the configuration error, not an exception", async () => {
    const broken = () => {
      throw new Error("the provider needs options");
    };
    const brokenConfig = () => ({
      providers: [broken],
      logger: { error: () => {}, warn: () => {}, debug: () => {} },
    });
    // A fixed config fails at creation; a lazy one answers its request with the error.
    expect(() => createSvelteKitAuth(brokenConfig(), kit())).toThrow("the provider needs options");
    const auth = createSvelteKitAuth(brokenConfig, kit());
    const { response } = await handle(
      auth,
      requestEvent("http://127.0.0.1:5173/auth/session").event,
    );
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ message: expect.stringContaining("configuration") });
  });
});

describe("locals", () => {
  async function signedInCookie(auth: ReturnType<typeof createSvelteKitAuth>): Promise<string> {
    const { event, set } = formPost("http://127.0.0.1:5173/signin", {
      providerId: "credentials",
      username: "ada",
      password: "lovelace",
      redirectTo: "/",
    });
    const { location } = await redirectOf(auth.signIn(event));
    expect(location).toBe("http://127.0.0.1:5173/");
    const session = set.get("authjs.session-token");
    if (!session) throw new Error("no session cookie was set");
    expect(session.options).toMatchObject({ path: "/", httpOnly: true, sameSite: "lax" });
    return `authjs.session-token=${session.value}`;
  }

  it("sets locals.auth() and its alias locals.getSession() to the request's session", async () => {
    const auth = createSvelteKitAuth(config(), kit());
    const cookie = await signedInCookie(auth);
    const { event } = requestEvent("http://127.0.0.1:5173/page", { headers: { cookie } });
    await handle(auth, event);
    expect(event.locals.getSession).toBe(event.locals.auth);
    const session = (await event.locals.getSession()) as Session;
    // The user has no image: the session omits it, as Auth.js's does.
    expect(session.user).toEqual({ name: "Ada Lovelace", email: "ada@example.com" });

    const signedOut = requestEvent("http://127.0.0.1:5173/page").event;
    await handle(auth, signedOut);
    expect(await signedOut.locals.auth()).toBeNull();
  });

  it("throws CredentialsSignin to the signIn form action for wrong credentials", async () => {
    const auth = createSvelteKitAuth(config(), kit());
    const { event, set } = formPost("http://127.0.0.1:5173/signin", {
      providerId: "credentials",
      username: "ada",
      password: "wrong",
    });
    await expect(auth.signIn(event)).rejects.toBeInstanceOf(CredentialsSignin);
    expect(set.has("authjs.session-token")).toBe(false);
  });

  it("signs out through the signOut form action: the session cookie is cleared", async () => {
    const auth = createSvelteKitAuth(config(), kit());
    const cookie = await signedInCookie(auth);
    const { event, set } = requestEvent("http://127.0.0.1:5173/signout", {
      method: "POST",
      body: new URLSearchParams({ redirectTo: "/bye" }),
      headers: { "content-type": "application/x-www-form-urlencoded", cookie },
    });
    const { location } = await redirectOf(auth.signOut(event));
    expect(location).toBe("http://127.0.0.1:5173/bye");
    expect(set.get("authjs.session-token")).toMatchObject({ value: "", options: { maxAge: 0 } });
  });
});

describe("sign-in rate limit", () => {
  const origin = "http://127.0.0.1:5173";

  /** A wrong password posted to `handle`, as the built-in sign-in page posts it: the error code. */
  async function wrongPasswordThroughHandle(
    auth: ReturnType<typeof createSvelteKitAuth>,
    username: string,
  ): Promise<string | null> {
    const { response: csrf } = await handle(auth, requestEvent(`${origin}/auth/csrf`).event);
    const cookie = csrf.headers
      .getSetCookie()
      .map((line) => line.split(";")[0])
      .join("; ");
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const post = requestEvent(`${origin}/auth/callback/credentials`, {
      method: "POST",
      body: new URLSearchParams({ csrfToken, username, password: "wrong" }),
      headers: { "content-type": "application/x-www-form-urlencoded", cookie },
    });
    const { response } = await handle(auth, post.event);
    return new URL(response.headers.get("location") ?? "", origin).searchParams.get("error");
  }

  /** A wrong password given to the signIn form action: the type of the error it throws. */
  async function wrongPasswordThroughFormAction(
    auth: ReturnType<typeof createSvelteKitAuth>,
    username: string,
  ): Promise<string> {
    const { event } = formPost(`${origin}/signin`, {
      providerId: "credentials",
      username,
      password: "wrong",
    });
    const error = await auth.signIn(event).catch((thrown: unknown) => thrown);
    return error instanceof AuthError ? error.type : String(error);
  }

  async function elevenWrongPasswords(auth: ReturnType<typeof createSvelteKitAuth>) {
    const victim = `victim-${randomUUID()}`;
    const errors = [];
    for (let i = 0; i < 11; i++)
      errors.push(
        i % 2
          ? await wrongPasswordThroughFormAction(auth, victim)
          : await wrongPasswordThroughHandle(auth, victim),
      );
    return errors;
  }

  it("a lazy config still counts wrong passwords across requests, through handle and form actions alike", async () => {
    // SvelteKitAuth((event) => …) builds a new config object for every request.
    const errors = await elevenWrongPasswords(createSvelteKitAuth(() => config(), kit()));
    expect(errors.slice(0, 10)).toEqual(Array(10).fill("CredentialsSignin"));
    expect(errors[10]).toBe("RateLimited");
  });

  it("handle and the signIn form action of one config count in one budget", async () => {
    const errors = await elevenWrongPasswords(createSvelteKitAuth(config(), kit()));
    expect(errors.slice(0, 10)).toEqual(Array(10).fill("CredentialsSignin"));
    expect(errors[10]).toBe("RateLimited");
  });
});

describe("extensions", () => {
  // An extension defined here: one row answering the runner's cookie and a GET.
  const hello = defineExtension({
    name: "hello",
    actions: [
      {
        name: "hello",
        methods: ["GET", "POST"],
        tail: "nothing",
        csrf: "none",
        page: false,
        callbackUrl: false,
        reach: "both",
        handler: (ctx) => ({
          status: 200,
          headers: { "Content-Type": "application/json" },
          body: { method: ctx.request.method },
          cookies: [{ name: "hello", value: "1", options: { path: "/", httpOnly: true } }],
        }),
      },
    ],
  });
  const withHello = (): SvelteKitAuthConfig => ({
    ...config(),
    experimental: { extensions: [hello] },
  });

  it("handle serves an extension's row like a core action", async () => {
    const auth = createSvelteKitAuth(withHello(), kit());
    const { response, resolved } = await handle(
      auth,
      requestEvent("http://127.0.0.1:5173/auth/hello").event,
    );
    expect(resolved).toBe(false);
    expect(await response.json()).toEqual({ method: "GET" });
    // Without the extension the path is the app's.
    const plain = createSvelteKitAuth(config(), kit());
    expect(
      (await handle(plain, requestEvent("http://127.0.0.1:5173/auth/hello").event)).resolved,
    ).toBe(true);
  });

  it("actionRunner runs an extension's row in-process and sets its cookies on event.cookies", async () => {
    const auth = createSvelteKitAuth(withHello(), kit());
    const { event, set } = requestEvent("http://127.0.0.1:5173/account");
    const run = await auth.actionRunner(event);
    const answer = await run({ action: "hello", body: {} });
    expect(answer.body).toEqual({ method: "POST" });
    expect(set.get("hello")?.value).toBe("1");
  });
});
