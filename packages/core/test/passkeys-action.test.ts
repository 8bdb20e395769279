/**
 * The passkeys action under the JWT session strategy, and the in-process `listPasskeys`,
 * `renamePasskey` and `deletePasskey` of `@tessera/core` (the same action, no CSRF token), and
 * `passkeysApi` over the `actionRunner` every integration binds to its request context: real
 * registrations and sign-ins signed by the software authenticator, the memory adapter.
 */
import {
  type AuthConfig,
  actionRunner,
  type Cookie,
  deletePasskey,
  listPasskeys,
  passkeysApi,
  renamePasskey,
} from "@tessera/core";
import { PasskeyDeletionRefused } from "@tessera/core/errors";
import Passkey from "@tessera/core/providers/passkey";
import {
  accountStoreKey,
  createMemoryStore,
  MemoryAdapter,
  type MemoryStore,
} from "@tessera/memory";
import { beforeEach, describe, expect, it } from "vitest";
import { passkeyFixture } from "./fixtures/passkeys.js";
import { Client, ORIGIN, recordingLogger, SECRET } from "./helpers.js";
import {
  type CreationOptionsJSON,
  type RequestOptionsJSON,
  SoftAuthenticator,
} from "./webauthn-authenticator.js";

let store: MemoryStore;

function config(): AuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    adapter: MemoryAdapter(store),
    session: { strategy: "jwt" },
    logger: recordingLogger().logger,
    providers: [Passkey()],
    experimental: { enableWebAuthn: true },
  };
}

beforeEach(() => {
  store = createMemoryStore();
});

async function signUp(client: Client, authenticator: SoftAuthenticator, email: string) {
  const response = await client.get(
    `/auth/webauthn-options/passkey?action=register&email=${encodeURIComponent(email)}`,
  );
  const { options } = (await response.json()) as { options: CreationOptionsJSON };
  await client.post("/auth/callback/passkey", {
    action: "register",
    data: JSON.stringify(authenticator.register(options)),
  });
  return options.user.id;
}

async function signIn(client: Client, authenticator: SoftAuthenticator) {
  const response = await client.get("/auth/webauthn-options/passkey?action=authenticate");
  const { options } = (await response.json()) as { options: RequestOptionsJSON };
  await client.post("/auth/callback/passkey", {
    action: "authenticate",
    data: JSON.stringify(authenticator.authenticate(options)),
  });
}

/** Links a GitHub account to the user with `email`, so that their passkey is not their last way in. */
function linkGitHub(email: string) {
  const owner = [...store.users.values()].find((user) => user.email === email);
  if (!owner) throw new Error(`No user with ${email} in the store.`);
  const github = { provider: "github", providerAccountId: `github-${owner.id}` };
  store.accounts.set(accountStoreKey(github), { ...github, userId: owner.id, type: "oauth" });
}

/** The incoming request of `client`, as server code receives it. */
function incoming(client: Client): Request {
  return new Request(`${ORIGIN}/account`, { headers: { cookie: client.cookieHeader() } });
}

describe("the passkeys action with JWT sessions", () => {
  it("records creation and use, and lists the passkey with its user handle for the Signal API", async () => {
    const client = new Client(config());
    const authenticator = new SoftAuthenticator();
    const userHandle = await signUp(client, authenticator, "ada@example.com");
    const first = await (await client.get("/auth/passkeys")).json();
    expect(first.passkeys).toHaveLength(1);
    expect(first.passkeys[0]).toMatchObject({ name: null, lastUsedAt: null });
    expect(first.signals).toEqual({
      rpId: "localhost",
      name: "ada@example.com",
      displayName: "ada@example.com",
      userHandles: [userHandle],
      allAcceptedCredentialIds: [first.passkeys[0].id],
    });

    const again = new Client(config());
    await signIn(again, authenticator);
    const used = await (await again.get("/auth/passkeys")).json();
    expect(used.passkeys[0].lastUsedAt).toEqual(expect.any(String));
  });

  it("answers 404 where the adapter cannot manage passkeys, and 400 for an operation it does not have", async () => {
    const client = new Client(config());
    await signUp(client, new SoftAuthenticator(), "ada@example.com");
    expect((await client.get("/auth/passkeys/delete")).status).toBe(400);
    expect(
      (await client.postJson("/auth/passkeys", { csrfToken: await client.csrfToken() })).status,
    ).toBe(400);
    const {
      listPasskeysByUserId: _l,
      updatePasskey: _u,
      deletePasskey: _d,
      ...plain
    } = MemoryAdapter(store);
    const withoutMethods = new Client({ ...config(), adapter: plain });
    withoutMethods.jar.clear();
    for (const [name, value] of client.jar) withoutMethods.jar.set(name, value);
    const refused = await withoutMethods.get("/auth/passkeys");
    expect(refused.status).toBe(404);
  });
});

