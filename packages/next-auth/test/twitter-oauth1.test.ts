/**
 * v4's Twitter provider on OAuth 1.0a (`version: "1.0A"`, RFC 5849): request token, authorize
 * redirect, access token and the signed profile read, against a local OAuth 1.0a server written
 * here. No public OAuth 1.0a server runs on this machine (X's is on the internet and needs a
 * developer account), so this server stands in for X: it checks every HMAC-SHA1 signature with
 * Node's crypto and its own base string, and answers as X's v1.1 endpoints do. next-auth@4.24.15
 * signs in against the same server, so the server is held to a second, independent client.
 */
import { createHmac, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import NextAuth from "../src/index.js";
import TwitterProvider from "../src/providers/twitter.js";
import { type ApiHandler, type Impl, ImplClient, startPagesApi } from "./pages-api.js";

const require = createRequire(import.meta.url);
const v4NextAuth = (require("next-auth") as { default: (...args: unknown[]) => unknown }).default;
const v4Twitter = (require("next-auth/providers/twitter") as { default: (o: unknown) => unknown })
  .default;

const CONSUMER_KEY = "xvz1evFS4wEEPTGEFPHBog";
const CONSUMER_SECRET = "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw";
const secret = "twitter-oauth1-secret-of-32-chars!!";

/** RFC 5849 §3.6 percent-encoding, written apart from the implementation under test. */
const enc = (value: string) =>
  encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );

/** A local OAuth 1.0a server playing X's part. */
function startOAuth1Server() {
  const requestTokens = new Map<string, { secret: string; callback: string; verifier: string }>();
  const accessTokens = new Map<string, string>();
  const refused: string[] = [];

  /** The `oauth_*` parameters of a request, when its HMAC-SHA1 signature checks out. */
  function verify(
    req: IncomingMessage,
    url: URL,
    tokenSecret: (token: string) => string | undefined,
  ) {
    const header = req.headers.authorization ?? "";
    if (!header.startsWith("OAuth ")) return null;
    const oauth: Record<string, string> = {};
    for (const [, name, value] of header.slice(6).matchAll(/([\w]+)="([^"]*)"/g))
      oauth[decodeURIComponent(name ?? "")] = decodeURIComponent(value ?? "");
    if (oauth.oauth_consumer_key !== CONSUMER_KEY || oauth.oauth_signature_method !== "HMAC-SHA1")
      return null;
    const keySecret = oauth.oauth_token ? tokenSecret(oauth.oauth_token) : "";
    if (keySecret === undefined) return null;
    const pairs = [...url.searchParams, ...Object.entries(oauth)]
      .filter(([name]) => name !== "oauth_signature" && name !== "realm")
      .map(([name, value]) => `${enc(name)}=${enc(value)}`)
      .sort();
    const base = `${req.method}&${enc(`http://${req.headers.host}${url.pathname}`)}&${enc(pairs.join("&"))}`;
    const expected = createHmac("sha1", `${enc(CONSUMER_SECRET)}&${enc(keySecret)}`)
      .update(base)
      .digest("base64");
    return expected === oauth.oauth_signature ? oauth : null;
  }

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", `http://${req.headers.host}`);
    const refuse = () => {
      refused.push(url.pathname);
      res.writeHead(401, { "content-type": "application/json" });
      res.end('{"errors":[{"code":32,"message":"Could not authenticate you."}]}');
    };
    if (req.method === "POST" && url.pathname === "/oauth/request_token") {
      const oauth = verify(req, url, () => undefined);
      if (!oauth?.oauth_callback) return refuse();
      const token = `req-${randomBytes(8).toString("hex")}`;
      const tokenSecret = randomBytes(16).toString("hex");
      const verifier = randomBytes(8).toString("hex");
      requestTokens.set(token, { secret: tokenSecret, callback: oauth.oauth_callback, verifier });
      res.writeHead(200, { "content-type": "text/html" });
      res.end(
        `oauth_token=${token}&oauth_token_secret=${tokenSecret}&oauth_callback_confirmed=true`,
      );
      return;
    }
    if (req.method === "GET" && url.pathname === "/oauth/authenticate") {
      // The user approves at once: back to the announced callback with the verifier (§2.2).
      const pending = requestTokens.get(url.searchParams.get("oauth_token") ?? "");
      if (!pending) return refuse();
      const back = new URL(pending.callback);
      back.searchParams.set("oauth_token", url.searchParams.get("oauth_token") ?? "");
      back.searchParams.set("oauth_verifier", pending.verifier);
      res.writeHead(302, { location: back.href });
      res.end();
      return;
    }
    if (req.method === "POST" && url.pathname === "/oauth/access_token") {
      const oauth = verify(req, url, (token) => requestTokens.get(token)?.secret);
      const pending = requestTokens.get(oauth?.oauth_token ?? "");
      if (!oauth || !pending || oauth.oauth_verifier !== pending.verifier) return refuse();
      requestTokens.delete(oauth.oauth_token ?? "");
      const token = `12345-${randomBytes(8).toString("hex")}`;
      const tokenSecret = randomBytes(16).toString("hex");
      accessTokens.set(token, tokenSecret);
      res.writeHead(200, { "content-type": "text/html" });
      res.end(
        `oauth_token=${token}&oauth_token_secret=${tokenSecret}&user_id=12345&screen_name=ada`,
      );
      return;
    }
    if (req.method === "GET" && url.pathname === "/1.1/account/verify_credentials.json") {
      const oauth = verify(req, url, (token) => accessTokens.get(token));
      if (!oauth) return refuse();
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          id: 12345,
          id_str: "12345",
          name: "Ada Lovelace",
          screen_name: "ada",
          email: url.searchParams.get("include_email") === "true" ? "ada@example.test" : undefined,
          profile_image_url_https: "https://pbs.twimg.test/profile_images/1/ada_normal.jpg",
        }),
      );
      return;
    }
    res.writeHead(404);
    res.end();
  });
  return {
    refused,
    requestTokens,
    async listen() {
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let x: ReturnType<typeof startOAuth1Server>;
let xOrigin = "";
let origin = "";
let close: () => Promise<void>;

/** The v4 Twitter options of an app, pointed at the local server. */
function twitterOptions(clientSecret = CONSUMER_SECRET) {
  return {
    clientId: CONSUMER_KEY,
    clientSecret,
    authorization: `${xOrigin}/oauth/authenticate`,
    requestTokenUrl: `${xOrigin}/oauth/request_token`,
    accessTokenUrl: `${xOrigin}/oauth/access_token`,
    profileUrl: `${xOrigin}/1.1/account/verify_credentials.json?include_email=true`,
  };
}

const handlers = {} as Record<Impl, ApiHandler>;
/** The accounts Tessera's `jwt` callback was given at sign-in. */
const accounts: Record<string, unknown>[] = [];

beforeAll(async () => {
  x = startOAuth1Server();
  xOrigin = await x.listen();
  const server = await startPagesApi(handlers);
  origin = server.origin;
  close = server.close;
  process.env.NEXTAUTH_URL = origin;
  const v4Options = { secret, providers: [v4Twitter(twitterOptions())] };
  handlers.v4 = ((req: unknown, res: unknown) => v4NextAuth(req, res, v4Options)) as ApiHandler;
  handlers.tessera = NextAuth({
    secret,
    providers: [TwitterProvider(twitterOptions())],
    callbacks: {
      jwt: ({ token, account }) => {
        if (account) accounts.push(account as unknown as Record<string, unknown>);
        return token;
      },
    },
  }) as ApiHandler;
});

afterAll(async () => {
  await close?.();
  await x?.close();
  delete process.env.NEXTAUTH_URL;
});

/** Starts a sign-in with X; answers where the browser is sent. */
async function startSignIn(client: ImplClient): Promise<URL> {
  const csrfToken = await client.csrfToken("/api/auth");
  const start = await client.postForm("/api/auth/signin/twitter", {
    csrfToken,
    callbackUrl: `${origin}/home`,
    json: "true",
  });
  return new URL(((await start.json()) as { url: string }).url);
}

/** The user approving at X: where X sends the browser back. */
async function approve(authorizeUrl: URL): Promise<URL> {
  const answer = await fetch(authorizeUrl, { redirect: "manual" });
  return new URL(answer.headers.get("location") ?? "");
}

describe("Twitter (OAuth 1.0a) as v4's TwitterProvider has it", () => {
  it.each(["tessera", "v4"] as const)(
    "signs in on %s: request token, authorize, access token, signed profile",
    async (impl) => {
      const client = new ImplClient(origin, impl);
      const authorize = await startSignIn(client);
      expect(authorize.origin + authorize.pathname).toBe(`${xOrigin}/oauth/authenticate`);
      const callback = await approve(authorize);
      expect(callback.pathname).toBe("/api/auth/callback/twitter");
      const landed = await client.get(callback.pathname + callback.search);
      expect(landed.status).toBe(302);
      expect(landed.headers.get("location")).toBe(`${origin}/home`);
      const session = (await (await client.get("/api/auth/session")).json()) as {
        user?: Record<string, unknown>;
      };
      expect(session.user).toEqual({
        name: "Ada Lovelace",
        email: "ada@example.test",
        image: "https://pbs.twimg.test/profile_images/1/ada.jpg",
      });
      expect(x.refused).toEqual([]);
      if (impl === "tessera")
        // The account keeps the token credentials, as v4's does.
        expect(accounts.at(-1)).toEqual({
          provider: "twitter",
          type: "oauth",
          providerAccountId: "12345",
          oauth_token: expect.stringMatching(/^12345-/),
          oauth_token_secret: expect.stringMatching(/^[0-9a-f]{32}$/),
        });
    },
  );

  it("keeps the request token secret out of the redirect (v4 puts it in the URL)", async () => {
    const mine = await startSignIn(new ImplClient(origin, "tessera"));
    expect([...mine.searchParams.keys()]).toEqual(["oauth_token"]);
    const theirs = await startSignIn(new ImplClient(origin, "v4"));
    // Deliberate difference (migration guide): v4 sends oauth_token_secret to the browser.
    expect(theirs.searchParams.has("oauth_token_secret")).toBe(true);
  });

  it("refuses a callback with a request token the browser did not start with (session fixation)", async () => {
    const victim = new ImplClient(origin, "tessera");
    await startSignIn(victim);
    // The attacker starts a sign-in of their own, approves it, and hands the victim the callback.
    const attacker = new ImplClient(origin, "tessera");
    const planted = await approve(await startSignIn(attacker));
    const landed = await victim.get(planted.pathname + planted.search);
    expect(landed.headers.get("location")).toBe(`${origin}/api/auth/error?error=OAuthCallback`);
    const session = await (await victim.get("/api/auth/session")).json();
    expect(session).toEqual({});
    // Refused before any exchange: the planted token never reached the access token endpoint.
    expect(x.refused).toEqual([]);
  });

  it("a callback without the state cookie (forged) is error=OAuthCallback", async () => {
    const landed = await new ImplClient(origin, "tessera").get(
      "/api/auth/callback/twitter?oauth_token=forged&oauth_verifier=forged",
    );
    expect(landed.headers.get("location")).toBe(`${origin}/api/auth/error?error=OAuthCallback`);
  });

  it("a wrong API key secret is refused by the server and ends in v4's OAuthSignin error", async () => {
    const wrong = NextAuth({
      secret,
      providers: [TwitterProvider(twitterOptions("not-the-secret"))],
    }) as ApiHandler;
    const previous = handlers.tessera;
    handlers.tessera = wrong;
    try {
      const refusedBefore = x.refused.length;
      const client = new ImplClient(origin, "tessera");
      const csrfToken = await client.csrfToken("/api/auth");
      const start = await client.postForm("/api/auth/signin/twitter", { csrfToken });
      expect(start.headers.get("location")).toBe(`${origin}/api/auth/error?error=OAuthSignin`);
      expect(x.refused.slice(refusedBefore)).toEqual(["/oauth/request_token"]);
    } finally {
      handlers.tessera = previous;
      x.refused.length = 0;
    }
  });

  it('TwitterProvider({ version: "2.0" }) is X\'s OAuth 2.0 provider, as in v4', () => {
    const provider = TwitterProvider({ clientId: "id", clientSecret: "s", version: "2.0" });
    expect(provider).toMatchObject({ id: "twitter", type: "oauth", checks: ["pkce", "state"] });
    expect(provider.version).toBeUndefined();
    expect(TwitterProvider({ clientId: "id", clientSecret: "s" }).version).toBe("1.0A");
  });
});
