/**
 * An address a provider did not verify identifies nobody. A user created from it keeps it (for
 * display, and for schemas whose `users.email` is NOT NULL), but an e-mail link for that address
 * does not open that user, and a provider that did verify it is not linked into it: otherwise an
 * attacker who signs up first with the victim's address at a lax provider (pre-account takeover)
 * would share the victim's account later. Real parts: two `oidc-provider` OPs (one says
 * `email_verified: false`, the other `true`), the SMTP server fixture for the e-mail links, and
 * PostgreSQL with Auth.js's own `@auth/pg-adapter` on a schema whose `email` is NOT NULL UNIQUE
 * (Prisma's and create-t3-app's Drizzle tables). Discord's endpoints are played by the provider
 * server fixture (discord.com cannot run here).
 */
import PostgresAdapter from "@auth/pg-adapter";
import { type AuthConfig, customFetch } from "@tessera/core";
import type { Adapter, AdapterUser } from "@tessera/core/adapters";
import type { OIDCConfig } from "@tessera/core/providers";
import Discord from "@tessera/core/providers/discord";
import Nodemailer from "@tessera/core/providers/nodemailer";
import { createMemoryStore, MemoryAdapter } from "@tessera/memory";
import type pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { followLink, linkIn, requestLink, startSmtpServer } from "./email-helpers.js";
import { useAuthPgSchema } from "./fixtures/auth-pg-schema.js";
import { deliverCallback, locationOf, startSignIn } from "./fixtures/oauth-flow.js";
import { type RunningOidcProvider, startOidcProvider } from "./fixtures/oidc-provider.js";
import { answerAuthorization, tokenResponse } from "./fixtures/provider-flow.js";
import { type ProviderServer, startProviderServer } from "./fixtures/provider-server.js";
import { Client, ORIGIN, recordingLogger, SECRET } from "./helpers.js";

const VICTIM = "grace@example.com";
const callback = (id: string) => `${ORIGIN}/auth/callback/${id}`;

let lax: RunningOidcProvider;
let verifying: RunningOidcProvider;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let discordServer: ProviderServer;

beforeAll(async () => {
  // The attacker's account at an OP that lets anyone claim any address, unverified.
  lax = await startOidcProvider({
    clients: [{ client_id: "lax", client_secret: "lax-secret", redirect_uris: [callback("lax")] }],
    accounts: [{ sub: "mallory", email: VICTIM, email_verified: false, name: "Mallory" }],
  });
  // The victim's account at an OP that verified her address.
  verifying = await startOidcProvider({
    clients: [
      { client_id: "strict", client_secret: "strict-secret", redirect_uris: [callback("strict")] },
    ],
    accounts: [{ sub: "grace", email: VICTIM, email_verified: true, name: "Grace" }],
  });
  smtp = await startSmtpServer();
  discordServer = await startProviderServer();
});
afterAll(async () => {
  await Promise.all([lax?.close(), verifying?.close(), smtp?.close(), discordServer?.close()]);
});
beforeEach(() => discordServer.reset());

function oidc(id: string, op: RunningOidcProvider, extra: Partial<OIDCConfig> = {}): OIDCConfig {
  return {
    id,
    name: id,
    type: "oidc",
    issuer: op.issuer,
    clientId: id,
    clientSecret: `${id}-secret`,
    ...extra,
  };
}

function configFor(adapter: Adapter): AuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    adapter,
    session: { strategy: "database" },
    logger: recordingLogger().logger,
    providers: [
      oidc("lax", lax),
      oidc("strict", verifying, { allowDangerousEmailAccountLinking: true }),
      Nodemailer({ server: smtp.url, from: "no-reply@tessera.test" }),
      Discord({
        clientId: "discord-id",
        clientSecret: "discord-secret",
        [customFetch]: discordServer.fetch,
      }),
    ],
  };
}

async function signInAt(client: Client, id: string, op: RunningOidcProvider): Promise<Response> {
  return deliverCallback(client, await op.authorize((await startSignIn(client, id)).href));
}

/** Asks for a link for `email` over SMTP and opens it with `client`. */
async function openEmailLink(client: Client, email: string): Promise<Response> {
  const mailed = smtp.nextMail();
  await requestLink(client, "nodemailer", email);
  return followLink(client, linkIn((await mailed).text));
}

async function signedInUser(client: Client): Promise<Record<string, unknown> | undefined> {
  return (await client.session())?.user as Record<string, unknown> | undefined;
}

interface Store {
  label: string;
  adapter(): Adapter;
  /** Every stored user with `email`. */
  usersWith(email: string): Promise<AdapterUser[]>;
}

function memoryStore(): Store {
  const store = createMemoryStore();
  const adapter = MemoryAdapter(store);
  return {
    label: "@tessera/memory (lists a user's accounts)",
    adapter: () => adapter,
    usersWith: async (email) => [...store.users.values()].filter((user) => user.email === email),
  };
}

function authPgStore(pool: pg.Pool): Store {
  return {
    label: "@auth/pg-adapter on users.email NOT NULL UNIQUE (cannot list accounts)",
    adapter: () => PostgresAdapter(pool) as unknown as Adapter,
    usersWith: async (email) =>
      (await pool.query<AdapterUser>("SELECT * FROM users WHERE email = $1", [email])).rows,
  };
}

