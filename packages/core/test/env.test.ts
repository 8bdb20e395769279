/**
 * `setEnvDefaults(envObject, config)` with an environment that is not `process.env` (Cloudflare's
 * `env`, SvelteKit's `$env/dynamic/private`): the options it fills, checked against @auth/core's
 * own `setEnvDefaults` (the devDependency), and `Auth()` reading `AUTH_URL` and provider
 * credentials from that same object afterwards.
 */
import { setEnvDefaults as authjsSetEnvDefaults } from "@auth/core";
import {
  Auth,
  type AuthConfig,
  createActionURL,
  raw,
  setEnvDefaults,
  siteUrlFromEnv,
} from "@tessera/core";
import { encode, getToken } from "@tessera/core/jwt";
import Credentials from "@tessera/core/providers/credentials";
import GitHub from "@tessera/core/providers/github";
import Resend from "@tessera/core/providers/resend";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Client, recordingLogger, SECRET } from "./helpers.js";

afterEach(() => vi.unstubAllEnvs());

/** A deployment whose process.env says nothing about auth, as on an edge runtime. */
function emptyProcessEnv() {
  for (const name of [
    "AUTH_SECRET",
    "AUTH_URL",
    "NEXTAUTH_URL",
    "AUTH_TRUST_HOST",
    "VERCEL",
    "CF_PAGES",
    "AUTH_GITHUB_ID",
    "AUTH_GITHUB_SECRET",
  ])
    vi.stubEnv(name, undefined);
  vi.stubEnv("NODE_ENV", "production");
}

type ProviderFields = { id: string; clientId?: string; clientSecret?: string; apiKey?: string };

function fieldsOf(config: { providers: unknown[] }) {
  return (config.providers as ProviderFields[]).map(({ id, clientId, clientSecret, apiKey }) => ({
    id,
    clientId,
    clientSecret,
    apiKey,
  }));
}

describe("setEnvDefaults with a platform environment", () => {
  const platformEnv = {
    AUTH_SECRET: "s0",
    AUTH_SECRET_1: "s1",
    AUTH_SECRET_3: "s3",
    AUTH_URL: "https://app.example/api/auth",
    AUTH_REDIRECT_PROXY_URL: "https://proxy.example/api/auth",
    AUTH_GITHUB_ID: "gh-id",
    AUTH_GITHUB_SECRET: "gh-secret",
    AUTH_RESEND_KEY: "re_key",
  };

  it("fills secret, basePath, redirectProxyUrl, trustHost and provider credentials as @auth/core does", () => {
    emptyProcessEnv();
    const providers = () => [
      GitHub,
      Resend({ from: "no-reply@app.example" }),
      Credentials({ authorize: () => null }),
    ];
    const ours: AuthConfig = { providers: providers() };
    const theirs = { providers: providers() };
    setEnvDefaults(platformEnv, ours);
    authjsSetEnvDefaults(platformEnv, theirs as Parameters<typeof authjsSetEnvDefaults>[1]);

    expect(ours.secret).toEqual(["s3", "s1", "s0"]);
    expect(ours).toMatchObject({
      basePath: "/api/auth",
      redirectProxyUrl: "https://proxy.example/api/auth",
      trustHost: true,
    });
    expect(fieldsOf(ours)).toEqual([
      { id: "github", clientId: "gh-id", clientSecret: "gh-secret", apiKey: undefined },
      { id: "resend", clientId: undefined, clientSecret: undefined, apiKey: "re_key" },
      { id: "credentials", clientId: undefined, clientSecret: undefined, apiKey: undefined },
    ]);
    const theirsFilled = theirs as unknown as AuthConfig;
    expect({
      secret: ours.secret,
      basePath: ours.basePath,
      redirectProxyUrl: ours.redirectProxyUrl,
      trustHost: ours.trustHost,
      providers: fieldsOf(ours),
    }).toEqual({
      secret: theirsFilled.secret,
      basePath: theirsFilled.basePath,
      redirectProxyUrl: theirsFilled.redirectProxyUrl,
      trustHost: theirsFilled.trustHost,
      providers: fieldsOf(theirs),
    });
  });

  it("keeps what the config sets, and warns about a basePath AUTH_URL also names", () => {
    const log = recordingLogger();
    const provider = GitHub({ clientId: "configured-id" });
    const config: AuthConfig = {
      secret: "configured",
      basePath: "/custom",
      trustHost: false,
      redirectProxyUrl: "https://configured.example/auth",
      providers: [provider],
      logger: log.logger,
    };
    setEnvDefaults(platformEnv, config);
    expect(config).toMatchObject({
      secret: "configured",
      basePath: "/custom",
      trustHost: false,
      redirectProxyUrl: "https://configured.example/auth",
    });
    expect(log.warnings).toEqual(["env-url-basepath-redundant"]);
    setEnvDefaults(platformEnv, config, true);
    expect(log.warnings).toHaveLength(1);
  });

  it("lets options given to the provider win over AUTH_{PROVIDER}_ID/SECRET", async () => {
    emptyProcessEnv();
    const config: AuthConfig = {
      providers: [GitHub({ clientId: "from-options" })],
      trustHost: true,
    };
    setEnvDefaults({ ...platformEnv, AUTH_URL: "https://app.example" }, config);
    const client = new Client(config, "https://app.example");
    const response = await client.post("/auth/signin/github", {
      csrfToken: await client.csrfToken(),
    });
    const authorization = new URL(response.headers.get("location") ?? "");
    expect(authorization.searchParams.get("client_id")).toBe("from-options");
  });
});