describe("listPasskeys, renamePasskey and deletePasskey in-process", () => {
  it("manage the passkeys of the request's user without a CSRF token, and refuse another user's", async () => {
    const ada = new Client(config());
    await signUp(ada, new SoftAuthenticator(), "ada@example.com");
    linkGitHub("ada@example.com");
    const grace = new Client(config());
    await signUp(grace, new SoftAuthenticator(), "grace@example.com");
    const adaList = await listPasskeys(incoming(ada), config());
    const graceList = await listPasskeys(incoming(grace), config());
    const adaId = adaList?.passkeys[0]?.id ?? "";
    const graceId = graceList?.passkeys[0]?.id ?? "";

    expect(await deletePasskey(incoming(ada), config(), graceId)).toBeNull();
    expect(await renamePasskey(incoming(ada), config(), graceId, "mine")).toBeNull();
    expect((await listPasskeys(incoming(grace), config()))?.passkeys).toHaveLength(1);

    const renamed = await renamePasskey(incoming(ada), config(), adaId, "Phone");
    expect(renamed?.passkeys[0]?.name).toBe("Phone");
    const left = await deletePasskey(incoming(ada), config(), adaId);
    expect(left?.passkeys).toEqual([]);
    expect(left?.deleted).toEqual({ id: adaId, userHandle: expect.any(String) });
    expect(await listPasskeys(new Request(`${ORIGIN}/account`), config())).toBeNull();
    await expect(renamePasskey(incoming(grace), config(), graceId, "x".repeat(65))).rejects.toThrow(
      /answered 400/,
    );
  });
});

describe("passkeysApi over an integration's actionRunner", () => {
  it("lists, renames and deletes the request's user's passkeys, and refuses another user's (IDOR)", async () => {
    const ada = new Client(config());
    await signUp(ada, new SoftAuthenticator(), "ada@example.com");
    linkGitHub("ada@example.com");
    const grace = new Client(config());
    await signUp(grace, new SoftAuthenticator(), "grace@example.com");
    const adaPasskeys = passkeysApi(actionRunner(incoming(ada), config()));
    const gracePasskeys = passkeysApi(actionRunner(incoming(grace), config()));
    const adaId = (await adaPasskeys.list())?.passkeys[0]?.id ?? "";
    const graceId = (await gracePasskeys.list())?.passkeys[0]?.id ?? "";
    expect(adaId).not.toBe(graceId);

    // Another user's id answers as an unknown one, and that passkey stays.
    expect(await adaPasskeys.delete(graceId)).toBeNull();
    expect(await adaPasskeys.rename(graceId, "mine")).toBeNull();
    expect((await gracePasskeys.list())?.passkeys).toEqual([
      expect.objectContaining({ id: graceId, name: null }),
    ]);

    expect((await adaPasskeys.rename(adaId, "Phone"))?.passkeys[0]?.name).toBe("Phone");
    expect((await adaPasskeys.delete(adaId))?.passkeys).toEqual([]);
    expect(await passkeysApi(actionRunner(new Request(`${ORIGIN}/`), config())).list()).toBeNull();
  });

  it("hands each answer's cookies to onCookies, so the integration can set them on its response", async () => {
    const written: Cookie[] = [];
    const run = actionRunner(new Request(`${ORIGIN}/account`), config(), {
      onCookies: (cookies) => {
        written.push(...cookies);
      },
    });
    const answer = await run({ action: "csrf" });
    expect(answer.status ?? 200).toBe(200);
    expect(written.map((cookie) => cookie.name)).toEqual(["authjs.csrf-token"]);
    expect(written).toEqual(answer.cookies);
  });

  it("throws an error naming the fix where the adapter cannot manage passkeys", async () => {
    const { listPasskeysByUserId: _list, ...adapter } = MemoryAdapter(store);
    const ada = new Client(config());
    await signUp(ada, new SoftAuthenticator(), "ada@example.com");
    const run = actionRunner(incoming(ada), { ...config(), adapter });
    await expect(passkeysApi(run).list()).rejects.toThrow(/listPasskeysByUserId/);
  });
});

