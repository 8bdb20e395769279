import {
  type ActionRow,
  type AuthConfig,
  assertStartupConfig,
  defineExtension,
  type SignInStep,
  type TesseraExtension,
} from "@tessera/core";
import Credentials from "@tessera/core/providers/credentials";
import { describe, expect, it } from "vitest";
import { readPausedSignIn, resumeSignIn } from "../src/lib/session/sign-in.js";
import { Client, ORIGIN, recordingLogger, SECRET } from "./helpers.js";
import { setCookies } from "./set-cookie.js";

const PAUSED = "authjs.paused-sign-in";
const CODE = "424242";

/** A second factor defined here: every sign-in pauses once until the code is posted. */
function confirmation(stepName = "confirm-code"): TesseraExtension {
  const step: SignInStep = {
    name: stepName,
    run: (ctx) => ({ pause: { redirect: `${ctx.url.href}/confirm-sign-in` } }),
  };
  const resume: ActionRow = {
    name: "confirm-sign-in",
    methods: ["POST"],
    tail: "nothing",
    csrf: "post",
    page: false,
    callbackUrl: false,
    reach: "both",
    async handler(ctx) {
      if (!ctx.csrfTokenVerified) return { status: 403, body: { message: "csrf" } };
      const paused = await readPausedSignIn(ctx, "confirm-code");
      if (!paused) return { status: 401, body: { message: "no paused sign-in" } };
      if (ctx.request.body?.code !== CODE) return { status: 403, body: { message: "wrong code" } };
      return resumeSignIn(ctx, paused);
    },
  };
  return defineExtension({ name: "confirmation", signInSteps: [step], actions: [resume] });
}

function config(extensions: TesseraExtension[] = [confirmation()]): AuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    logger: recordingLogger().logger,
    experimental: { extensions },
    providers: [
      Credentials({
        credentials: { username: {}, password: {} },
        authorize: (credentials) =>
          credentials.username === "ada" && credentials.password === "lovelace"
            ? { id: "1", name: "Ada", email: "ada@example.com" }
            : null,
      }),
    ],
  };
}

async function firstFactor(client: Client) {
  const csrfToken = await client.csrfToken();
  return client.post("/auth/callback/credentials", {
    csrfToken,
    username: "ada",
    password: "lovelace",
    callbackUrl: "/dashboard",
  });
}

async function confirm(client: Client, code: string) {
  const csrfToken = await client.csrfToken();
  return client.post("/auth/confirm-sign-in", { csrfToken, code });
}

