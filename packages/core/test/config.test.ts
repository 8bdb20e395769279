import {
  Auth,
  type AuthConfig,
  createActionURL,
  raw,
  setEnvDefaults,
  skipCSRFCheck,
} from "@tessera/core";
import Credentials from "@tessera/core/providers/credentials";
import Nodemailer from "@tessera/core/providers/nodemailer";
import { createMemoryStore, MemoryAdapter } from "@tessera/memory";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { resolveConfig } from "../src/lib/config/resolve.js";
import { linkIn, startSmtpServer } from "./email-helpers.js";
import { Client, ORIGIN, recordingLogger, SECRET } from "./helpers.js";

const credentials = () => Credentials({ authorize: () => ({ id: "1", name: "Ada" }) });

afterEach(() => vi.unstubAllEnvs());

describe("configuration errors", () => {
  it("answers JSON 500 for API actions and logs MissingSecret with the fix", async () => {
    vi.stubEnv("AUTH_SECRET", "");
    const log = recordingLogger();
    const response = await Auth(new Request(`${ORIGIN}/auth/session`), {
      providers: [],
      trustHost: true,
      logger: log.logger,
    });
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({
      message:
        "There was a problem with the server configuration. Check the server logs for more information.",
    });
    expect(log.errors[0]?.name).toBe("MissingSecret");
    expect(log.errors[0]?.message).toContain("AUTH_SECRET");
  });

  it("renders the Configuration error page for HTML pages, without internals", async () => {
    vi.stubEnv("AUTH_SECRET", "");
    const log = recordingLogger();
    const response = await Auth(new Request(`${ORIGIN}/auth/signin`), {
      providers: [],
      trustHost: true,
      logger: log.logger,
    });
    expect(response.status).toBe(500);
    const html = await response.text();
    expect(html).toContain("<!DOCTYPE html>");
    expect(html).not.toContain("AUTH_SECRET");
  });

  it("shows the cause on the error page in development when debug is on", async () => {
    vi.stubEnv("AUTH_SECRET", "");
    vi.stubEnv("NODE_ENV", "development");
    const response = await Auth(new Request(`${ORIGIN}/auth/error?error=Configuration`), {
      providers: [],
      trustHost: true,
      debug: true,
      logger: recordingLogger().logger,
    });
    expect(await response.text()).toContain("AUTH_SECRET");
  });

  it("keeps the cause off the error page when NODE_ENV is unset, even with debug on (information disclosure)", async () => {
    vi.stubEnv("AUTH_SECRET", "");
    vi.stubEnv("NODE_ENV", undefined);
    const response = await Auth(new Request(`${ORIGIN}/auth/error?error=Configuration`), {
      providers: [],
      trustHost: true,
      debug: true,
      logger: recordingLogger().logger,
    });
    expect(response.status).toBe(500);
    expect(await response.text()).not.toContain("AUTH_SECRET");
  });

  it("redirects to pages.error with error=Configuration when one is set", async () => {
    vi.stubEnv("AUTH_SECRET", "");
    const response = await Auth(new Request(`${ORIGIN}/auth/signin`), {
      providers: [],
      trustHost: true,
      pages: { error: "/oops" },
      logger: recordingLogger().logger,
    });
    expect(response.headers.get("location")).toBe(`${ORIGIN}/oops?error=Configuration`);
  });

  it("refuses an untrusted host", async () => {
    const log = recordingLogger();
    const response = await Auth(new Request(`${ORIGIN}/auth/session`), {
      secret: SECRET,
      trustHost: false,
      providers: [],
      logger: log.logger,
    });
    expect(response.status).toBe(500);
    expect(log.errors[0]?.name).toBe("UntrustedHost");
  });

  it("names AUTH_URL as the fix for an untrusted host before trustHost and AUTH_TRUST_HOST", async () => {
    const log = recordingLogger();
    await Auth(new Request(`${ORIGIN}/auth/session`), {
      secret: SECRET,
      trustHost: false,
      providers: [],
      logger: log.logger,
    });
    const message = log.errors[0]?.message ?? "";
    expect(message).toContain(`URL was: ${ORIGIN}.`);
    expect(message).toMatch(/Set AUTH_URL to the site's public URL/);
    expect(message.indexOf("AUTH_URL")).toBeLessThan(message.indexOf("trustHost"));
    expect(message.indexOf("trustHost")).toBeLessThan(message.indexOf("AUTH_TRUST_HOST"));
  });

  it("names duplicate provider ids, a credentials provider without authorize, and database without adapter", async () => {
    const cases: [Partial<AuthConfig>, string][] = [
      [{ providers: [credentials(), credentials()] }, "InvalidProvider"],
      [
        { providers: [{ id: "c", name: "C", type: "credentials", credentials: {} } as never] },
        "MissingAuthorize",
      ],
      [{ providers: [], session: { strategy: "database" } }, "MissingAdapter"],
      [{ providers: [], adapter: {}, session: { strategy: "database" } }, "MissingAdapterMethods"],
    ];
    for (const [partial, type] of cases) {
      const log = recordingLogger();
      await Auth(new Request(`${ORIGIN}/auth/session`), {
        secret: SECRET,
        trustHost: true,
        logger: log.logger,
        providers: [],
        ...partial,
      });
      expect(log.errors[0]?.name, type).toBe(type);
    }
  });

  it("refuses a jwt.revocationCacheSeconds that would keep revoked sessions usable (Infinity, hours, negative, not a number)", async () => {
    const answer = async (revocationCacheSeconds: unknown) => {
      const log = recordingLogger();
      const response = await Auth(new Request(`${ORIGIN}/auth/session`), {
        secret: SECRET,
        trustHost: true,
        logger: log.logger,
        providers: [],
        jwt: { revocationCacheSeconds: revocationCacheSeconds as number },
      });
      return { status: response.status, error: log.errors[0] };
    };
    for (const bad of [Number.POSITIVE_INFINITY, 3600, 61, -1, Number.NaN, "5", null]) {
      const { status, error } = await answer(bad);
      expect(status, String(bad)).toBe(500);
      expect(error?.name, String(bad)).toBe("InvalidJwtOptions");
      expect(error?.message).toMatch(/jwt\.revocationCacheSeconds .* from 0 to 60/);
    }
    for (const good of [undefined, 0, 0.5, 1, 60])
      expect((await answer(good)).status, String(good)).toBe(200);
  });

  it("lists every missing adapter method by name", async () => {
    const log = recordingLogger();
    await Auth(new Request(`${ORIGIN}/auth/session`), {
      secret: SECRET,
      trustHost: true,
      logger: log.logger,
      providers: [],
      adapter: { createSession: async (s) => s },
    });
    const message = log.errors[0]?.message ?? "";
    for (const method of ["getSessionAndUser", "updateSession", "deleteSession"])
      expect(message).toContain(method);
    expect(message).not.toContain("`createSession`");
  });
});

describe("environment inference", () => {
  it("reads AUTH_SECRET and rotation secrets AUTH_SECRET_1..3 (newest first)", () => {
    vi.stubEnv("AUTH_SECRET", "s0");
    vi.stubEnv("AUTH_SECRET_1", "s1");
    vi.stubEnv("AUTH_SECRET_3", "s3");
    expect(resolveConfig({ providers: [] }).secrets).toEqual(["s3", "s1", "s0"]);
  });

  it("falls back to the legacy NEXTAUTH_SECRET and takes basePath from AUTH_URL", () => {
    vi.stubEnv("AUTH_SECRET", "");
    vi.stubEnv("NEXTAUTH_SECRET", "legacy");
    vi.stubEnv("AUTH_URL", "https://app.test/custom/auth");
    const resolved = resolveConfig({ providers: [] });
    expect(resolved.secrets).toEqual(["legacy"]);
    expect(resolved.basePath).toBe("/custom/auth");
  });

  it("trusts the host only when the environment says so, never for an unset NODE_ENV", () => {
    for (const name of ["AUTH_URL", "NEXTAUTH_URL", "AUTH_TRUST_HOST", "VERCEL", "CF_PAGES"])
      vi.stubEnv(name, undefined);
    const trusted = () => resolveConfig({ providers: [] }).trustHost;
    vi.stubEnv("NODE_ENV", undefined);
    expect(trusted()).toBe(false);
    vi.stubEnv("NODE_ENV", "production");
    expect(trusted()).toBe(false);
    vi.stubEnv("NODE_ENV", "staging");
    expect(trusted()).toBe(false);
    vi.stubEnv("NODE_ENV", "development");
    expect(trusted()).toBe(true);
    vi.stubEnv("NODE_ENV", "test");
    expect(trusted()).toBe(true);
    vi.stubEnv("NODE_ENV", "production");
    vi.stubEnv("AUTH_TRUST_HOST", "true");
    expect(trusted()).toBe(true);
    vi.stubEnv("AUTH_TRUST_HOST", "false");
    vi.stubEnv("NODE_ENV", "development");
    expect(trusted()).toBe(false);
    vi.stubEnv("AUTH_TRUST_HOST", undefined);
    vi.stubEnv("NODE_ENV", undefined);
    vi.stubEnv("VERCEL", "1");
    expect(trusted()).toBe(true);
    vi.stubEnv("VERCEL", undefined);
    vi.stubEnv("AUTH_URL", "https://app.example");
    expect(trusted()).toBe(true);
  });

  it("refuses an AUTH_URL that is not an absolute http(s) URL rather than trusting the Host", async () => {
    vi.stubEnv("NODE_ENV", undefined);
    for (const value of ["app.example", "/auth", "ftp://app.example"]) {
      vi.stubEnv("AUTH_URL", value);
      const log = recordingLogger();
      const response = await Auth(new Request("http://evil.example/auth/session"), {
        secret: SECRET,
        providers: [],
        logger: log.logger,
      });
      expect(response.status, value).toBe(500);
      expect(log.errors[0]?.name).toBe("UntrustedHost");
      expect(log.errors[0]?.message).toContain("AUTH_URL must be the absolute http(s) URL");
    }
  });

  it("infers a provider's client id and secret from AUTH_{ID}_ID/SECRET (upper snake case)", () => {
    vi.stubEnv("AUTH_MY_IDP_ID", "client-123");
    vi.stubEnv("AUTH_MY_IDP_SECRET", "shh");
    const provider = (options: Record<string, string> = {}) => ({
      id: "my-idp",
      name: "My IdP",
      type: "oidc" as const,
      issuer: "https://idp.test",
      options,
    });
    const [resolved] = resolveConfig({ secret: SECRET, providers: [provider] }).providersFor(
      ORIGIN,
    );
    expect(resolved).toMatchObject({ clientId: "client-123", clientSecret: "shh" });
  });

  it("setEnvDefaults fills unset options like Auth.js", () => {
    const config: AuthConfig = { providers: [] };
    setEnvDefaults(
      {
        AUTH_SECRET: "abc",
        AUTH_URL: "https://x.test/api/auth",
        AUTH_REDIRECT_PROXY_URL: "https://proxy.test/auth",
      },
      config,
    );
    expect(config).toMatchObject({
      secret: ["abc"],
      basePath: "/api/auth",
      redirectProxyUrl: "https://proxy.test/auth",
      trustHost: true,
    });
  });

  it("createActionURL prefers AUTH_URL and otherwise the forwarded host", () => {
    const headers = new Headers({
      host: "internal:8080",
      "x-forwarded-host": "public.test",
      "x-forwarded-proto": "https",
    });
    expect(createActionURL("session", "http:", headers, {}, { basePath: "/auth" }).href).toBe(
      "https://public.test/auth/session",
    );
    expect(
      createActionURL(
        "signin",
        "http:",
        headers,
        { AUTH_URL: "https://env.test" },
        { basePath: "/api/auth" },
      ).href,
    ).toBe("https://env.test/api/auth/signin");
  });
});

describe("magic-link poisoning through a forged Host header", () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  beforeAll(async () => {
    smtp = await startSmtpServer();
  });
  afterAll(async () => {
    await smtp.close();
  });

  /** The deployment: a plain Node server, none of the variables that would make it trust hosts. */
  function deployment(nodeEnv: string | undefined, authUrl?: string) {
    for (const name of ["AUTH_TRUST_HOST", "NEXTAUTH_URL", "VERCEL", "CF_PAGES"])
      vi.stubEnv(name, undefined);
    // vitest sets NODE_ENV=test, which would trust every host: each case sets its own.
    vi.stubEnv("NODE_ENV", nodeEnv);
    vi.stubEnv("AUTH_URL", authUrl);
    const log = recordingLogger();
    const config: AuthConfig = {
      secret: SECRET,
      adapter: MemoryAdapter(createMemoryStore()),
      providers: [Nodemailer({ server: smtp.url, from: "no-reply@app.example" })],
      logger: log.logger,
    };
    return { config, log };
  }

  /** The attacker's requests: sent to the real server with Host (and X-Forwarded-Host) evil.com. */
  async function requestLinkForVictim(config: AuthConfig) {
    const attacker = new Client(config, "http://evil.com");
    const forged = { "x-forwarded-host": "evil.com" };
    const csrf = await attacker.get("/auth/csrf", forged);
    const csrfToken = csrf.ok ? ((await csrf.json()) as { csrfToken: string }).csrfToken : "";
    return attacker.post(
      "/auth/signin/nodemailer",
      { csrfToken, email: "victim@example.com" },
      forged,
    );
  }

  it.each([
    ["unset", undefined],
    ["production", "production"],
  ])(
    "mails no link for a forged Host when NODE_ENV is %s and nothing says to trust it",
    async (_, nodeEnv) => {
      const { config, log } = deployment(nodeEnv);
      const before = smtp.messages.length;
      const response = await requestLinkForVictim(config);
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({ message: expect.stringContaining("configuration") });
      expect(smtp.messages.length).toBe(before);
      expect(log.errors.map((e) => e.name)).toContain("UntrustedHost");
    },
  );

  it.each([
    ["unset", undefined],
    ["production", "production"],
  ])(
    "with AUTH_URL and NODE_ENV %s, mails a link to AUTH_URL's origin whatever the Host says",
    async (_, nodeEnv) => {
      const { config } = deployment(nodeEnv, "https://app.example");
      const before = smtp.messages.length;
      const response = await requestLinkForVictim(config);
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe(
        "https://app.example/auth/verify-request?provider=nodemailer&type=email",
      );
      expect(smtp.messages.length).toBe(before + 1);
      const mail = smtp.messages[before];
      if (!mail) throw new Error("no e-mail was sent");
      expect(mail.to).toEqual(["victim@example.com"]);
      expect(mail.text).not.toContain("evil.com");
      expect(mail.html).not.toContain("evil.com");
      const link = linkIn(mail.text);
      expect(link.origin).toBe("https://app.example");
      expect(link.searchParams.get("callbackUrl")).toBe("https://app.example");

      // The victim's browser, on the real site, signs in with it.
      const victim = new Client(config, "https://app.example");
      const signedIn = await victim.get(`${link.pathname}${link.search}`);
      expect(signedIn.headers.get("location")).toBe("https://app.example");
      const session = await victim.session();
      expect((session?.user as { email?: string } | undefined)?.email).toBe("victim@example.com");
    },
  );
});

