import { Auth as AuthjsAuth } from "@auth/core";
import { decode as authjsDecode, encode as authjsEncode } from "@auth/core/jwt";
import AuthjsCredentials from "@auth/core/providers/credentials";
import type { AuthConfig } from "@tessera/core";
import { decode, encode } from "@tessera/core/jwt";
import Credentials from "@tessera/core/providers/credentials";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CHUNK_SIZE } from "../src/lib/http/cookies.js";
import { Client, ORIGIN, recordingLogger, SECRET, sealSessionToken } from "./helpers.js";
import { setCookies } from "./set-cookie.js";

const salt = "authjs.session-token";

function config(overrides: Partial<AuthConfig> = {}): AuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    logger: recordingLogger().logger,
    providers: [
      Credentials({ authorize: () => ({ id: "1", name: "Ada", email: "ada@example.com" }) }),
    ],
    ...overrides,
  };
}

afterEach(() => vi.useRealTimers());

describe("GET /session (JWT)", () => {
  it("answers null with no-cache headers when there is no cookie", async () => {
    const response = await new Client(config()).get("/auth/session");
    expect(response.status).toBe(200);
    expect(await response.json()).toBeNull();
    expect(response.headers.get("cache-control")).toBe("private, no-cache, no-store");
    expect(response.headers.get("expires")).toBe("0");
    expect(response.headers.get("pragma")).toBe("no-cache");
    expect(response.headers.getSetCookie()).toEqual([]);
  });

  it("reads a session cookie written by @auth/core", async () => {
    const token = await authjsEncode({
      token: { name: "Grace", email: "grace@example.com", picture: "https://img/g.png", sub: "7" },
      secret: SECRET,
      salt,
    });
    const client = new Client(config());
    client.jar.set(salt, token);
    expect(await client.session()).toMatchObject({
      user: { name: "Grace", email: "grace@example.com", image: "https://img/g.png" },
    });
  });

  it("writes a session cookie that @auth/core's session action reads", async () => {
    const client = new Client(config());
    const csrfToken = await client.csrfToken();
    await client.post("/auth/callback/credentials", { csrfToken });
    const cookie = client.jar.get(salt);
    expect(cookie).toBeTruthy();
    const response = await AuthjsAuth(
      new Request(`${ORIGIN}/auth/session`, { headers: { cookie: `${salt}=${cookie}` } }),
      {
        secret: SECRET,
        trustHost: true,
        basePath: "/auth",
        providers: [AuthjsCredentials({ authorize: () => null })],
      },
    );
    expect(await response.json()).toMatchObject({
      user: { name: "Ada", email: "ada@example.com" },
    });
  });

  it("accepts CSRF cookies minted by @auth/core (a site can switch without breaking open forms)", async () => {
    const authjsConfig = {
      secret: SECRET,
      trustHost: true,
      basePath: "/auth",
      providers: [AuthjsCredentials({ authorize: () => null })],
    };
    const csrfResponse = await AuthjsAuth(new Request(`${ORIGIN}/auth/csrf`), authjsConfig);
    const { csrfToken } = (await csrfResponse.json()) as { csrfToken: string };
    const cookie = csrfResponse.headers
      .getSetCookie()
      .find((c) => c.startsWith("authjs.csrf-token="));
    const client = new Client(config());
    client.jar.set(
      "authjs.csrf-token",
      decodeURIComponent(cookie?.split(";")[0]?.split("=")[1] ?? ""),
    );
    const response = await client.post("/auth/callback/credentials", { csrfToken });
    expect(setCookies(response).has(salt)).toBe(true);

    // And the other way round: a CSRF cookie minted by Tessera is accepted by @auth/core.
    const tessera = new Client(config());
    const ourToken = await tessera.csrfToken();
    const signout = await AuthjsAuth(
      new Request(`${ORIGIN}/auth/signout`, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          cookie: tessera.cookieHeader(),
        },
        body: new URLSearchParams({ csrfToken: ourToken }),
      }),
      authjsConfig,
    );
    expect(signout.headers.get("location")).not.toContain("MissingCSRF");
  });

  it("clears a tampered cookie and answers null", async () => {
    const log = recordingLogger();
    const client = new Client(config({ logger: log.logger }));
    client.jar.set(salt, "eyJhbGciOiJkaXIifQ..AAAA.BBBB.CCCC");
    const response = await client.get("/auth/session");
    expect(await response.json()).toBeNull();
    expect(setCookies(response).get(salt)?.maxAge).toBe(0);
    expect(log.errors[0]?.name).toBe("JWTSessionError");
  });

  it("does not re-issue the cookie on every read (updateAge honoured)", async () => {
    const client = new Client(config());
    await client.post("/auth/callback/credentials", { csrfToken: await client.csrfToken() });
    const read = await client.get("/auth/session");
    expect(read.headers.getSetCookie()).toEqual([]);
    vi.useFakeTimers({ now: Date.now() + 86400_000 + 1000, toFake: ["Date"] });
    const due = await client.get("/auth/session");
    expect(setCookies(due).has(salt)).toBe(true);
  });

  it("re-issues every time with updateAge 0, and when the jwt callback changed the token", async () => {
    const zero = new Client(config({ session: { updateAge: 0 } }));
    await zero.post("/auth/callback/credentials", { csrfToken: await zero.csrfToken() });
    expect(setCookies(await zero.get("/auth/session")).has(salt)).toBe(true);

    let counter = 0;
    const changing = new Client(
      config({ callbacks: { jwt: ({ token }) => ({ ...token, counter: ++counter }) } }),
    );
    await changing.post("/auth/callback/credentials", { csrfToken: await changing.csrfToken() });
    const read = await changing.get("/auth/session");
    expect(setCookies(read).has(salt)).toBe(true);
    const payload = await decode({ token: changing.jar.get(salt), secret: SECRET, salt });
    expect(payload?.counter).toBe(2);
  });

  it("detects a jwt callback that mutates the token in place", async () => {
    const client = new Client(
      config({
        callbacks: {
          jwt: ({ token }) => {
            token.seen = (Number(token.seen) || 0) + 1;
            return token;
          },
        },
      }),
    );
    await client.post("/auth/callback/credentials", { csrfToken: await client.csrfToken() });
    expect(setCookies(await client.get("/auth/session")).has(salt)).toBe(true);
  });

  it("signs out when the jwt callback returns null", async () => {
    let allow = true;
    const client = new Client(
      config({ callbacks: { jwt: ({ token }) => (allow ? token : null) } }),
    );
    await client.post("/auth/callback/credentials", { csrfToken: await client.csrfToken() });
    allow = false;
    const response = await client.get("/auth/session");
    expect(await response.json()).toBeNull();
    expect(setCookies(response).get(salt)?.maxAge).toBe(0);
  });

  it("chunks a large session cookie and reads it back, clearing stale chunks", async () => {
    const big = "x".repeat(CHUNK_SIZE * 2);
    const client = new Client(
      config({ callbacks: { jwt: ({ token, user }) => (user ? { ...token, big } : token) } }),
    );
    const response = await client.post("/auth/callback/credentials", {
      csrfToken: await client.csrfToken(),
    });
    const names = [...setCookies(response).keys()].filter((n) => n.startsWith(salt));
    expect(names).toEqual([`${salt}.0`, `${salt}.1`, `${salt}.2`]);
    for (const header of response.headers.getSetCookie()) expect(header.length).toBeLessThan(4096);
    expect(await client.session()).toMatchObject({ user: { name: "Ada" } });

    // A smaller session afterwards replaces the chunks with one cookie and deletes the rest.
    const small = new Client(config());
    for (const [k, v] of client.jar) small.jar.set(k, v);
    const again = await small.post("/auth/callback/credentials", {
      csrfToken: await small.csrfToken(),
    });
    const set = setCookies(again);
    expect(set.get(salt)?.value).toBeTruthy();
    expect(set.get(`${salt}.0`)?.maxAge).toBe(0);
    expect(set.get(`${salt}.2`)?.maxAge).toBe(0);
  });

  it("reads chunks in numeric order (10 after 9)", async () => {
    const token = await encode({ token: { name: "Chunky" }, secret: SECRET, salt });
    const client = new Client(config());
    const size = Math.ceil(token.length / 11);
    for (let i = 0; i < 11; i++)
      client.jar.set(`${salt}.${i}`, token.slice(i * size, (i + 1) * size));
    expect(await client.session()).toMatchObject({ user: { name: "Chunky" } });
  });
});