describe("a sign-in step between the first factor and the session", () => {
  it("pauses the sign-in: no session yet, the sign-in sealed in a short-lived HttpOnly cookie", async () => {
    const client = new Client(config());
    const response = await firstFactor(client);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${ORIGIN}/auth/confirm-sign-in`);
    const cookies = setCookies(response);
    expect(cookies.has("authjs.session-token")).toBe(false);
    const paused = cookies.get(PAUSED);
    expect(paused).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" });
    // Sealed: the browser cannot read whose sign-in it is.
    expect(paused?.value).not.toContain("Ada");
    expect(paused?.value.split(".")).toHaveLength(5);
    const lifetime = Date.parse(String(paused?.expires)) - Date.now();
    expect(lifetime).toBeGreaterThan(9 * 60_000);
    expect(lifetime).toBeLessThanOrEqual(10 * 60_000);
    expect(await client.session()).toBeNull();
  });

  it("resumes through an action row and then issues the session, clearing the paused cookie", async () => {
    const client = new Client(config());
    await firstFactor(client);
    const response = await confirm(client, CODE);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${ORIGIN}/dashboard`);
    const cookies = setCookies(response);
    expect(cookies.get(PAUSED)?.maxAge).toBe(0);
    expect(cookies.get("authjs.session-token")?.value).toBeTruthy();
    expect(await client.session()).toMatchObject({
      user: { name: "Ada", email: "ada@example.com" },
    });
  });

  it("keeps the sign-in paused on a wrong code and refuses a resume without a CSRF token", async () => {
    const client = new Client(config());
    await firstFactor(client);
    expect((await confirm(client, "000000")).status).toBe(403);
    const forged = await client.post("/auth/confirm-sign-in", { code: CODE });
    expect(forged.status).toBe(403);
    expect(await client.session()).toBeNull();
    expect((await confirm(client, CODE)).status).toBe(302);
  });

  it("refuses a paused sign-in sealed with another secret or tampered with", async () => {
    const client = new Client(config());
    await firstFactor(client);
    const sealed = client.jar.get(PAUSED) as string;
    const other = new Client({ ...config(), secret: "another-secret-with-at-least-32-characters" });
    other.jar.set(PAUSED, sealed);
    expect((await confirm(other, CODE)).status).toBe(401);
    const tampered = new Client(config());
    tampered.jar.set(PAUSED, `${sealed.slice(0, -4)}AAAA`);
    expect((await confirm(tampered, CODE)).status).toBe(401);
  });

  it("binds the paused sign-in to the step that paused it", async () => {
    // The same resume row, but the configured step has another name: the cookie is not for it.
    const client = new Client(config([confirmation("another-step")]));
    await firstFactor(client);
    expect(client.jar.has(PAUSED)).toBe(true);
    expect((await confirm(client, CODE)).status).toBe(401);
  });

  it("binds the paused sign-in to its provider: without that provider it cannot resume", async () => {
    const client = new Client(config());
    await firstFactor(client);
    const withoutProvider = new Client({ ...config(), providers: [] });
    withoutProvider.jar.set(PAUSED, client.jar.get(PAUSED) as string);
    expect((await confirm(withoutProvider, CODE)).status).toBe(401);
  });

  it("a step that lets the sign-in continue changes nothing", async () => {
    const passThrough = defineExtension({
      name: "pass",
      signInSteps: [{ name: "pass", run: () => ({ continue: true }) }],
    });
    const client = new Client(config([passThrough]));
    const response = await firstFactor(client);
    expect(response.headers.get("location")).toBe(`${ORIGIN}/dashboard`);
    expect(setCookies(response).has(PAUSED)).toBe(false);
    expect(await client.session()).toMatchObject({ user: { name: "Ada" } });
  });

  it("runs every gate step before every challenge step, whatever the order of the extensions", async () => {
    const ran: string[] = [];
    const recording = (name: string, phase?: SignInStep["phase"]) =>
      defineExtension({
        name,
        signInSteps: [
          {
            name,
            ...(phase && { phase }),
            run: () => {
              ran.push(name);
              return { continue: true };
            },
          },
        ],
      });
    const client = new Client(
      config([
        recording("challenge-before", "challenge"),
        confirmation(),
        recording("challenge-after"),
        recording("gate-last", "gate"),
      ]),
    );
    await firstFactor(client);
    // The gate listed last ran first; the pause came before the later challenge.
    expect(ran).toEqual(["gate-last", "challenge-before"]);
    expect((await confirm(client, CODE)).headers.get("location")).toBe(`${ORIGIN}/dashboard`);
    // The resumed sign-in checked the gate again (it may have closed meanwhile), then ran what
    // followed the paused step.
    expect(ran).toEqual(["gate-last", "challenge-before", "gate-last", "challenge-after"]);
    expect(await client.session()).toMatchObject({ user: { name: "Ada" } });
  });

  it("refuses a step with an unknown phase as a configuration error", async () => {
    const step = { name: "early", phase: "first", run: () => ({ continue: true }) };
    const unknownPhase = defineExtension({
      name: "early",
      // The phase a JavaScript app could pass, though the type forbids it.
      signInSteps: [step as unknown as SignInStep],
    });
    expect(() => assertStartupConfig(config([unknownPhase]))).toThrow(
      /"early".*has the phase "first": use one of "gate", "challenge"/,
    );
  });

  it("refuses two steps of one name as a configuration error", async () => {
    const step: SignInStep = { name: "twice", run: () => ({ continue: true }) };
    const twice = defineExtension({ name: "twice", signInSteps: [step, step] });
    const client = new Client(config([twice]));
    const response = await client.get("/auth/session");
    expect(response.status).toBe(500);
  });
});
