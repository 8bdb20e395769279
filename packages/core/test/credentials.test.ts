import type { AuthConfig } from "@tessera/core";
import { CredentialsSignin } from "@tessera/core/errors";
import Credentials from "@tessera/core/providers/credentials";
import { describe, expect, it } from "vitest";
import { Client, ORIGIN, recordingLogger, SECRET } from "./helpers.js";
import { setCookies } from "./set-cookie.js";

class WrongLogin extends CredentialsSignin {
  override code = "wrong_login";
}

function config(overrides: Partial<AuthConfig> = {}): AuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    logger: recordingLogger().logger,
    providers: [
      Credentials({
        credentials: {
          username: { label: "User" },
          password: { label: "Password", type: "password" },
        },
        authorize(credentials) {
          if (credentials.username === "ada" && credentials.password === "lovelace")
            return { id: "1", name: "Ada", email: "ada@example.com" };
          if (credentials.username === "custom") throw new WrongLogin();
          if (credentials.username === "crash") throw new Error("database exploded");
          return null;
        },
      }),
    ],
    ...overrides,
  };
}

async function signIn(
  client: Client,
  form: Record<string, string>,
  headers: Record<string, string> = {},
) {
  const csrfToken = await client.csrfToken();
  return client.post("/auth/callback/credentials", { csrfToken, ...form }, headers);
}