describe("GET /session (JWT): maxAge enforced on read", () => {
  const now = () => Math.floor(Date.now() / 1000);
  const year = 365 * 24 * 3600;
  const hour = config({ session: { maxAge: 3600 } });

  it("signs out a JWT issued in the future instead of keeping it (iat +1 year, exp +10 years)", async () => {
    const log = recordingLogger();
    const client = new Client({ ...hour, logger: log.logger });
    client.jar.set(
      salt,
      await sealSessionToken({ name: "Eve", iat: now() + year, exp: now() + 10 * year }),
    );
    const response = await client.get("/auth/session");
    expect(await response.json()).toBeNull();
    expect(setCookies(response).get(salt)?.maxAge).toBe(0);
    expect(log.errors[0]?.name).toBe("JWTSessionError");
  });

  it("signs out a session older than maxAge even when its exp is later (maxAge lowered)", async () => {
    const client = new Client(hour);
    client.jar.set(
      salt,
      await sealSessionToken({ name: "Eve", iat: now() - 7200, exp: now() + year }),
    );
    const response = await client.get("/auth/session");
    expect(await response.json()).toBeNull();
    expect(setCookies(response).get(salt)?.maxAge).toBe(0);
  });

  it("sign-out reads a session older than maxAge as over too: events.signOut gets no token", async () => {
    const signedOut: unknown[] = [];
    const client = new Client({
      ...hour,
      events: { signOut: (message) => void signedOut.push(message) },
    });
    client.jar.set(
      salt,
      await sealSessionToken({ name: "Eve", iat: now() - 7200, exp: now() + year }),
    );
    await client.post("/auth/signout", { csrfToken: await client.csrfToken() });
    expect(signedOut).toEqual([{ token: null }]);
    expect(client.jar.has(salt)).toBe(false);
  });

  it("reports the session's end as iat + maxAge when exp is later", async () => {
    const iat = now() - 60;
    const client = new Client(hour);
    client.jar.set(salt, await sealSessionToken({ name: "Ada", iat, exp: now() + year }));
    const response = await client.get("/auth/session");
    expect(response.headers.getSetCookie()).toEqual([]);
    expect(await response.json()).toMatchObject({
      user: { name: "Ada" },
      expires: new Date((iat + 3600) * 1000).toISOString(),
    });
  });

  it("reads a session cookie written by @auth/core with the same maxAge", async () => {
    const token = await authjsEncode({
      token: { name: "Grace" },
      secret: SECRET,
      salt,
      maxAge: 3600,
    });
    const client = new Client(hour);
    client.jar.set(salt, token);
    expect(await client.session()).toMatchObject({ user: { name: "Grace" } });
  });
});

describe("POST /session (update)", () => {
  it("runs the jwt callback with trigger update and the posted data", async () => {
    const client = new Client(
      config({
        callbacks: {
          jwt: ({ token, trigger, session }) =>
            trigger === "update" ? { ...token, name: (session as { name: string }).name } : token,
        },
      }),
    );
    await client.post("/auth/callback/credentials", { csrfToken: await client.csrfToken() });
    const csrfToken = await client.csrfToken();
    const response = await client.postJson("/auth/session", {
      csrfToken,
      data: { name: "Ada L." },
    });
    expect(await response.json()).toMatchObject({ user: { name: "Ada L." } });
    expect((await authjsDecode({ token: client.jar.get(salt), secret: SECRET, salt }))?.name).toBe(
      "Ada L.",
    );
  });

  it("answers 400 null without a valid CSRF token", async () => {
    const client = new Client(config());
    await client.post("/auth/callback/credentials", { csrfToken: await client.csrfToken() });
    const response = await client.postJson("/auth/session", { csrfToken: "forged", data: {} });
    expect(response.status).toBe(400);
    expect(await response.json()).toBeNull();
  });
});
