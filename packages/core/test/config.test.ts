import {
  Auth,
  type AuthConfig,
  createActionURL,
  raw,
  setEnvDefaults,
  skipCSRFCheck,
} from "@tessera/core";
import Credentials from "@tessera/core/providers/credentials";
import { afterEach, describe, expect, it, vi } from "vitest";
import { resolveConfig } from "../src/lib/config/resolve.js";
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

  it("trusts the host outside production, and in production only when told to", () => {
    vi.stubEnv("NODE_ENV", "production");
    vi.stubEnv("AUTH_URL", "");
    vi.stubEnv("AUTH_TRUST_HOST", "");
    expect(resolveConfig({ providers: [] }).trustHost).toBe(false);
    vi.stubEnv("AUTH_TRUST_HOST", "true");
    expect(resolveConfig({ providers: [] }).trustHost).toBe(true);
    vi.stubEnv("NODE_ENV", "development");
    vi.stubEnv("AUTH_TRUST_HOST", "");
    expect(resolveConfig({ providers: [] }).trustHost).toBe(true);
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