describe("credentials sign-in", () => {
  it("signs in, shows the session, and signs out", async () => {
    const client = new Client(config());
    const response = await signIn(client, {
      username: "ada",
      password: "lovelace",
      callbackUrl: "/dashboard",
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${ORIGIN}/dashboard`);
    const cookie = setCookies(response).get("authjs.session-token");
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/", secure: false });
    const session = await client.session();
    expect(session).toMatchObject({ user: { name: "Ada", email: "ada@example.com" } });
    expect(Date.parse(String(session?.expires))).toBeGreaterThan(Date.now() + 29 * 86400_000);

    const csrfToken = await client.csrfToken();
    const out = await client.post("/auth/signout", { csrfToken });
    expect(out.status).toBe(302);
    expect(setCookies(out).get("authjs.session-token")?.maxAge).toBe(0);
    expect(await client.session()).toBeNull();
  });

  it("redirects to the sign-in page with CredentialsSignin and the default code", async () => {
    const client = new Client(config());
    const response = await signIn(client, { username: "ada", password: "wrong" });
    const location = new URL(response.headers.get("location") ?? "");
    expect(location.pathname).toBe("/auth/signin");
    expect(location.searchParams.get("error")).toBe("CredentialsSignin");
    expect(location.searchParams.get("code")).toBe("credentials");
    expect(await client.session()).toBeNull();
  });

  it("gives the same answer for an unknown user and a wrong password (no user enumeration)", async () => {
    const a = await signIn(new Client(config()), { username: "nobody", password: "x" });
    const b = await signIn(new Client(config()), { username: "ada", password: "x" });
    expect(a.headers.get("location")).toBe(b.headers.get("location"));
  });

  it("puts a custom CredentialsSignin code in the redirect", async () => {
    const response = await signIn(new Client(config()), { username: "custom", password: "x" });
    expect(new URL(response.headers.get("location") ?? "").searchParams.get("code")).toBe(
      "wrong_login",
    );
  });

  it("maps an unexpected authorize failure to the generic Configuration error", async () => {
    const log = recordingLogger();
    const response = await signIn(new Client(config({ logger: log.logger })), {
      username: "crash",
      password: "x",
    });
    const location = new URL(response.headers.get("location") ?? "");
    expect(location.pathname).toBe("/auth/error");
    expect(location.searchParams.get("error")).toBe("Configuration");
    expect(log.errors.map((e) => e.message).join(" ")).toContain("database exploded");
  });

  it("refuses a post without the CSRF token (login CSRF)", async () => {
    const client = new Client(config());
    await client.csrfToken();
    const response = await client.post("/auth/callback/credentials", {
      username: "ada",
      password: "lovelace",
    });
    expect(new URL(response.headers.get("location") ?? "").searchParams.get("error")).toBe(
      "MissingCSRF",
    );
    expect(await client.session()).toBeNull();
  });

  it("refuses a CSRF token that does not match the cookie (double submit)", async () => {
    const victim = new Client(config());
    await victim.csrfToken();
    const attacker = new Client(config());
    const attackerToken = await attacker.csrfToken();
    const response = await victim.post("/auth/callback/credentials", {
      csrfToken: attackerToken,
      username: "ada",
      password: "lovelace",
    });
    expect(new URL(response.headers.get("location") ?? "").searchParams.get("error")).toBe(
      "MissingCSRF",
    );
  });

  it("refuses a planted CSRF cookie whose hash was not made with our secret", async () => {
    const client = new Client(config());
    client.jar.set("authjs.csrf-token", `${"a".repeat(64)}|${"b".repeat(64)}`);
    const response = await client.post("/auth/callback/credentials", {
      csrfToken: "a".repeat(64),
      username: "ada",
      password: "lovelace",
    });
    expect(new URL(response.headers.get("location") ?? "").searchParams.get("error")).toBe(
      "MissingCSRF",
    );
  });

  it("sends hostile callback URLs to the site's own origin (open redirect)", async () => {
    for (const hostile of [
      "https://evil.test/steal",
      "//evil.test",
      "/\\evil.test",
      "javascript:alert(1)",
      "http://localhost:3000@evil.test/",
    ]) {
      const response = await signIn(new Client(config()), {
        username: "ada",
        password: "lovelace",
        callbackUrl: hostile,
      });
      const location = new URL(response.headers.get("location") ?? "");
      expect(location.origin, hostile).toBe(ORIGIN);
    }
  });

  it("returns the redirect as JSON with X-Auth-Return-Redirect", async () => {
    const client = new Client(config());
    const response = await signIn(
      client,
      { username: "ada", password: "lovelace" },
      { "X-Auth-Return-Redirect": "1" },
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ url: ORIGIN });
    expect(await client.session()).not.toBeNull();
  });

  it("denies when the signIn callback returns false, and redirects when it returns a URL", async () => {
    const denied = await signIn(new Client(config({ callbacks: { signIn: () => false } })), {
      username: "ada",
      password: "lovelace",
    });
    expect(new URL(denied.headers.get("location") ?? "").searchParams.get("error")).toBe(
      "AccessDenied",
    );
    const elsewhere = await signIn(
      new Client(config({ callbacks: { signIn: () => "/welcome" } })),
      { username: "ada", password: "lovelace" },
    );
    expect(elsewhere.headers.get("location")).toBe(`${ORIGIN}/welcome`);
  });

  it("turns an error thrown by the signIn callback into AccessDenied", async () => {
    const client = new Client(
      config({
        callbacks: {
          signIn: () => {
            throw new Error("banned");
          },
        },
      }),
    );
    const response = await signIn(client, { username: "ada", password: "lovelace" });
    expect(new URL(response.headers.get("location") ?? "").searchParams.get("error")).toBe(
      "AccessDenied",
    );
  });

  it("passes the jwt callback's claims to the session callback, and emits signIn", async () => {
    const events: string[] = [];
    const client = new Client(
      config({
        callbacks: {
          jwt: ({ token, user, trigger }) => (user ? { ...token, role: "admin", trigger } : token),
          session: ({ session, token }) => ({
            ...session,
            role: token?.role,
            trigger: token?.trigger,
          }),
        },
        events: { signIn: ({ user }) => void events.push(`signIn:${user.id}`) },
      }),
    );
    await signIn(client, { username: "ada", password: "lovelace" });
    expect(await client.session()).toMatchObject({ role: "admin", trigger: "signIn" });
    expect(events).toEqual(["signIn:1"]);
  });

  it("uses __Secure- cookies on https and the __Host- CSRF cookie", async () => {
    const client = new Client(config(), "https://app.example");
    const csrf = await client.get("/auth/csrf");
    expect([...setCookies(csrf).keys()]).toContain("__Host-authjs.csrf-token");
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const response = await client.post("/auth/callback/credentials", {
      csrfToken,
      username: "ada",
      password: "lovelace",
    });
    const cookie = setCookies(response).get("__Secure-authjs.session-token");
    expect(cookie?.secure).toBe(true);
    expect(await client.session()).not.toBeNull();
  });

  it("with pages.signIn set, sends credential errors there", async () => {
    const client = new Client(config({ pages: { signIn: "/login" } }));
    const response = await signIn(client, { username: "ada", password: "bad" });
    const location = new URL(response.headers.get("location") ?? "");
    expect(location.pathname).toBe("/login");
    expect(location.searchParams.get("error")).toBe("CredentialsSignin");
  });
});
