/**
 * @tessera/hono on Cloudflare's workerd (Miniflare, without `nodejs_compat`): the README's app
 * (test/worker/worker.ts), bundled as wrangler would, takes its secret from the Workers bindings
 * through `env(c)` and serves `/api/auth` by default. Sign-in, the guarded API and a session
 * cookie written by `@auth/core` on Node are checked over HTTP.
 */
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { encode } from "@auth/core/jwt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildWorkerBundle, type WorkerBundle } from "../../../runtimes/bundle.js";
import { type RunningHost, runtimeHosts } from "../../../runtimes/hosts.js";
import { freePort } from "../../core/test/fixtures/ports.js";
import { HttpClient } from "../../express/test/http-client.js";

const SECRET = randomBytes(32).toString("hex");
const PASSWORD = randomBytes(12).toString("base64url");

let bundle: WorkerBundle;
let host: RunningHost;

beforeAll(async () => {
  bundle = await buildWorkerBundle(join(import.meta.dirname, "worker/worker.ts"));
  const workerd = runtimeHosts.find((candidate) => candidate.name === "workerd");
  if (!workerd) throw new Error("runtimes/hosts.ts has no workerd host");
  host = await workerd.start(bundle, await freePort(), {
    AUTH_SECRET: SECRET,
    APP_PASSWORD: PASSWORD,
  });
}, 120_000);

afterAll(async () => {
  await host?.stop();
  bundle?.remove();
});

describe("@tessera/hono on workerd", () => {
  it("refuses the guarded API while signed out and serves it after a credentials sign-in", async () => {
    const client = new HttpClient(host.url);
    expect((await client.get("/api/protected")).status).toBe(401);
    const csrfToken = await client.csrfToken("/api/auth");
    const signedIn = await client.postForm("/api/auth/callback/credentials", {
      csrfToken,
      username: "ada",
      password: PASSWORD,
    });
    expect(signedIn.status).toBe(302);
    expect(client.jar.has("authjs.session-token")).toBe(true);
    const response = await client.get("/api/protected");
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      session: { user: { name: "Ada Lovelace", email: "ada@example.com" } },
      token: { sub: "ada" },
    });
  });

  it("accepts a session cookie @auth/core wrote with the same secret", async () => {
    const client = new HttpClient(host.url);
    client.jar.set(
      "authjs.session-token",
      await encode({
        salt: "authjs.session-token",
        secret: SECRET,
        token: { sub: "ada", name: "Ada Lovelace", email: "ada@example.com" },
      }),
    );
    expect(await (await client.get("/api/protected")).json()).toMatchObject({
      session: { user: { email: "ada@example.com" } },
    });
  });
});
