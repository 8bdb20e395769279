/**
 * WebAuthn options and verification through `Auth()`, with the real @simplewebauthn/server and a
 * software authenticator that signs genuinely (see webauthn-authenticator.ts). Chromium's own
 * authenticator drives the same flows in e2e/webauthn.test.ts.
 */
import type { AuthConfig } from "@tessera/core";
import Passkey from "@tessera/core/providers/passkey";
import WebAuthn from "@tessera/core/providers/webauthn";
import { createMemoryStore, MemoryAdapter, type MemoryStore } from "@tessera/memory";
import { beforeEach, describe, expect, it } from "vitest";
import { Client, ORIGIN, recordingLogger, SECRET } from "./helpers.js";
import { setCookies } from "./set-cookie.js";
import {
  type CreationOptionsJSON,
  type RequestOptionsJSON,
  SoftAuthenticator,
  type Tweaks,
} from "./webauthn-authenticator.js";

const ERROR_PAGE = `${ORIGIN}/auth/error?error=WebAuthnVerificationError`;

/** Asserts the error redirect and the logged reason of a refusal. */
function expectRefused(response: Response, reason: RegExp): void {
  expect(response.headers.get("location")).toBe(ERROR_PAGE);
  expect(lastError()).toMatch(reason);
}

/** The message of the last error logged (the server-side reason of a refusal). */
function lastError(): string {
  const error = log.errors.at(-1);
  let text = "";
  let current: unknown = error;
  while (current instanceof Error) {
    text += ` ${current.message}`;
    const cause = current.cause as { err?: unknown } | undefined;
    current = cause && typeof cause === "object" && "err" in cause ? cause.err : cause;
  }
  return text;
}

let store: MemoryStore;
let log: ReturnType<typeof recordingLogger>;
let events: { name: string; message: Record<string, unknown> }[];

function config(overrides: Partial<AuthConfig> = {}): AuthConfig {
  const record =
    (name: string) =>
    (message: Record<string, unknown>): void =>
      void events.push({ name, message });
  return {
    secret: SECRET,
    trustHost: true,
    adapter: MemoryAdapter(store),
    logger: log.logger,
    providers: [Passkey()],
    experimental: { enableWebAuthn: true },
    events: {
      createUser: record("createUser"),
      linkAccount: record("linkAccount"),
      signIn: record("signIn"),
    },
    ...overrides,
  };
}

beforeEach(() => {
  store = createMemoryStore();
  log = recordingLogger();
  events = [];
});

type OptionsBody =
  | { action: "register"; options: CreationOptionsJSON & Record<string, unknown> }
  | { action: "authenticate"; options: RequestOptionsJSON & Record<string, unknown> };

async function fetchOptions(client: Client, query: Record<string, string>, provider = "passkey") {
  const response = await client.get(
    `/auth/webauthn-options/${provider}?${new URLSearchParams(query)}`,
  );
  return { response, body: (await response.json()) as OptionsBody & { error?: string } };
}

async function registrationOptions(client: Client, email: string, provider = "passkey") {
  const { body } = await fetchOptions(client, { action: "register", email }, provider);
  if (body.action !== "register") throw new Error(`expected registration options: ${body.error}`);
  return body.options;
}

async function authenticationOptions(client: Client, query: Record<string, string> = {}) {
  const { body } = await fetchOptions(client, { action: "authenticate", ...query });
  if (body.action !== "authenticate") throw new Error("expected authentication options");
  return body.options;
}

function postCallback(client: Client, action: string, data: unknown, provider = "passkey") {
  return client.post(`/auth/callback/${provider}`, {
    action,
    data: typeof data === "string" ? data : JSON.stringify(data),
    callbackUrl: "/home",
  });
}

async function signUp(
  client: Client,
  authenticator: SoftAuthenticator,
  email = "ada@example.com",
  tweaks: Tweaks = {},
) {
  const options = await registrationOptions(client, email);
  return postCallback(client, "register", authenticator.register(options, tweaks));
}

async function signInWithPasskey(
  client: Client,
  authenticator: SoftAuthenticator,
  tweaks: Tweaks = {},
) {
  const options = await authenticationOptions(client);
  return postCallback(client, "authenticate", authenticator.authenticate(options, tweaks));
}