describe("deleting a passkey: step-up and the last way in", () => {
  const fixture = () => {
    const passkeys = passkeyFixture();
    return { passkeys, config: { ...passkeys.config, trustHost: true } satisfies AuthConfig };
  };

  /** A client of `config` with `cookie` (a `name=value` session cookie) in its jar. */
  function clientWith(config: AuthConfig, cookie: string) {
    const client = new Client(config);
    const [name, ...value] = cookie.split("=");
    client.jar.set(name ?? "", value.join("="));
    return client;
  }

  it("refuses a stolen or long-open session (no sign-in for an hour) over HTTP, with the step-up URL", async () => {
    const { passkeys, config } = fixture();
    const client = clientWith(config, await passkeys.staleSessionCookie("ada"));
    const response = await client.postJson("/auth/passkeys/delete", {
      csrfToken: await client.csrfToken(),
      id: passkeys.passkeyId.ada,
    });
    expect(response.status).toBe(403);
    const body = (await response.json()) as { error: string; url: string };
    expect(body.error).toBe("StepUpRequired");
    const url = new URL(body.url);
    expect(url.pathname).toBe("/auth/signin");
    expect(url.searchParams.get("callbackUrl")).toBe(`${ORIGIN}/auth/account`);
    expect(passkeys.stored("ada")).toBe(true);
  });

  it("refuses a stale session in-process with PasskeyDeletionRefused (StepUpRequired, url)", async () => {
    const { passkeys, config } = fixture();
    const request = new Request(`${ORIGIN}/settings`, {
      headers: { cookie: await passkeys.staleSessionCookie("ada") },
    });
    const refused = deletePasskey(request, config, passkeys.passkeyId.ada);
    await expect(refused).rejects.toBeInstanceOf(PasskeyDeletionRefused);
    await expect(refused).rejects.toMatchObject({
      type: "PasskeyDeletionRefused",
      reason: "StepUpRequired",
      url: expect.stringContaining("/auth/signin?callbackUrl="),
      message: expect.stringMatching(/sign-in within the last ten minutes/),
    });
    expect(passkeys.stored("ada")).toBe(true);
    // A session that signed in just now deletes it.
    const fresh = new Request(`${ORIGIN}/settings`, {
      headers: { cookie: await passkeys.sessionCookie("ada") },
    });
    expect((await deletePasskey(fresh, config, passkeys.passkeyId.ada))?.passkeys).toEqual([]);
  });

  it("refuses to delete the passkey that is the user's last way in (lock-out), over HTTP and in-process", async () => {
    const { passkeys, config } = fixture();
    // Ada's GitHub account goes: her passkey is left as her only way in.
    passkeys.store.accounts.delete(
      accountStoreKey({ provider: "github", providerAccountId: "github-ada" }),
    );
    const cookie = await passkeys.sessionCookie("ada");
    const client = clientWith(config, cookie);
    const response = await client.postJson("/auth/passkeys/delete", {
      csrfToken: await client.csrfToken(),
      id: passkeys.passkeyId.ada,
    });
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({ error: "LastSignInMethod" });
    const request = new Request(`${ORIGIN}/settings`, { headers: { cookie } });
    await expect(deletePasskey(request, config, passkeys.passkeyId.ada)).rejects.toMatchObject({
      reason: "LastSignInMethod",
      message: expect.stringMatching(/add another sign-in method/),
    });
    expect(passkeys.stored("ada")).toBe(true);
  });

  it("answers another user's passkey as unknown even when the caller has one way in (no probing by 409)", async () => {
    const { passkeys, config } = fixture();
    passkeys.store.accounts.delete(
      accountStoreKey({ provider: "github", providerAccountId: "github-ada" }),
    );
    const request = new Request(`${ORIGIN}/settings`, {
      headers: { cookie: await passkeys.sessionCookie("ada") },
    });
    expect(await deletePasskey(request, config, passkeys.passkeyId.grace)).toBeNull();
    expect(passkeys.stored("grace")).toBe(true);
  });
});
