/**
 * @tessera/core/node over real HTTP: a node:http server answering through `toNodeHandler`, the
 * oidc-provider fixture as identity provider, and @auth/core's own answer where the shape must match.
 */
import { once } from "node:events";
import http, { type Server } from "node:http";
import net, { type AddressInfo } from "node:net";
import { Auth as AuthJs } from "@auth/core";
import AuthJsCredentials from "@auth/core/providers/credentials";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { HttpClient } from "../../express/test/http-client.js";
import type { AuthConfig } from "../src/index.js";
import { getSession, toNodeHandler } from "../src/node.js";
import Credentials from "../src/providers/credentials.js";
import { type RunningOidcProvider, startOidcProvider } from "./fixtures/oidc-provider.js";
import { SECRET } from "./helpers.js";

let server: Server;
let origin: string;
let op: RunningOidcProvider;
let config: AuthConfig;

async function listen(handler: http.RequestListener): Promise<[Server, string]> {
  const s = http.createServer(handler);
  s.listen(0, "127.0.0.1");
  await once(s, "listening");
  return [s, `http://127.0.0.1:${(s.address() as AddressInfo).port}`];
}

const authorize = (credentials: Partial<Record<string, unknown>>) =>
  credentials.username === "ada" && credentials.password === "lovelace"
    ? { id: "1", name: "Ada", email: "ada@example.test" }
    : null;

beforeAll(async () => {
  let handler: http.RequestListener = () => {};
  [server, origin] = await listen((req, res) => handler(req, res));
  op = await startOidcProvider({
    clients: [
      {
        client_id: "rp",
        client_secret: "rp-secret",
        redirect_uris: [`${origin}/auth/callback/op`],
      },
    ],
    accounts: [{ sub: "op-ada", email: "ada@op.test", email_verified: true, name: "Ada OP" }],
  });
  config = {
    secret: SECRET,
    trustHost: true,
    basePath: "/auth",
    providers: [
      Credentials({ credentials: { username: {}, password: {} }, authorize }),
      {
        id: "op",
        name: "OP",
        type: "oidc",
        issuer: op.issuer,
        clientId: "rp",
        clientSecret: "rp-secret",
      },
    ],
  };
  const auth = toNodeHandler(config);
  handler = async (req, res) => {
    if (req.url !== "/me") return auth(req, res);
    const session = await getSession(req, config, res);
    res.setHeader("Content-Type", "application/json");
    res.end(JSON.stringify(session));
  };
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await op?.close();
});

async function signInWithCredentials(client: HttpClient): Promise<Response> {
  const csrfToken = await client.csrfToken();
  return client.postForm("/auth/callback/credentials", {
    csrfToken,
    username: "ada",
    password: "lovelace",
  });
}

