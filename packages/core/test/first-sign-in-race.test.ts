/**
 * First sign-ins that race: eight sign-ins at once of a person who has no user yet (a double
 * click, tabs restored together, a retrying client), on one app instance and on two sharing one
 * database. Each must succeed and all must end in one user: the store's unique constraints let one
 * create through, and the others find that user. Real stores (memory, SQLite, PostgreSQL, MariaDB,
 * Redis), a real OpenID Provider, and e-mail links captured through `sendVerificationRequest`.
 */
import type { AuthConfig, Session } from "@tessera/core";
import type { Adapter } from "@tessera/core/adapters";
import type { OIDCConfig } from "@tessera/core/providers";
import Email from "@tessera/core/providers/email";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { followLink, recordingSender, requestLink } from "./email-helpers.js";
import { emailPasswordCredentials } from "./fixtures/credentials.js";
import { deliverCallback, startSignIn } from "./fixtures/oauth-flow.js";
import { type RunningOidcProvider, startOidcProvider } from "./fixtures/oidc-provider.js";
import { type SharedDatabase, sharedDatabaseTargets } from "./fixtures/shared-database.js";
import { Client, ORIGIN, recordingLogger, SECRET } from "./helpers.js";

const PARALLEL = 8;
const ADA = { sub: "ada-race", email: "ada.race@example.com", email_verified: true, name: "Ada" };

let op: RunningOidcProvider;
beforeAll(async () => {
  op = await startOidcProvider({
    clients: [
      {
        client_id: "race",
        client_secret: "race-secret",
        redirect_uris: [`${ORIGIN}/auth/callback/op`],
      },
    ],
    accounts: [ADA],
  });
});
afterAll(() => op?.close());

const opProvider: () => OIDCConfig = () => ({
  id: "op",
  name: "OP",
  type: "oidc",
  issuer: op.issuer,
  clientId: "race",
  clientSecret: "race-secret",
});

/** One app instance's config: database sessions, the session carries the user id. */
function instanceConfig(adapter: Adapter, sender: ReturnType<typeof recordingSender>) {
  const log = recordingLogger();
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    adapter,
    session: { strategy: "database" },
    // Attempt limits are not what these tests are about: eight links for one address are.
    rateLimit: false,
    logger: log.logger,
    callbacks: { session: ({ session, user }) => ({ ...session, userId: user.id }) as Session },
    providers: [
      emailPasswordCredentials(),
      opProvider(),
      // Tries per address are counted before a link is checked (short-code brute force): eight
      // links opened at once must stay within the limit.
      Email({ sendVerificationRequest: sender.sendVerificationRequest, maxAttempts: 2 * PARALLEL }),
    ],
  };
  return { config, log };
}

/** Where a sign-in answer sends the browser, as a normalised URL (`null` when it is no redirect). */
function landing(response: Response): string | null {
  const location = response.headers.get("location");
  return location === null ? null : new URL(location).href;
}

/** The user id of each client's session (`undefined` when it has none). */
async function sessionUserIds(clients: Client[]): Promise<unknown[]> {
  return Promise.all(
    clients.map(async (client) => ((await client.session()) as { userId?: unknown })?.userId),
  );
}

for (const target of sharedDatabaseTargets) {
  describe.each([1, 2])(`${target.label}, %i app instance(s)`, (instances) => {
    let database: SharedDatabase;
    afterEach(async () => {
      await database?.close();
    });

    async function setUp() {
      database = await target.open(instances);
      const sender = recordingSender();
      const apps = database.adapters.map((adapter) => instanceConfig(adapter, sender));
      const clients = Array.from(
        { length: PARALLEL },
        (_, index) => new Client(apps[index % apps.length]?.config as AuthConfig),
      );
      const adapter = database.adapters[0] as Required<Adapter>;
      const loggedErrors = () => apps.flatMap((app) => app.log.errors);
      return { clients, sender, adapter, loggedErrors };
    }

    it(`${PARALLEL} parallel credentials first sign-ins of one new user all succeed, into one user`, async () => {
      const { clients, adapter, loggedErrors } = await setUp();
      const email = "grace.race@example.com";
      const tokens = await Promise.all(clients.map((client) => client.csrfToken()));
      const responses = await Promise.all(
        clients.map((client, index) =>
          client.post("/auth/callback/credentials", {
            csrfToken: tokens[index] as string,
            email,
            password: "pw",
          }),
        ),
      );
      expect(responses.map(landing)).toEqual(Array(PARALLEL).fill(`${ORIGIN}/`));
      expect(loggedErrors().map(String)).toEqual([]);
      const user = await adapter.getUserByEmail(email);
      expect(user?.id).toBe(`u-${email}`);
      expect(await sessionUserIds(clients)).toEqual(Array(PARALLEL).fill(user?.id));
    });

    it(`${PARALLEL} parallel OAuth first sign-ins of one provider account all succeed, into one user with one account`, async () => {
      const { clients, adapter, loggedErrors } = await setUp();
      // Each browser goes through the provider first; their callbacks then arrive at once.
      const answers = await Promise.all(
        clients.map(async (client) => op.authorize((await startSignIn(client, "op")).href)),
      );
      const responses = await Promise.all(
        clients.map((client, index) =>
          deliverCallback(client, answers[index] as Parameters<typeof deliverCallback>[1]),
        ),
      );
      expect(responses.map(landing)).toEqual(Array(PARALLEL).fill(`${ORIGIN}/`));
      expect(loggedErrors().map(String)).toEqual([]);
      const user = await adapter.getUserByAccount({ provider: "op", providerAccountId: ADA.sub });
      expect(user?.email).toBe(ADA.email);
      expect(await sessionUserIds(clients)).toEqual(Array(PARALLEL).fill(user?.id));
      expect(await adapter.listAccountsByUserId(user?.id ?? "")).toHaveLength(1);
    });

    it(`${PARALLEL} parallel e-mail first sign-ins of one new address all succeed, into one user`, async () => {
      const { clients, sender, adapter, loggedErrors } = await setUp();
      const email = "lin.race@example.com";
      const links: URL[] = [];
      for (const client of clients) {
        await requestLink(client, "email", email);
        links.push(sender.lastLink(email));
      }
      const responses = await Promise.all(
        clients.map((client, index) => followLink(client, links[index] as URL)),
      );
      expect(responses.map(landing)).toEqual(Array(PARALLEL).fill(`${ORIGIN}/`));
      expect(loggedErrors().map(String)).toEqual([]);
      const user = await adapter.getUserByEmail(email);
      expect(user?.emailVerified).toBeInstanceOf(Date);
      expect(await sessionUserIds(clients)).toEqual(Array(PARALLEL).fill(user?.id));
    });
  });
}