describe("Auth() after setEnvDefaults(platformEnv, config)", () => {
  function platformConfig(env: Record<string, string>) {
    const log = recordingLogger();
    const config: AuthConfig = { providers: [GitHub], logger: log.logger };
    setEnvDefaults(env, config);
    return { config, log };
  }

  const env = {
    AUTH_SECRET: SECRET,
    AUTH_URL: "https://app.example",
    AUTH_GITHUB_ID: "platform-id",
    AUTH_GITHUB_SECRET: "platform-secret",
  };

  it("builds every URL on the AUTH_URL origin of that environment, whatever the Host says", async () => {
    emptyProcessEnv();
    // A stale value in process.env must not win over the environment the app passed.
    vi.stubEnv("AUTH_URL", "https://stale.example");
    const { config, log } = platformConfig(env);
    const response = await Auth(
      new Request("http://evil.example/auth/providers", {
        headers: { "x-forwarded-host": "evil.example" },
      }),
      config,
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      github: {
        id: "github",
        name: "GitHub",
        type: "oauth",
        signinUrl: "https://app.example/auth/signin/github",
        callbackUrl: "https://app.example/auth/callback/github",
      },
    });
    expect(log.errors).toEqual([]);
  });

  it("keeps that environment in the copies integrations make ({ ...config, raw })", async () => {
    emptyProcessEnv();
    const { config } = platformConfig(env);
    const internal = await Auth(new Request("http://evil.example/auth/providers"), {
      ...config,
      raw,
    });
    expect(internal.body).toMatchObject({
      github: { callbackUrl: "https://app.example/auth/callback/github" },
    });
  });

  it("signs in with the provider credentials that environment holds", async () => {
    emptyProcessEnv();
    const { config } = platformConfig(env);
    const client = new Client(config, "https://app.example");
    const response = await client.post("/auth/signin/github", {
      csrfToken: await client.csrfToken(),
    });
    expect(response.status).toBe(302);
    const authorization = new URL(response.headers.get("location") ?? "");
    expect(authorization.origin).toBe("https://github.com");
    expect(authorization.searchParams.get("client_id")).toBe("platform-id");
    expect(authorization.searchParams.get("redirect_uri")).toBe(
      "https://app.example/auth/callback/github",
    );
  });

  it("refuses an untrusted Host when that environment neither trusts it nor names AUTH_URL", async () => {
    emptyProcessEnv();
    // process.env trusting hosts must not leak into a config bound to another environment.
    vi.stubEnv("AUTH_TRUST_HOST", "true");
    const { config, log } = platformConfig({ AUTH_SECRET: SECRET });
    const response = await Auth(new Request("http://evil.example/auth/providers"), config);
    expect(response.status).toBe(500);
    expect(log.errors.map((error) => error.name)).toContain("UntrustedHost");
  });

  it("leaves a provider that throws to the configuration error of the request", async () => {
    emptyProcessEnv();
    const broken = () => {
      throw new Error("the provider needs options");
    };
    const log = recordingLogger();
    const config: AuthConfig = { providers: [broken], logger: log.logger };
    expect(() => setEnvDefaults(env, config)).not.toThrow();
    expect(config.providers[0]).toBe(broken);
    const response = await Auth(new Request("https://app.example/auth/session"), config);
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ message: expect.stringContaining("configuration") });
    expect(log.errors.map((error) => error.message)).toContain("the provider needs options");
  });
});