describe("resolution", () => {
  it("resolves a fixed config once and a lazy config per request", async () => {
    const fixed: AuthConfig = { secret: SECRET, trustHost: true, providers: [credentials()] };
    expect(resolveConfig(fixed)).toBe(resolveConfig(fixed));

    let calls = 0;
    const lazy = (request: Request): AuthConfig => {
      calls++;
      const tenant = new URL(request.url).searchParams.get("tenant") ?? "a";
      return {
        secret: SECRET,
        trustHost: true,
        providers: [Credentials({ id: `cred-${tenant}`, authorize: () => null })],
      };
    };
    const client = new Client(lazy);
    const a = (await (await client.get("/auth/providers?tenant=a")).json()) as Record<
      string,
      unknown
    >;
    const b = (await (await client.get("/auth/providers?tenant=b")).json()) as Record<
      string,
      unknown
    >;
    expect(Object.keys(a)).toEqual(["cred-a"]);
    expect(Object.keys(b)).toEqual(["cred-b"]);
    expect(calls).toBe(2);
  });

  it("answers 500 when a lazy config function throws, without a stack trace", async () => {
    const spy = vi.spyOn(console, "error").mockImplementation(() => {});
    const response = await Auth(new Request(`${ORIGIN}/auth/session`), () => {
      throw new Error("tenant lookup failed");
    });
    expect(response.status).toBe(500);
    expect(await response.text()).not.toContain("tenant lookup failed");
    expect(String(spy.mock.calls[0]?.[1])).toContain("tenant lookup failed");
    spy.mockRestore();
  });

  it("lists providers with absolute URLs for the request's origin", async () => {
    const client = new Client(
      { secret: SECRET, trustHost: true, providers: [credentials()] },
      "https://one.test",
    );
    expect(await (await client.get("/auth/providers")).json()).toEqual({
      credentials: {
        id: "credentials",
        name: "Credentials",
        type: "credentials",
        signinUrl: "https://one.test/auth/signin/credentials",
        callbackUrl: "https://one.test/auth/callback/credentials",
      },
    });
  });

  it("answers 404 on /csrf when CSRF checks are skipped", async () => {
    const client = new Client({
      secret: SECRET,
      trustHost: true,
      providers: [],
      skipCSRFCheck,
      logger: recordingLogger().logger,
    });
    expect((await client.get("/auth/csrf")).status).toBe(404);
  });

  it("returns ResponseInternal with the raw symbol", async () => {
    const result = await Auth(new Request(`${ORIGIN}/auth/providers`), {
      secret: SECRET,
      trustHost: true,
      providers: [credentials()],
      raw,
    });
    expect(result).toMatchObject({ status: 200, body: { credentials: { id: "credentials" } } });
  });
});

describe("provider options", () => {
  it("merges endpoint params given as an object over a provider's URL string", () => {
    const provider = (options: Record<string, unknown> = {}) => ({
      id: "plain",
      name: "Plain",
      type: "oauth" as const,
      authorization: "https://idp.test/authorize?scope=read",
      token: "https://idp.test/token",
      userinfo: "https://idp.test/me",
      options,
    });
    const [resolved] = resolveConfig({
      secret: SECRET,
      providers: [provider({ authorization: { params: { prompt: "consent" } } })],
    }).providersFor(ORIGIN) as unknown as [
      { authorization: { url: URL; params: Record<string, string> } },
    ];
    expect(resolved.authorization.url.href).toContain("https://idp.test/authorize");
    expect(resolved.authorization.params).toMatchObject({ prompt: "consent", scope: "read" });
  });
});
