import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  type ActionRow,
  type AuthConfig,
  callAction,
  defineExtension,
  getAccessToken,
  isAuthAction,
} from "@tessera/core";
import { UntrustedHost } from "@tessera/core/errors";
import { toNodeHandler } from "@tessera/core/node";
import { describe, expect, it } from "vitest";
import { Client, ORIGIN, recordingLogger, SECRET } from "./helpers.js";

function json(status: number, body: unknown) {
  return { status, body, headers: { "Content-Type": "application/json" } };
}

// A new action is one row and one handler: nothing else in the core changes for it.
const greeting: ActionRow = {
  name: "greeting",
  methods: ["GET", "POST"],
  tail: "nothing",
  csrf: "post",
  page: false,
  callbackUrl: false,
  reach: "both",
  handler(ctx) {
    // Login CSRF: a foreign page must not post on the user's behalf.
    if (ctx.request.method === "POST" && !ctx.csrfTokenVerified)
      return json(403, { message: "A valid csrfToken is needed." });
    const name = ctx.request.body?.name ?? ctx.request.query.name ?? "world";
    return json(200, { hello: String(name) });
  },
};

const serverOnly: ActionRow = { ...greeting, name: "server-only", reach: "in-process" };

function config(overrides: Partial<AuthConfig> = {}): AuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    logger: recordingLogger().logger,
    providers: [],
    experimental: {
      extensions: [defineExtension({ name: "greetings", actions: [greeting, serverOnly] })],
    },
    ...overrides,
  };
}

describe("an extension's action row", () => {
  const fixed = config();

  it("is served over HTTP, its CSRF rule enforced on POST", async () => {
    const client = new Client(fixed);
    const get = await client.get("/auth/greeting?name=Ada");
    expect(get.status).toBe(200);
    expect(await get.json()).toEqual({ hello: "Ada" });

    const forged = await client.post("/auth/greeting", { name: "Mallory" });
    expect(forged.status).toBe(403);
    const wrongToken = await client.post("/auth/greeting", { name: "Mallory", csrfToken: "x" });
    expect(wrongToken.status).toBe(403);

    const csrfToken = await client.csrfToken();
    const posted = await client.post("/auth/greeting", { name: "Grace", csrfToken });
    expect(posted.status).toBe(200);
    expect(await posted.json()).toEqual({ hello: "Grace" });
  });

  it("is served by toNodeHandler through the same table", async () => {
    const server: Server = createServer(toNodeHandler(fixed));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const response = await fetch(`http://127.0.0.1:${port}/auth/greeting?name=Node`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ hello: "Node" });
      const forged = await fetch(`http://127.0.0.1:${port}/auth/greeting`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "name=Mallory",
      });
      expect(forged.status).toBe(403);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("runs in-process through callAction, where server code answers for CSRF", async () => {
    const answer = await callAction(fixed, {
      action: "greeting",
      url: ORIGIN,
      body: { name: "Server" },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ hello: "Server" });
  });

  it("hands out a CSRF token in-process that a form post over HTTP then passes with", async () => {
    // A server-rendered form (a loader's) gets the token and its cookie in-process.
    const issued = await callAction(fixed, { action: "csrf", url: ORIGIN });
    expect(issued.status).toBe(200);
    const { csrfToken } = issued.body as { csrfToken: string };
    expect(csrfToken).toMatch(/^[0-9a-f]{64}$/);
    const cookie = issued.cookies?.find((c) => c.name === "authjs.csrf-token");
    expect(cookie?.value).toMatch(new RegExp(`^${csrfToken}\\|[0-9a-f]{64}$`));

    const client = new Client(fixed);
    client.jar.set("authjs.csrf-token", cookie?.value ?? "");
    const posted = await client.post("/auth/greeting", { name: "Form", csrfToken });
    expect(posted.status).toBe(200);
    // Login CSRF: the token without its cookie is still refused.
    const withoutCookie = await new Client(fixed).post("/auth/greeting", { csrfToken });
    expect(withoutCookie.status).toBe(403);
  });

  it("keeps a row reachable in-process only away from HTTP clients", async () => {
    const client = new Client(fixed);
    expect((await client.get("/auth/server-only")).status).toBe(400);
    const answer = await callAction(fixed, { action: "server-only", url: ORIGIN });
    expect(answer.body).toEqual({ hello: "world" });
  });

  it("keeps the server-only access-token row away from HTTP clients, and out of AuthAction", async () => {
    // Token theft: served over HTTP, the row would hand the provider's access token to any
    // script that can make a request with the session cookie.
    const client = new Client(fixed);
    expect((await client.get("/auth/access-token/op")).status).toBe(400);
    expect(isAuthAction("access-token")).toBe(false);
    const answer = await callAction(fixed, {
      action: "access-token",
      providerId: "op",
      url: ORIGIN,
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toHaveProperty("error.type", "InvalidProvider");
  });

  it("getAccessToken answers a configuration's error as getSession's path does: an untrusted host throws UntrustedHost", async () => {
    // Host header injection: without a trusted host the request's Host would pick the cookies read.
    const untrusted = config({ trustHost: false });
    await expect(getAccessToken(new Request(ORIGIN), untrusted, "op")).rejects.toBeInstanceOf(
      UntrustedHost,
    );
    const lazy = () => untrusted;
    await expect(getAccessToken(new Request(ORIGIN), lazy, "op")).rejects.toThrow(
      /the host is not trusted/,
    );
  });

  it("keeps an HTTP-only core row (back-channel logout) away from callAction", async () => {
    const answer = await callAction(fixed, {
      action: "backchannel-logout",
      url: ORIGIN,
      body: { logout_token: "x" },
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toBe("Bad request.");
  });

  it("answers 400 for a method its row does not serve", async () => {
    const postOnly = { ...greeting, name: "post-only", methods: ["POST"] as const };
    const client = new Client(
      config({
        experimental: { extensions: [defineExtension({ name: "post", actions: [postOnly] })] },
      }),
    );
    expect((await client.get("/auth/post-only")).status).toBe(400);
  });

  it("cannot take the name of a core action: a configuration error names the clash", async () => {
    const logged = recordingLogger();
    const client = new Client(
      config({
        logger: logged.logger,
        experimental: {
          extensions: [
            defineExtension({ name: "thief", actions: [{ ...greeting, name: "session" }] }),
          ],
        },
      }),
    );
    const response = await client.get("/auth/session");
    expect(response.status).toBe(500);
    expect(String(logged.errors[0]?.message)).toMatch(/"session", which is taken/);
  });

  it("leaves the core's public action names alone", () => {
    expect(isAuthAction("session")).toBe(true);
    expect(isAuthAction("greeting")).toBe(false);
  });
});