describe("toNodeHandler on a node:http server", () => {
  it("lists the providers and hands out a CSRF token with its cookie", async () => {
    const client = new HttpClient(origin);
    const providers = (await (await client.get("/auth/providers")).json()) as Record<
      string,
      { callbackUrl: string }
    >;
    expect(Object.keys(providers)).toEqual(["credentials", "op"]);
    expect(providers.op?.callbackUrl).toBe(`${origin}/auth/callback/op`);
    const token = await client.csrfToken();
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(client.jar.get("authjs.csrf-token")).toContain(token);
  });

  it("serves the sign-in, sign-out and error pages as HTML", async () => {
    const client = new HttpClient(origin);
    for (const path of ["/auth/signin", "/auth/signout", "/auth/error?error=AccessDenied"]) {
      const response = await client.get(path);
      expect(response.headers.get("content-type")).toContain("text/html");
      expect(await response.text()).toContain("<html");
    }
    expect((await client.get("/auth/error?error=AccessDenied")).status).toBe(403);
  });

  it("signs in with credentials; the session, getSession and sign-out follow", async () => {
    const client = new HttpClient(origin);
    const signedIn = await signInWithCredentials(client);
    expect(signedIn.status).toBe(302);
    expect(client.jar.has("authjs.session-token")).toBe(true);
    const session = (await (await client.get("/auth/session")).json()) as {
      user: { name: string };
    };
    expect(session.user.name).toBe("Ada");
    const viaGetSession = (await (await client.get("/me")).json()) as { user: { email: string } };
    expect(viaGetSession.user.email).toBe("ada@example.test");

    const csrfToken = await client.csrfToken();
    const out = await client.postForm("/auth/signout", { csrfToken });
    expect(out.status).toBe(302);
    expect(client.jar.has("authjs.session-token")).toBe(false);
    expect(await (await client.get("/me")).json()).toBeNull();
  });

  it("refuses a wrong password back to the sign-in page with CredentialsSignin", async () => {
    const client = new HttpClient(origin);
    const csrfToken = await client.csrfToken();
    const response = await client.postForm("/auth/callback/credentials", {
      csrfToken,
      username: "ada",
      password: "wrong",
    });
    expect(response.headers.get("location")).toBe(
      `${origin}/auth/signin?error=CredentialsSignin&code=credentials`,
    );
  });

  it("signs in through a real OpenID provider", async () => {
    const client = new HttpClient(origin);
    const csrfToken = await client.csrfToken();
    const start = await client.postForm("/auth/signin/op", { csrfToken });
    expect(start.status).toBe(302);
    const back = await op.authorize(start.headers.get("location") as string);
    const callback = await client.get(back.url.replace(/^https?:\/\/[^/]+/, ""));
    expect(callback.status).toBe(302);
    const session = (await (await client.get("/auth/session")).json()) as {
      user: { email: string };
    };
    expect(session.user.email).toBe("ada@op.test");
  });

  it("answers a malformed cookie, bad JSON and an unknown action without a 5xx", async () => {
    const client = new HttpClient(origin);
    const session = await client.get("/auth/session", { cookie: "authjs.session-token=%%%; a" });
    expect(session.status).toBe(200);
    expect(await session.json()).toBeNull();
    const badJson = await client.fetch("/auth/callback/credentials", {
      method: "POST",
      body: "{not json",
      headers: { "content-type": "application/json" },
    });
    expect(badJson.status).toBe(400);
    expect((await client.get("/auth/nope")).status).toBe(400);
  });

  it("matches an absolute-form request target by its path, with the Host header's origin", async () => {
    const socket = net.connect(Number(new URL(origin).port), "127.0.0.1");
    socket.write(
      `GET http://evil.test/auth/providers HTTP/1.1\r\nHost: ${new URL(origin).host}\r\nConnection: close\r\n\r\n`,
    );
    const chunks: Buffer[] = [];
    socket.on("data", (c: Buffer) => chunks.push(c));
    await once(socket, "close");
    const text = Buffer.concat(chunks).toString();
    expect(text).toMatch(/^HTTP\/1\.1 200/);
    expect(text).toContain(`${origin}/auth/callback/op`);
    expect(text).not.toContain("evil.test");
  });
});

describe("X-Auth-Return-Redirect", () => {
  it("answers a sign-out with 200 {url} and the Location header, as @auth/core does", async () => {
    const authjsConfig = {
      secret: SECRET,
      trustHost: true,
      basePath: "/auth",
      providers: [AuthJsCredentials({ authorize: () => null })],
    };
    const csrf = await AuthJs(new Request("http://localhost:3000/auth/csrf"), authjsConfig);
    const { csrfToken: theirToken } = (await csrf.json()) as { csrfToken: string };
    const theirCookie = csrf.headers.getSetCookie()[0]?.split(";")[0] as string;
    const authjs = await AuthJs(
      new Request("http://localhost:3000/auth/signout", {
        method: "POST",
        headers: {
          "X-Auth-Return-Redirect": "1",
          "content-type": "application/x-www-form-urlencoded",
          cookie: theirCookie,
        },
        body: new URLSearchParams({ csrfToken: theirToken }),
      }),
      authjsConfig,
    );
    const client = new HttpClient(origin);
    const csrfToken = await client.csrfToken();
    const ours = await client.postForm(
      "/auth/signout",
      { csrfToken },
      { "X-Auth-Return-Redirect": "1" },
    );
    expect(ours.status).toBe(authjs.status);
    expect(ours.headers.get("content-type")).toBe(authjs.headers.get("content-type"));
    const theirLocation = authjs.headers.get("location");
    expect(theirLocation).toBe("http://localhost:3000");
    expect(ours.headers.get("location")).toBe(origin);
    expect(await authjs.json()).toEqual({ url: theirLocation });
    expect(await ours.json()).toEqual({ url: origin });
  });
});

describe("X-Auth-Return-Redirect on a failed flow", () => {
  it("answers 200 {url} of the error page without a Location header, as @auth/core does", async () => {
    const init = () => ({
      method: "POST",
      headers: {
        "X-Auth-Return-Redirect": "1",
        "content-type": "application/x-www-form-urlencoded",
      },
      body: "",
    });
    const authjs = await AuthJs(
      new Request("http://localhost:3000/auth/signin/credentials", init()),
      {
        secret: SECRET,
        trustHost: true,
        basePath: "/auth",
        providers: [AuthJsCredentials({ authorize: () => null })],
      },
    );
    const ours = await new HttpClient(origin).fetch("/auth/signin/credentials", init());
    expect(ours.status).toBe(authjs.status);
    expect(ours.headers.get("location")).toBe(authjs.headers.get("location"));
    expect(ours.headers.get("location")).toBeNull();
    expect(await authjs.json()).toEqual({
      url: "http://localhost:3000/auth/signin?error=MissingCSRF",
    });
    expect(await ours.json()).toEqual({ url: `${origin}/auth/signin?error=MissingCSRF` });
  });
});

