/**
 * The auth route's handlers behind Astro's own request conversion: a Node HTTP server on
 * 127.0.0.1 turns each request into a `Request` with `NodeApp.createRequest` (what
 * @astrojs/node runs) under a given `security.allowedDomains`, and answers with the handlers.
 * Covers the setups the example app's single build cannot: no `allowedDomains` at all, and
 * `AUTH_URL`.
 */
import { once } from "node:events";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AuthError } from "@tessera/core/errors";
import Credentials from "@tessera/core/providers/credentials";
import { NodeApp } from "astro/app/node";
import { afterEach, describe, expect, it } from "vitest";
import { defineConfig, type FullAuthConfig } from "../src/config.js";
import { createAstroAuth } from "../src/handlers.js";

type AllowedDomains = Parameters<typeof NodeApp.createRequest>[1] extends infer O
  ? O extends { allowedDomains?: infer D }
    ? D
    : never
  : never;

let server: Server | undefined;

afterEach(async () => {
  if (!server) return;
  const closed = once(server, "close");
  server.closeAllConnections();
  server.close();
  await closed;
  server = undefined;
});

/** A config whose logger keeps what it is told. */
function configLogging(errors: AuthError[]): FullAuthConfig {
  return defineConfig({
    secret: "handlers-test-secret-at-least-32-characters",
    providers: [Credentials({ authorize: () => null })],
    logger: { error: (error) => errors.push(error as AuthError) },
  });
}

/** Serves `config` as @astrojs/node would, under `allowedDomains`; answers the base URL. */
async function serve(config: FullAuthConfig, allowedDomains: AllowedDomains): Promise<string> {
  const handlers = createAstroAuth(config, { allowedDomains: (allowedDomains?.length ?? 0) > 0 });
  server = createServer(async (req, res) => {
    const request = NodeApp.createRequest(req, { allowedDomains });
    const response = await handlers.GET({ request, clientAddress: "127.0.0.1" });
    await NodeApp.writeResponse(response, res);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as { port: number };
  return `http://127.0.0.1:${port}`;
}

/** GET `path` with the Host header `host`. */
function get(base: string, path: string, host: string) {
  const { hostname, port } = new URL(base);
  return new Promise<{ status: number; location?: string; body: string }>((resolve, reject) => {
    const req = httpRequest({ hostname, port, path, headers: { host } }, (res) => {
      let body = "";
      res.on("data", (chunk) => {
        body += chunk;
      });
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, location: res.headers.location, body }),
      );
    });
    req.on("error", reject);
    req.end();
  });
}

describe("the auth route behind Astro's request conversion", () => {
  it("answers a configuration error naming security.allowedDomains when it is unset, instead of redirecting to http://localhost/", async () => {
    const errors: AuthError[] = [];
    const base = await serve(configLogging(errors), []);
    const response = await get(base, "/api/auth/signin?callbackUrl=%2F", "app.example:8443");
    expect(response.status).toBe(500);
    expect(JSON.parse(response.body)).toEqual({
      message:
        "There was a problem with the server configuration. Check the server logs for more information.",
    });
    expect(response.location).toBeUndefined();
    expect(errors.map((error) => error.type)).toEqual(["UntrustedHost"]);
    expect(errors[0]?.message).toContain('the client asked for "app.example:8443"');
    expect(errors[0]?.message).toContain("Set security.allowedDomains in astro.config");
  });

  it("answers 400 to a Host that allowedDomains does not list (Host header injection)", async () => {
    const errors: AuthError[] = [];
    const base = await serve(configLogging(errors), [{ hostname: "app.example" }]);
    const response = await get(base, "/api/auth/providers", "evil.example");
    expect(response.status).toBe(400);
    expect(response.body).toBe('Bad request: the host "evil.example" is not allowed.');
    expect(errors).toEqual([]);
  });

  it("builds URLs on a Host that allowedDomains lists", async () => {
    const base = await serve(configLogging([]), [{ hostname: "app.example" }]);
    const response = await get(base, "/api/auth/providers", "app.example:8443");
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toMatchObject({
      credentials: { callbackUrl: "http://app.example:8443/api/auth/callback/credentials" },
    });
  });

  it("builds URLs on AUTH_URL when it is set, whatever Astro reports", async () => {
    const saved = process.env.AUTH_URL;
    process.env.AUTH_URL = "https://public.example";
    try {
      const base = await serve(configLogging([]), []);
      const response = await get(base, "/api/auth/providers", "app.example");
      expect(response.status).toBe(200);
      expect(JSON.parse(response.body)).toMatchObject({
        credentials: { callbackUrl: "https://public.example/api/auth/callback/credentials" },
      });
    } finally {
      if (saved === undefined) delete process.env.AUTH_URL;
      else process.env.AUTH_URL = saved;
    }
  });

  it("serves a plain config object (no defineConfig) at /api/auth", async () => {
    const base = await serve(
      {
        secret: "handlers-test-secret-at-least-32-characters",
        providers: [Credentials({ authorize: () => null })],
      },
      [{ hostname: "app.example" }],
    );
    const response = await get(base, "/api/auth/providers", "app.example");
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toMatchObject({
      credentials: { signinUrl: "http://app.example/api/auth/signin/credentials" },
    });
  });

  it("serves the actions under a custom prefix", async () => {
    const config = defineConfig({
      prefix: "/auth",
      secret: "handlers-test-secret-at-least-32-characters",
      providers: [Credentials({ authorize: () => null })],
    });
    const base = await serve(config, [{ hostname: "app.example" }]);
    const response = await get(base, "/auth/providers", "app.example");
    expect(JSON.parse(response.body)).toMatchObject({
      credentials: { callbackUrl: "http://app.example/auth/callback/credentials" },
    });
    expect((await get(base, "/api/auth/providers", "app.example")).status).toBe(400);
  });

  it("answers a request that names localhost itself as usual", async () => {
    const base = await serve(configLogging([]), []);
    const response = await get(base, "/api/auth/csrf", "localhost");
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toHaveProperty("csrfToken");
  });
});