describe("AUTH_URL is read with one rule: an empty value counts as unset", () => {
  it.each([
    [{ AUTH_URL: "https://a.example" }, "https://a.example"],
    [{ AUTH_URL: "", NEXTAUTH_URL: "https://n.example" }, "https://n.example"],
    [{ AUTH_URL: "  ", NEXTAUTH_URL: "https://n.example" }, "https://n.example"],
    [{ AUTH_URL: "https://a.example", NEXTAUTH_URL: "https://n.example" }, "https://a.example"],
    [{ AUTH_URL: "", NEXTAUTH_URL: "" }, undefined],
    [{}, undefined],
  ])("siteUrlFromEnv(%j) is %s", (env, expected) => {
    expect(siteUrlFromEnv(env)).toBe(expected);
  });

  /** `AUTH_URL=` left empty in a .env file, with the legacy variable still set. */
  const emptyAuthUrl = {
    AUTH_SECRET: SECRET,
    AUTH_URL: "",
    NEXTAUTH_URL: "https://app.example/custom/auth",
  };

  it("setEnvDefaults and Auth() take base path and origin from NEXTAUTH_URL, whatever the Host says", async () => {
    emptyProcessEnv();
    const config: AuthConfig = { providers: [GitHub] };
    setEnvDefaults(emptyAuthUrl, config);
    expect(config.basePath).toBe("/custom/auth");
    const response = await Auth(new Request("http://evil.example/custom/auth/providers"), config);
    expect(await response.json()).toMatchObject({
      github: { callbackUrl: "https://app.example/custom/auth/callback/github" },
    });
  });

  it("Auth() without setEnvDefaults reads the base path from NEXTAUTH_URL too", async () => {
    emptyProcessEnv();
    for (const [name, value] of Object.entries(emptyAuthUrl)) vi.stubEnv(name, value);
    const response = await Auth(new Request("http://evil.example/custom/auth/providers"), {
      providers: [GitHub],
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      github: { signinUrl: "https://app.example/custom/auth/signin/github" },
    });
  });

  it("createActionURL builds on NEXTAUTH_URL instead of the Host header", () => {
    const url = createActionURL(
      "session",
      "http:",
      new Headers({ host: "evil.example" }),
      emptyAuthUrl,
      {
        basePath: "/custom/auth",
      },
    );
    expect(url.href).toBe("https://app.example/custom/auth/session");
  });

  it("getToken reads the __Secure- cookie NEXTAUTH_URL's https calls for", async () => {
    emptyProcessEnv();
    for (const [name, value] of Object.entries(emptyAuthUrl)) vi.stubEnv(name, value);
    const salt = "__Secure-authjs.session-token";
    const token = await encode({ token: { sub: "ada" }, secret: SECRET, salt });
    const request = new Request("http://internal:3000/", {
      headers: { cookie: `${salt}=${token}` },
    });
    expect(await getToken({ req: request })).toMatchObject({ sub: "ada" });
  });
});
