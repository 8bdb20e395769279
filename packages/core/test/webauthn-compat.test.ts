/**
 * The challenge cookie is Auth.js's, so a passkey ceremony started by one library finishes on the
 * other while a site switches. Checked against @auth/core's own cookie code.
 */
import { randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import type { AuthConfig } from "@tessera/core";
import Passkey from "@tessera/core/providers/passkey";
import { createMemoryStore, MemoryAdapter } from "@tessera/memory";
import { beforeAll, describe, expect, it } from "vitest";
import { Client, ORIGIN, recordingLogger, SECRET } from "./helpers.js";
import { setCookies } from "./set-cookie.js";
import { SoftAuthenticator } from "./webauthn-authenticator.js";

interface AuthjsCookie {
  name: string;
  value: string;
  options: Record<string, unknown>;
}
interface AuthjsChecks {
  webauthnChallenge: {
    create(
      options: unknown,
      challenge: string,
      registerData?: unknown,
    ): Promise<{ cookie: AuthjsCookie }>;
    use(
      options: unknown,
      cookies: Record<string, string>,
      resCookies: AuthjsCookie[],
    ): Promise<{ challenge: string; registerData?: Record<string, unknown> }>;
  };
}

let checks: AuthjsChecks;

beforeAll(async () => {
  // The module is internal to @auth/core (not exported), so it is loaded by its file path.
  const root = dirname(createRequire(import.meta.url).resolve("@auth/core/jwt"));
  const url = pathToFileURL(join(root, "lib/actions/callback/oauth/checks.js")).href;
  checks = (await import(url)) as AuthjsChecks;
});

/** The internal options @auth/core's cookie helpers read. */
const authjsOptions = {
  cookies: { webauthnChallenge: { name: "authjs.challenge", options: { path: "/" } } },
  jwt: { secret: SECRET },
  provider: { id: "passkey" },
  logger: { debug() {} },
};

function config(): AuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    adapter: MemoryAdapter(createMemoryStore()),
    logger: recordingLogger().logger,
    providers: [Passkey()],
    experimental: { enableWebAuthn: true },
  };
}

describe("webauthn challenge cookie compatibility with Auth.js", () => {
  it("finishes a registration whose options Auth.js issued", async () => {
    const challenge = randomBytes(32).toString("base64url");
    const { cookie } = await checks.webauthnChallenge.create(authjsOptions, challenge, {
      email: "ada@example.com",
    });
    const client = new Client(config());
    client.jar.set(cookie.name, cookie.value);
    const response = new SoftAuthenticator().register({
      challenge,
      rp: { id: "localhost", name: "localhost" },
      user: { id: randomBytes(32).toString("base64url"), name: "ada", displayName: "ada" },
    });
    const result = await client.post("/auth/callback/passkey", {
      action: "register",
      data: JSON.stringify(response),
    });
    expect(result.headers.get("location")).toBe(ORIGIN);
    expect(await client.session()).toMatchObject({ user: { email: "ada@example.com" } });
  });

  it("writes a cookie that Auth.js reads", async () => {
    const client = new Client(config());
    const response = await client.get(
      "/auth/webauthn-options/passkey?action=register&email=ada@example.com",
    );
    const { options } = (await response.json()) as { options: { challenge: string } };
    const cookie = setCookies(response).get("authjs.challenge");
    const used = await checks.webauthnChallenge.use(
      authjsOptions,
      { "authjs.challenge": cookie?.value ?? "" },
      [],
    );
    expect(used.challenge).toBe(options.challenge);
    expect(used.registerData).toEqual({ email: "ada@example.com" });
  });
});
