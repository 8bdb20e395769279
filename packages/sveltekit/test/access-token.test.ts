/**
 * `getAccessToken` through `createSvelteKitAuth`, against a real OpenID Provider (oidc-provider on
 * 127.0.0.1) rotating refresh tokens: a JWT session's token, refreshed when due with the new
 * session cookie set through `event.cookies`. As in sessions.test.ts, the request event is a
 * stand-in around a real `Request` (SvelteKit itself runs in app.test.ts).
 */
import type { RequestEvent } from "@sveltejs/kit";
import { decode, encode, type JWT } from "@tessera/core/jwt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type RunningOidcProvider,
  startOidcProvider,
} from "../../core/test/fixtures/oidc-provider.js";
import { createSvelteKitAuth } from "../src/server.js";

const ORIGIN = "http://localhost:5173";
const SECRET = "sveltekit-access-token-secret-at-least-32";
const COOKIE = "authjs.session-token";
let op: RunningOidcProvider;
let auth: ReturnType<typeof createSvelteKitAuth>;

beforeAll(async () => {
  op = await startOidcProvider({
    clients: [
      {
        client_id: "app",
        client_secret: "app-secret",
        grant_types: ["authorization_code", "refresh_token"],
        redirect_uris: [`${ORIGIN}/auth/callback/op`],
      },
    ],
    accounts: [{ sub: "ada", email: "ada@example.com", email_verified: true, name: "Ada" }],
    refreshTokens: "rotate",
  });
  auth = createSvelteKitAuth(
    {
      providers: [
        {
          id: "op",
          name: "Test OP",
          type: "oidc",
          issuer: op.issuer,
          clientId: "app",
          clientSecret: "app-secret",
          refresh: true,
        },
      ],
      logger: { error: () => {}, warn: () => {}, debug: () => {} },
    },
    {
      env: () => ({ AUTH_SECRET: SECRET, AUTH_TRUST_HOST: "true" }),
      base: "",
      building: false,
      dev: false,
    },
  );
});
afterAll(() => op?.close());

/** A browser: cookies kept between events. */
class Browser {
  readonly jar = new Map<string, string>();

  event(path: string, init: RequestInit = {}): RequestEvent {
    const headers = new Headers(init.headers);
    if (this.jar.size) headers.set("cookie", [...this.jar].map(([n, v]) => `${n}=${v}`).join("; "));
    const jar = this.jar;
    return {
      url: new URL(path, ORIGIN),
      request: new Request(new URL(path, ORIGIN), { ...init, headers }),
      locals: {} as App.Locals,
      getClientAddress: () => "198.51.100.7",
      cookies: {
        set: (name: string, value: string) => (value ? jar.set(name, value) : jar.delete(name)),
        get: (name: string) => jar.get(name),
        getAll: () => [],
        delete: (name: string) => void jar.delete(name),
        serialize: () => "",
      },
    } as unknown as RequestEvent;
  }

  async fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const response = await auth.handle({
      event: this.event(path, init),
      resolve: async () => new Response("app page"),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const separator = pair.indexOf("=");
      const name = pair.slice(0, separator);
      const value = pair.slice(separator + 1);
      if (value && !/max-age=0/i.test(line)) this.jar.set(name, value);
      else this.jar.delete(name);
    }
    return response;
  }
}

async function claimOf(browser: Browser): Promise<Record<string, unknown>> {
  const token = await decode({ token: browser.jar.get(COOKIE), secret: SECRET, salt: COOKIE });
  return token?.["tessera.oauth"] as Record<string, unknown>;
}

describe("getAccessToken in SvelteKit", () => {
  it("reads a JWT session's token, refreshes it when due and sets the new cookie", async () => {
    const browser = new Browser();
    const { csrfToken } = (await (await browser.fetch("/auth/csrf")).json()) as {
      csrfToken: string;
    };
    const start = await browser.fetch("/auth/signin/op", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken }),
    });
    const answer = await op.authorize(start.headers.get("location") ?? "");
    expect((await browser.fetch(answer.url)).status).toBe(302);

    const fresh = await auth.getAccessToken(browser.event("/account"), "op");
    expect(fresh).toMatchObject({ accessToken: (await claimOf(browser)).access_token });

    // Time passes: the access token in the session JWT expires.
    const token = (await decode({
      token: browser.jar.get(COOKIE),
      secret: SECRET,
      salt: COOKIE,
    })) as JWT;
    const { iat: _iat, exp: _exp, jti: _jti, ...rest } = token;
    const claim = { ...(rest["tessera.oauth"] as object), expires_at: 0 };
    browser.jar.set(
      COOKIE,
      await encode({ token: { ...rest, "tessera.oauth": claim }, secret: SECRET, salt: COOKIE }),
    );
    const before = op.tokenRequests;
    const refreshed = await auth.getAccessToken(browser.event("/account"), "op");
    expect(op.tokenRequests - before).toBe(1);
    expect(refreshed?.accessToken).not.toBe(fresh?.accessToken);
    expect((await claimOf(browser)).access_token).toBe(refreshed?.accessToken);
    expect(await auth.getAccessToken(new Browser().event("/account"), "op")).toBeNull();
  });
});