const pool = useAuthPgSchema("tessera_unverified", { email: "required" });

describe.each([
  { name: "memory", store: memoryStore },
  { name: "pg", store: () => authPgStore(pool) },
])("an address an OpenID Provider did not verify ($name)", ({ store: makeStore }) => {
  let store: Store;
  let config: AuthConfig;
  beforeEach(async () => {
    store = makeStore();
    config = configFor(store.adapter());
    if (store.label.startsWith("@auth/pg-adapter"))
      await pool.query("TRUNCATE users, accounts, sessions, verification_token");
  });

  it("is kept on the user the OP's sign-in creates, but not as verified", async () => {
    const mallory = new Client(config);
    expect(locationOf(await signInAt(mallory, "lax", lax)).href).toBe(`${ORIGIN}/`);
    expect(await signedInUser(mallory)).toMatchObject({ email: VICTIM });
    const [user, ...others] = await store.usersWith(VICTIM);
    expect(others).toHaveLength(0);
    expect(user?.emailVerified ?? null).toBeNull();
  });

  it("pre-account takeover: the victim's e-mail link does not open the user the attacker's unverified address created", async () => {
    await signInAt(new Client(config), "lax", lax);

    const victim = new Client(config);
    const response = await openEmailLink(victim, VICTIM);
    expect(locationOf(response).href).toBe(`${ORIGIN}/auth/signin?error=AccountNotLinked`);
    expect(await victim.session()).toBeNull();
    const [user] = await store.usersWith(VICTIM);
    expect(user?.emailVerified ?? null).toBeNull();

    // The attacker's account opens that user as before, and it still is not the victim's.
    const mallory = new Client(config);
    await signInAt(mallory, "lax", lax);
    expect(await signedInUser(mallory)).toMatchObject({ email: VICTIM });
  });

  it("pre-account takeover: a provider that verified the address is not linked into that user", async () => {
    await signInAt(new Client(config), "lax", lax);

    const victim = new Client(config);
    const response = await signInAt(victim, "strict", verifying);
    expect(locationOf(response).searchParams.get("error")).toBe("OAuthAccountNotLinked");
    expect(await victim.session()).toBeNull();
  });

  it("the user it was given to proves it by opening a link while signed in, and then it counts", async () => {
    const owner = new Client(config);
    await signInAt(owner, "lax", lax);
    const response = await openEmailLink(owner, VICTIM);
    expect(locationOf(response).href).toBe(`${ORIGIN}/`);
    const [user, ...others] = await store.usersWith(VICTIM);
    expect(others).toHaveLength(0);
    expect(user?.emailVerified).toBeInstanceOf(Date);

    // Proven now: a signed-out e-mail sign-in opens the same user.
    const later = new Client(config);
    expect(locationOf(await openEmailLink(later, VICTIM)).href).toBe(`${ORIGIN}/`);
    expect((await signedInUser(later))?.email).toBe(VICTIM);
    expect(await store.usersWith(VICTIM)).toHaveLength(1);
  });

  it("a verified address at sign-up is stored as verified, and an e-mail link opens that user", async () => {
    const grace = new Client(config);
    await signInAt(grace, "strict", verifying);
    const [user] = await store.usersWith(VICTIM);
    expect(user?.emailVerified).toBeInstanceOf(Date);
    const viaLink = new Client(config);
    expect(locationOf(await openEmailLink(viaLink, VICTIM)).href).toBe(`${ORIGIN}/`);
    expect(await store.usersWith(VICTIM)).toHaveLength(1);
  });

  describe("Discord (verified: false), as in create-t3-app", () => {
    const discordUser = {
      id: "80351110224678912",
      username: "nelly",
      discriminator: "0",
      global_name: "Nelly",
      avatar: null,
      email: "nelly@example.com",
    };

    async function signInWithDiscord(client: Client, verified: boolean): Promise<Response> {
      discordServer.on("POST https://discord.com/api/oauth2/token", () => tokenResponse());
      discordServer.on("https://discord.com/api/users/@me", () =>
        Response.json({ ...discordUser, verified }),
      );
      return answerAuthorization(client, await startSignIn(client, "discord"));
    }

    it("signs a new user in and stores the unverified address (a NOT NULL email column accepts it)", async () => {
      const nelly = new Client(config);
      expect(locationOf(await signInWithDiscord(nelly, false)).href).toBe(`${ORIGIN}/`);
      expect(await signedInUser(nelly)).toMatchObject({ email: discordUser.email });
      const [user] = await store.usersWith(discordUser.email);
      expect(user?.emailVerified ?? null).toBeNull();

      // Back again through Discord: the same user.
      const again = new Client(config);
      await signInWithDiscord(again, false);
      expect(await store.usersWith(discordUser.email)).toHaveLength(1);
    });

    it("pre-account takeover: an e-mail link for the unverified address does not open that user", async () => {
      await signInWithDiscord(new Client(config), false);
      const other = new Client(config);
      const response = await openEmailLink(other, discordUser.email);
      expect(locationOf(response).searchParams.get("error")).toBe("AccountNotLinked");
      expect(await other.session()).toBeNull();
    });

    it("stores an address Discord verified as verified", async () => {
      await signInWithDiscord(new Client(config), true);
      const [user] = await store.usersWith(discordUser.email);
      expect(user?.emailVerified).toBeInstanceOf(Date);
    });
  });
});