/** A registered user, signed out again (fresh client). */
async function registeredUser(counterStep = 1) {
  const authenticator = new SoftAuthenticator(ORIGIN, counterStep);
  const response = await signUp(new Client(config()), authenticator);
  expect(response.headers.get("location")).toBe(`${ORIGIN}/home`);
  events = [];
  return authenticator;
}

describe("webauthn options", () => {
  it("offers registration to a new address, with passkey requirements and a sealed challenge", async () => {
    const client = new Client(config());
    const { response, body } = await fetchOptions(client, {
      action: "register",
      email: "Ada@Example.com",
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toContain("no-store");
    expect(body.action).toBe("register");
    const options = body.options as CreationOptionsJSON & Record<string, unknown>;
    expect(options.rp).toEqual({ id: "localhost", name: "localhost:3000" });
    expect(options.user.name).toBe("ada@example.com");
    expect(options.authenticatorSelection).toMatchObject({
      residentKey: "required",
      userVerification: "required",
    });
    expect(options.challenge).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    const cookie = setCookies(response).get("authjs.challenge");
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/", maxAge: 900 });
    // Sealed: neither the challenge nor the address can be read from the cookie.
    expect(cookie?.value.split(".")).toHaveLength(5);
    expect(cookie?.value).not.toContain(options.challenge);
  });

  it("offers discoverable authentication when no user is named (conditional UI)", async () => {
    const client = new Client(config());
    const { body } = await fetchOptions(client, { action: "authenticate" });
    expect(body.action).toBe("authenticate");
    expect(body.options).toMatchObject({ rpId: "localhost", userVerification: "required" });
    expect(body.options.allowCredentials ?? []).toEqual([]);
  });

  it("lists the user's credentials when authenticating a known address", async () => {
    const authenticator = await registeredUser();
    const [credentialId] = [...store.authenticators.keys()];
    const options = await authenticationOptions(new Client(config()), {
      email: "ada@example.com",
    });
    expect(options.allowCredentials).toEqual([
      {
        id: Buffer.from(credentialId as string, "base64").toString("base64url"),
        type: "public-key",
        transports: ["internal"],
      },
    ]);
    expect(authenticator.credentials).toHaveLength(1);
  });

  it("refuses to register an address that already has an account while signed out", async () => {
    await registeredUser();
    const { response, body } = await fetchOptions(new Client(config()), {
      action: "register",
      email: "ada@example.com",
    });
    expect(response.status).toBe(400);
    expect(body).toEqual({ error: "Invalid request" });
    expect(setCookies(response).has("authjs.challenge")).toBe(false);
  });

  it("refuses unknown actions, registration without an address, and non-WebAuthn providers", async () => {
    const client = new Client(config());
    expect((await fetchOptions(client, { action: "delete" })).body).toEqual({
      error: "Invalid action",
    });
    expect((await fetchOptions(client, { action: "register" })).response.status).toBe(400);
    expect(
      (await fetchOptions(client, { action: "register", email: "not-an-address" })).response.status,
    ).toBe(400);
    expect((await fetchOptions(client, {}, "github")).body).toEqual({
      error: "Invalid provider",
    });
  });

  it("uses the configured relying party instead of the request URL", async () => {
    const client = new Client(
      config({
        providers: [
          Passkey({
            relayingParty: {
              id: "example.com",
              name: "Example",
              origin: "https://app.example.com",
            },
          }),
        ],
      }),
    );
    const options = await registrationOptions(client, "ada@example.com");
    expect(options.rp).toEqual({ id: "example.com", name: "Example" });
  });

  it("picks the configured RP ID that fits the request's host", async () => {
    const client = new Client(
      config({
        providers: [Passkey({ relayingParty: { id: ["example.com", "localhost"] } })],
      }),
    );
    expect((await registrationOptions(client, "ada@example.com")).rp.id).toBe("localhost");
  });
});

describe("webauthn registration", () => {
  it("creates the user, the account and the authenticator, and signs in", async () => {
    const client = new Client(config());
    const response = await signUp(client, new SoftAuthenticator());
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${ORIGIN}/home`);
    const cookies = setCookies(response);
    expect(cookies.get("authjs.challenge")?.maxAge).toBe(0);
    expect(cookies.has("authjs.session-token")).toBe(true);
    expect(await client.session()).toMatchObject({ user: { email: "ada@example.com" } });

    const [user] = [...store.users.values()];
    // A typed address proves nothing: it must not count as verified (pre-account takeover).
    expect(user).toMatchObject({ email: "ada@example.com", emailVerified: null });
    const [authenticator] = [...store.authenticators.values()];
    expect(authenticator).toMatchObject({
      userId: user?.id,
      counter: 0,
      credentialBackedUp: false,
      credentialDeviceType: "singleDevice",
      transports: "internal",
    });
    // Stored as standard base64 with padding, as Auth.js stores it (its type says "Base64 encoded").
    expect(authenticator?.credentialID).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect((authenticator?.credentialID.length ?? 1) % 4).toBe(0);
    expect(authenticator?.providerAccountId).toBe(authenticator?.credentialID);
    const [account] = [...store.accounts.values()];
    expect(account).toMatchObject({
      type: "webauthn",
      provider: "passkey",
      providerAccountId: authenticator?.credentialID,
      userId: user?.id,
    });
    expect(events.map((e) => e.name)).toEqual(["createUser", "linkAccount", "signIn"]);
    expect(events[2]?.message).toMatchObject({ isNewUser: true });
  });

  it("works with JWT sessions too", async () => {
    const client = new Client(config({ session: { strategy: "jwt" } }));
    await signUp(client, new SoftAuthenticator());
    const [user] = [...store.users.values()];
    expect(await client.session()).toMatchObject({ user: { email: "ada@example.com" } });
    expect(store.sessions.size).toBe(0);
    expect(user).toBeDefined();
  });

  it("adds a passkey to the signed-in user instead of creating another", async () => {
    const client = new Client(config());
    const first = new SoftAuthenticator();
    await signUp(client, first);
    const [user] = [...store.users.values()];
    // Signed in: registration options for this user, excluding the credential already held.
    const options = await registrationOptions(client, "ignored@example.com");
    expect(options.user.name).toBe("ada@example.com");
    expect(options.excludeCredentials).toHaveLength(1);
    const second = new SoftAuthenticator();
    const response = await postCallback(client, "register", second.register(options));
    expect(response.headers.get("location")).toBe(`${ORIGIN}/home`);
    expect(store.users.size).toBe(1);
    expect([...store.authenticators.values()].map((a) => a.userId)).toEqual([user?.id, user?.id]);
    // The new passkey signs in to the same user.
    const fresh = new Client(config());
    await signInWithPasskey(fresh, second);
    expect(await fresh.session()).toMatchObject({ user: { email: "ada@example.com" } });
  });

  it("rejects a registration signed for another origin (phishing)", async () => {
    const client = new Client(config());
    const response = await signUp(client, new SoftAuthenticator(), "ada@example.com", {
      origin: "https://evil.example",
    });
    expectRefused(response, /origin "https:\/\/evil\.example"/);
    expect(setCookies(response).get("authjs.challenge")?.maxAge).toBe(0);
    expect(store.users.size).toBe(0);
    expect(store.authenticators.size).toBe(0);
    expect(await client.session()).toBeNull();
  });

  it("rejects a registration bound to another RP ID", async () => {
    const response = await signUp(new Client(config()), new SoftAuthenticator(), undefined, {
      rpId: "evil.example",
    });
    expectRefused(response, /RP ID hash/);
    expect(store.users.size).toBe(0);
  });

  it("rejects a registration over a challenge other than the one in the cookie", async () => {
    const response = await signUp(new Client(config()), new SoftAuthenticator(), undefined, {
      challenge: "c29tZS1vdGhlci1jaGFsbGVuZ2U",
    });
    expectRefused(response, /challenge "c29tZS1vdGhlci1jaGFsbGVuZ2U"/);
    expect(store.users.size).toBe(0);
  });

  it("requires user verification for passkeys", async () => {
    const response = await signUp(new Client(config()), new SoftAuthenticator(), undefined, {
      userVerified: false,
    });
    expectRefused(response, /User verification was required/);
    expect(store.users.size).toBe(0);
  });

  it("rejects an assertion posted as a registration", async () => {
    const authenticator = await registeredUser();
    const client = new Client(config());
    const options = await registrationOptions(client, "grace@example.com");
    const assertion = authenticator.authenticate({ ...options, rpId: "localhost" });
    const response = await postCallback(client, "register", assertion);
    expectRefused(response, /type: webauthn\.get/);
    expect(store.users.size).toBe(1);
  });
});

describe("webauthn authentication", () => {
  it("signs in with the passkey and advances the counter", async () => {
    const authenticator = await registeredUser();
    const client = new Client(config());
    const response = await signInWithPasskey(client, authenticator);
    expect(response.headers.get("location")).toBe(`${ORIGIN}/home`);
    expect(setCookies(response).get("authjs.challenge")?.maxAge).toBe(0);
    expect(await client.session()).toMatchObject({ user: { email: "ada@example.com" } });
    expect([...store.authenticators.values()][0]?.counter).toBe(1);
    expect(events.map((e) => e.name)).toEqual(["signIn"]);
    expect(events[0]?.message).toMatchObject({
      isNewUser: false,
      account: { type: "webauthn", provider: "passkey" },
    });
  });

  it("a flood of bad assertions naming a victim's credential id does not lock the victim out", async () => {
    // Credential ids are not secret (webauthn-options lists them for a known address), and an
    // assertion cannot be guessed, so a limit per credential id would only serve lockouts.
    const authenticator = await registeredUser();
    for (let i = 0; i < 12; i++) {
      const attacker = new Client(config());
      const forged = authenticator.authenticate(await authenticationOptions(attacker));
      forged.response.signature = Buffer.from(`not-a-signature-${i}`).toString("base64url");
      expectRefused(await postCallback(attacker, "authenticate", forged), /could not be verified/);
    }
    const victim = new Client(config());
    const response = await signInWithPasskey(victim, authenticator);
    expect(response.headers.get("location")).toBe(`${ORIGIN}/home`);
  });

  it("accepts authenticators whose counter stays at zero", async () => {
    const authenticator = await registeredUser(0);
    for (let i = 0; i < 2; i++) {
      const client = new Client(config());
      await signInWithPasskey(client, authenticator);
      expect(await client.session()).not.toBeNull();
    }
  });

  it("rejects an assertion signed for another origin (phishing)", async () => {
    const authenticator = await registeredUser();
    const client = new Client(config());
    const response = await signInWithPasskey(client, authenticator, {
      origin: "https://login.evil.example",
    });
    expectRefused(response, /origin "https:\/\/login\.evil\.example"/);
    expect(await client.session()).toBeNull();
  });

  it("rejects an assertion bound to another RP ID", async () => {
    const authenticator = await registeredUser();
    const client = new Client(config());
    const response = await signInWithPasskey(client, authenticator, { rpId: "evil.example" });
    expectRefused(response, /RP ID hash/);
    expect(await client.session()).toBeNull();
  });

  it("rejects a replayed challenge, cookie and response included", async () => {
    const authenticator = await registeredUser(0);
    const client = new Client(config());
    const options = await authenticationOptions(client);
    const challengeCookie = client.jar.get("authjs.challenge") as string;
    const assertion = authenticator.authenticate(options);
    const first = await postCallback(client, "authenticate", assertion);
    expect(first.headers.get("location")).toBe(`${ORIGIN}/home`);
    expect(client.jar.has("authjs.challenge")).toBe(false);

    // An attacker who captured the whole request sends it again from a clean browser.
    const attacker = new Client(config());
    attacker.jar.set("authjs.challenge", challengeCookie);
    const replay = await postCallback(attacker, "authenticate", assertion);
    expectRefused(replay, /already used/);
    expect(await attacker.session()).toBeNull();
  });

  it("rejects an old response against a new challenge", async () => {
    const authenticator = await registeredUser(0);
    const client = new Client(config());
    const stale = authenticator.authenticate(await authenticationOptions(client));
    await authenticationOptions(client); // a new challenge replaces the old one
    const response = await postCallback(client, "authenticate", stale);
    expectRefused(response, /Unexpected authentication response challenge/);
    expect(await client.session()).toBeNull();
  });

  it("rejects a counter that goes backwards (cloned authenticator) and keeps the stored counter", async () => {
    const authenticator = await registeredUser();
    await signInWithPasskey(new Client(config()), authenticator, { counter: 5 });
    const [stored] = [...store.authenticators.values()];
    expect(stored?.counter).toBe(5);
    for (const counter of [3, 5]) {
      const client = new Client(config());
      const response = await signInWithPasskey(client, authenticator, { counter });
      expectRefused(response, /counter value \d was lower than expected 5/);
      expect(await client.session()).toBeNull();
    }
    expect([...store.authenticators.values()][0]?.counter).toBe(5);
  });

  it("rejects a sign-in without the challenge cookie", async () => {
    const authenticator = await registeredUser();
    const client = new Client(config());
    const options = await authenticationOptions(client);
    client.jar.delete("authjs.challenge");
    const response = await postCallback(
      client,
      "authenticate",
      authenticator.authenticate(options),
    );
    expectRefused(response, /cookie is missing/);
  });

  it("rejects a challenge issued for another WebAuthn provider", async () => {
    const both = config({
      providers: [WebAuthn({ enableConditionalUI: false }), Passkey()],
    });
    const authenticator = await registeredUser();
    const client = new Client(both);
    const { body } = await fetchOptions(client, { action: "authenticate" }, "webauthn");
    const assertion = authenticator.authenticate(body.options as RequestOptionsJSON);
    const response = await postCallback(client, "authenticate", assertion, "passkey");
    expectRefused(response, /issued for another provider/);
    expect(await client.session()).toBeNull();
  });

  it("rejects a credential registered through another WebAuthn provider", async () => {
    const authenticator = await registeredUser();
    const client = new Client(
      config({ providers: [WebAuthn({ enableConditionalUI: false }), Passkey()] }),
    );
    const { body } = await fetchOptions(client, { action: "authenticate" }, "webauthn");
    const assertion = authenticator.authenticate(body.options as RequestOptionsJSON);
    const response = await postCallback(client, "authenticate", assertion, "webauthn");
    expectRefused(response, /not linked to an account of the provider "webauthn"/);
    expect(await client.session()).toBeNull();
  });

  it("rejects an unknown credential and a registration challenge used to sign in", async () => {
    const adasKey = await registeredUser();
    const stranger = new SoftAuthenticator();
    stranger.register({
      challenge: "AAAA",
      rp: { id: "localhost", name: "x" },
      user: { id: "AAAA", name: "x", displayName: "x" },
    });
    const client = new Client(config());
    const unknown = await signInWithPasskey(client, stranger);
    expectRefused(unknown, /No registered authenticator/);

    const options = await registrationOptions(client, "grace@example.com");
    const mixed = await postCallback(
      client,
      "authenticate",
      adasKey.authenticate({ challenge: options.challenge, rpId: "localhost" }),
    );
    expectRefused(mixed, /registration challenge cannot complete a sign-in/);
  });

  it("refuses another user's passkey while signed in", async () => {
    const adasKey = await registeredUser();
    const client = new Client(config());
    await signUp(client, new SoftAuthenticator(), "grace@example.com");
    // Signed in, the options list Grace's credentials only; a forged post uses Ada's anyway.
    const credentialId = Buffer.from(adasKey.credentials[0]?.id as Uint8Array).toString(
      "base64url",
    );
    const response = await signInWithPasskey(client, adasKey, { credentialId });
    expect(response.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=AccountNotLinked`);
    expect(await client.session()).toMatchObject({ user: { email: "grace@example.com" } });
  });

  it("answers malformed callbacks with an error redirect, never a 500", async () => {
    const client = new Client(config());
    for (const [action, data, reason] of [
      ["authenticate", "{not json", /not valid JSON/],
      ["authenticate", JSON.stringify({ id: "!!", response: {} }), /not base64url/],
      ["authenticate", JSON.stringify({ id: "AAAA" }), /lacks `id` or `response`/],
      ["authenticate", "x".repeat(70_000), /too large/],
      ["dance", "{}", /needs `action`/],
    ] as const) {
      await authenticationOptions(client);
      const response = await postCallback(client, action, data);
      expect(response.status).toBe(302);
      expectRefused(response, reason);
    }
    await authenticationOptions(client);
    const json = await client.postJson("/auth/callback/passkey", {
      action: "authenticate",
      data: 42,
    });
    expectRefused(json, /lacks `id` or `response`/);
  });

  it("honours the signIn callback", async () => {
    const authenticator = await registeredUser();
    const client = new Client(config({ callbacks: { signIn: () => "/blocked" } }));
    const response = await signInWithPasskey(client, authenticator);
    expect(response.headers.get("location")).toBe(`${ORIGIN}/blocked`);
    expect(await client.session()).toBeNull();
  });
});