describe("a lazy config and authorize get a real Request", () => {
  it("has the method, the public URL from trusted X-Forwarded-*, the headers and the body", async () => {
    const seen: { lazy?: Request; lazyBody?: string; authorize?: Request } = {};
    const previous = process.env.AUTH_TRUST_HOST;
    process.env.AUTH_TRUST_HOST = "true";
    const lazyHandler = toNodeHandler(async (request) => {
      seen.lazy = request;
      seen.lazyBody = await request.clone().text();
      return {
        secret: SECRET,
        trustHost: true,
        basePath: "/auth",
        providers: [
          Credentials({
            credentials: { username: {}, password: {} },
            authorize: (credentials, request) => {
              seen.authorize = request;
              return authorize(credentials);
            },
          }),
        ],
      };
    });
    const [lazyServer, lazyOrigin] = await listen((req, res) => void lazyHandler(req, res));
    try {
      const proxy = {
        "x-forwarded-host": "app.public.test",
        "x-forwarded-proto": "https",
        "x-trace": "t1",
      };
      const client = new HttpClient(lazyOrigin);
      const csrfToken = await client.csrfToken("/auth", proxy);
      const response = await client.postForm(
        "/auth/callback/credentials",
        { csrfToken, username: "ada", password: "lovelace" },
        proxy,
      );
      expect(response.headers.get("location")).toBe("https://app.public.test");
      expect(seen.lazy?.method).toBe("POST");
      expect(seen.lazy?.url).toBe("https://app.public.test/auth/callback/credentials");
      expect(seen.lazy?.headers.get("x-trace")).toBe("t1");
      expect(seen.lazyBody).toContain("username=ada");
      expect(seen.authorize?.url).toBe("https://app.public.test/auth/callback/credentials");
      expect(seen.authorize?.method).toBe("POST");
      expect(seen.authorize?.headers.get("x-trace")).toBe("t1");
      expect(await seen.authorize?.json()).toMatchObject({ username: "ada", password: "lovelace" });
    } finally {
      if (previous === undefined) delete process.env.AUTH_TRUST_HOST;
      else process.env.AUTH_TRUST_HOST = previous;
      lazyServer.closeAllConnections();
      await new Promise((resolve) => lazyServer.close(resolve));
    }
  });
});

describe("toNodeHandler checks a config object when it is created", () => {
  afterEach(() => vi.unstubAllEnvs());
  const noEnv = () => {
    for (const name of ["AUTH_SECRET", "AUTH_URL", "NEXTAUTH_URL", "AUTH_TRUST_HOST", "VERCEL"])
      vi.stubEnv(name, undefined);
  };

  it("throws MissingSecret at start-up, naming AUTH_SECRET, instead of failing the first request", () => {
    noEnv();
    expect(() => toNodeHandler({ providers: [], trustHost: true })).toThrow(
      expect.objectContaining({
        name: "MissingSecret",
        message: expect.stringContaining("AUTH_SECRET"),
      }),
    );
  });

  it("throws UntrustedHost in production without AUTH_URL, naming AUTH_URL first", () => {
    noEnv();
    vi.stubEnv("NODE_ENV", "production");
    expect(() => toNodeHandler({ providers: [], secret: SECRET })).toThrow(
      /^Host must be trusted\. Set AUTH_URL .*AUTH_TRUST_HOST=true/,
    );
    vi.stubEnv("AUTH_URL", "https://app.example");
    expect(() => toNodeHandler({ providers: [], secret: SECRET })).not.toThrow();
  });

  it("leaves a lazy config to its requests, which answer 500 without taking the server down", async () => {
    noEnv();
    const lazy = toNodeHandler(() => ({
      providers: [],
      trustHost: true,
      logger: { error: () => {} },
    }));
    const [lazyServer, lazyOrigin] = await listen((req, res) => lazy(req, res));
    try {
      const response = await fetch(`${lazyOrigin}/auth/session`);
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({ message: expect.stringContaining("configuration") });
    } finally {
      lazyServer.closeAllConnections();
      await new Promise((resolve) => lazyServer.close(resolve));
    }
  });
});
