import { randomUUID } from "node:crypto";
import type {
  Adapter,
  AdapterAccount,
  AdapterAuthenticator,
  AdapterSession,
  AdapterUser,
  Awaitable,
  VerificationToken,
} from "@tessera/core/adapters";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  accountFixture,
  authenticatorFixture,
  dateWithMilliseconds,
  userFixture,
  verificationTokenFixture,
} from "./fixtures.js";

/** Identifies an account, as `getUserByAccount` and `unlinkAccount` receive it. */
export type AccountKey = Pick<AdapterAccount, "provider" | "providerAccountId">;

/** Identifies a verification token, as `useVerificationToken` receives it. */
export type VerificationTokenKey = Pick<VerificationToken, "identifier" | "token">;

/**
 * Direct read access to the adapter's storage, bypassing the adapter, so the suite can check what
 * was really written (and really deleted). Each reader returns `null` when the record is absent.
 */
export interface ConformanceDb {
  /** Runs once before the suite (open connections, run migrations). */
  connect?(): Awaitable<void>;
  /** Runs once after the suite (drop test tables, close connections). */
  disconnect?(): Awaitable<void>;
  user(id: string): Awaitable<AdapterUser | null>;
  account(key: AccountKey): Awaitable<AdapterAccount | null>;
  session(sessionToken: string): Awaitable<AdapterSession | null>;
  verificationToken(key: VerificationTokenKey): Awaitable<VerificationToken | null>;
  /** Needed unless `features.authenticators` is `false`. */
  authenticator?(credentialID: string): Awaitable<AdapterAuthenticator | null>;
}

/** Groups of behaviour an adapter may leave out; each defaults to `true` (tested). */
export interface ConformanceFeatures {
  /** The four WebAuthn methods. */
  authenticators?: boolean;
  /** Tessera's `listSessionsByUserId` / `deleteSessionsByUserId` extension. */
  sessionListing?: boolean;
  /** Duplicate e-mails, provider accounts and credential ids are rejected. */
  uniqueConstraints?: boolean;
}

/** Options of {@link runAdapterConformance}. */
export interface ConformanceOptions {
  /** The adapter, or a function creating it once `db.connect()` has run. */
  adapter: Adapter | (() => Awaitable<Adapter>);
  db: ConformanceDb;
  features?: ConformanceFeatures;
  /** How many callers race for one verification token (default 50). */
  parallelTokenUses?: number;
}

/** The methods of the Auth.js v5 contract (SPEC "Adapter operations"), minus WebAuthn. */
const coreMethods = [
  "createUser",
  "getUser",
  "getUserByEmail",
  "getUserByAccount",
  "updateUser",
  "deleteUser",
  "linkAccount",
  "unlinkAccount",
  "getAccount",
  "createSession",
  "getSessionAndUser",
  "updateSession",
  "deleteSession",
  "createVerificationToken",
  "useVerificationToken",
] as const satisfies readonly (keyof Adapter)[];

const authenticatorMethods = [
  "createAuthenticator",
  "getAuthenticator",
  "listAuthenticatorsByUserId",
  "updateAuthenticatorCounter",
] as const satisfies readonly (keyof Adapter)[];

const sessionListingMethods = [
  "listSessionsByUserId",
  "deleteSessionsByUserId",
] as const satisfies readonly (keyof Adapter)[];

/** Drops `null` and `undefined` fields: a store may return either for an absent optional value. */
function withoutAbsentFields<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(value).filter(([, field]) => field !== null && field !== undefined),
  ) as Partial<T>;
}

/** A session token with upper- and lower-case letters (for the exact-match checks). */
function mixedCaseToken(): string {
  return `Sess-${randomUUID()}-${randomUUID()}`.replace(/[a-f]/g, (c, i: number) =>
    i % 2 === 0 ? c.toUpperCase() : c,
  );
}

/**
 * Registers a vitest suite that checks an adapter against the Tessera/Auth.js adapter contract:
 * the 19 SPEC methods, Tessera's session-listing extension, exact `Date` round-trips, `null` for
 * missing records, cascading `deleteUser`, single-use verification tokens under concurrency and
 * WebAuthn authenticators. Call it at the top level of a `*.test.ts` file.
 *
 * Tests create their own users with unique ids and e-mails, so the suite can share a database
 * with other suites, and it never deletes data it did not create.
 *
 * @example
 * ```ts
 * import { runAdapterConformance } from "@tessera/adapter-test"
 * import { MyAdapter } from "../src/index.js"
 *
 * const client = new MyClient()
 * runAdapterConformance("my-adapter", {
 *   adapter: () => MyAdapter(client),
 *   db: {
 *     connect: () => client.connect(),
 *     disconnect: () => client.close(),
 *     user: (id) => client.users.find(id),
 *     account: (key) => client.accounts.find(key),
 *     session: (token) => client.sessions.find(token),
 *     verificationToken: (key) => client.tokens.find(key),
 *     authenticator: (id) => client.authenticators.find(id),
 *   },
 * })
 * ```
 */
export function runAdapterConformance(name: string, options: ConformanceOptions): void {
  const features: Required<ConformanceFeatures> = {
    authenticators: true,
    sessionListing: true,
    uniqueConstraints: true,
    ...options.features,
  };
  const parallelTokenUses = options.parallelTokenUses ?? 50;
  const { db } = options;
  let resolvedAdapter: Adapter | undefined;

  const expectedMethods: (keyof Adapter)[] = [
    ...coreMethods,
    ...(features.authenticators ? authenticatorMethods : []),
    ...(features.sessionListing ? sessionListingMethods : []),
  ];

  /**
   * The adapter with the methods this suite covers. Tests call methods through it; a missing
   * method fails the test that needs it (and the "implements" test names all of them).
   */
  function adapter(): Required<Adapter> {
    if (!resolvedAdapter) throw new Error("the adapter was not created: did db.connect() fail?");
    return resolvedAdapter as Required<Adapter>;
  }

  function readAuthenticator(credentialID: string): Awaitable<AdapterAuthenticator | null> {
    if (!db.authenticator) throw new Error("db.authenticator is needed to test authenticators");
    return db.authenticator(credentialID);
  }

  async function createdUser(overrides: Partial<AdapterUser> = {}): Promise<AdapterUser> {
    return adapter().createUser(userFixture(overrides));
  }

  async function createdSession(
    userId: string,
    expires = dateWithMilliseconds(86_400_000),
  ): Promise<AdapterSession> {
    return adapter().createSession({ sessionToken: mixedCaseToken(), userId, expires });
  }

  describe(`${name}: adapter conformance`, () => {
    beforeAll(async () => {
      await db.connect?.();
      resolvedAdapter =
        typeof options.adapter === "function" ? await options.adapter() : options.adapter;
    });

    afterAll(async () => {
      await db.disconnect?.();
    });

    test("implements every method of the contract that the suite covers", () => {
      const implemented = adapter() as Adapter;
      const missing = expectedMethods.filter((method) => typeof implemented[method] !== "function");
      expect(missing).toEqual([]);
    });

    describe("users", () => {
      test("createUser stores the user and returns it with the id chosen by the core", async () => {
        const user = userFixture();
        const created = await adapter().createUser(user);
        expect(created).toEqual(user);
        expect(await db.user(user.id)).toEqual(user);
      });

      test("createUser generates a UUID when the core passes no id", async () => {
        const { id: _ignored, ...withoutId } = userFixture();
        // The contract types `id` as required, but the core may leave it to the adapter.
        const created = await adapter().createUser(withoutId as AdapterUser);
        expect(created.id).toMatch(
          /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
        );
        expect(created).toEqual({ ...withoutId, id: created.id });
        expect(await db.user(created.id)).toEqual(created);
      });

      test("createUser round-trips emailVerified to the exact millisecond", async () => {
        const emailVerified = new Date("2024-02-29T23:59:58.987Z");
        const created = await createdUser({ emailVerified });
        const stored = await adapter().getUser(created.id);
        expect(stored?.emailVerified).toBeInstanceOf(Date);
        expect(stored?.emailVerified?.getTime()).toBe(emailVerified.getTime());
        expect((await db.user(created.id))?.emailVerified?.getTime()).toBe(emailVerified.getTime());
      });

      test("createUser stores a user whose emailVerified is null", async () => {
        const created = await createdUser({ emailVerified: null });
        expect(created.emailVerified).toBeNull();
        expect((await adapter().getUser(created.id))?.emailVerified).toBeNull();
      });

      test("createUser keeps non-ASCII names intact", async () => {
        const name = "Zoë Ñúñez-Łukasiewicz 李小龍 🚀";
        const created = await createdUser({ name });
        expect((await adapter().getUser(created.id))?.name).toBe(name);
      });

      test("createUser stores a user that has neither name nor image", async () => {
        const user: AdapterUser = {
          id: randomUUID(),
          email: `minimal.${randomUUID()}@example.com`,
          emailVerified: null,
        };
        await adapter().createUser(user);
        const stored = await adapter().getUser(user.id);
        expect(stored).not.toBeNull();
        expect(withoutAbsentFields(stored ?? user)).toEqual({ id: user.id, email: user.email });
      });

      if (features.uniqueConstraints) {
        test("createUser rejects a second user with an e-mail that is already taken", async () => {
          const first = await createdUser();
          await expect(
            Promise.resolve().then(() => adapter().createUser(userFixture({ email: first.email }))),
          ).rejects.toThrow();
          expect(await adapter().getUserByEmail(first.email)).toEqual(first);
        });
      }

      test("getUser returns the stored user", async () => {
        const created = await createdUser();
        expect(await adapter().getUser(created.id)).toEqual(created);
      });

      test("getUser returns null for an unknown id", async () => {
        expect(await adapter().getUser(randomUUID())).toBeNull();
      });

      test("getUserByEmail returns the user with that e-mail", async () => {
        const created = await createdUser();
        expect(await adapter().getUserByEmail(created.email)).toEqual(created);
      });

      test("getUserByEmail returns null for an unknown e-mail", async () => {
        expect(await adapter().getUserByEmail(`nobody.${randomUUID()}@example.com`)).toBeNull();
      });

      test("updateUser changes the given fields, keeps the others and returns the whole user", async () => {
        const created = await createdUser();
        const updated = await adapter().updateUser({ id: created.id, name: "Ada King" });
        const expected = { ...created, name: "Ada King" };
        expect(updated).toEqual(expected);
        expect(await db.user(created.id)).toEqual(expected);
      });

      test("updateUser sets emailVerified and it round-trips to the exact millisecond", async () => {
        const created = await createdUser({ emailVerified: null });
        const emailVerified = dateWithMilliseconds(0);
        const updated = await adapter().updateUser({ id: created.id, emailVerified });
        expect(updated.emailVerified?.getTime()).toBe(emailVerified.getTime());
        const stored = await adapter().getUser(created.id);
        expect(stored?.emailVerified).toBeInstanceOf(Date);
        expect(stored?.emailVerified?.getTime()).toBe(emailVerified.getTime());
      });

      test("updateUser clears a nullable field that is set to null", async () => {
        const created = await createdUser();
        const updated = await adapter().updateUser({ id: created.id, image: null });
        expect(updated.image ?? null).toBeNull();
        expect((await adapter().getUser(created.id))?.image ?? null).toBeNull();
      });

      test("updateUser with a new e-mail moves the e-mail lookup to the new address", async () => {
        const created = await createdUser();
        const email = `moved.${randomUUID()}@example.com`;
        await adapter().updateUser({ id: created.id, email });
        expect(await adapter().getUserByEmail(email)).toEqual({ ...created, email });
        expect(await adapter().getUserByEmail(created.email)).toBeNull();
      });

      test("deleteUser removes the user and cascades to its sessions and accounts", async () => {
        const user = await createdUser();
        const account = accountFixture(user.id);
        await adapter().linkAccount(account);
        const session = await createdSession(user.id);

        await adapter().deleteUser(user.id);

        expect(await db.user(user.id)).toBeNull();
        expect(await db.session(session.sessionToken)).toBeNull();
        expect(await db.account(account)).toBeNull();
        expect(await adapter().getUser(user.id)).toBeNull();
        expect(await adapter().getUserByEmail(user.email)).toBeNull();
        expect(await adapter().getUserByAccount(account)).toBeNull();
        expect(await adapter().getSessionAndUser(session.sessionToken)).toBeNull();
      });

      if (features.authenticators) {
        test("deleteUser cascades to the user's WebAuthn authenticators", async () => {
          const user = await createdUser();
          const authenticator = authenticatorFixture(user.id);
          await adapter().linkAccount(
            accountFixture(user.id, {
              type: "webauthn",
              provider: "passkey",
              providerAccountId: authenticator.providerAccountId,
            }),
          );
          await adapter().createAuthenticator(authenticator);

          await adapter().deleteUser(user.id);

          expect(await readAuthenticator(authenticator.credentialID)).toBeNull();
          expect(await adapter().getAuthenticator(authenticator.credentialID)).toBeNull();
          expect(await adapter().listAuthenticatorsByUserId(user.id)).toEqual([]);
        });
      }

      test("deleteUser leaves other users and their data untouched", async () => {
        const doomed = await createdUser();
        const survivor = await createdUser();
        const account = accountFixture(survivor.id);
        await adapter().linkAccount(account);
        const session = await createdSession(survivor.id);

        await adapter().deleteUser(doomed.id);

        expect(await adapter().getUser(survivor.id)).toEqual(survivor);
        expect(await adapter().getUserByAccount(account)).toEqual(survivor);
        expect(await adapter().getSessionAndUser(session.sessionToken)).toEqual({
          session,
          user: survivor,
        });
      });

      test("deleteUser of an unknown user resolves without error", async () => {
        await expect(Promise.resolve(adapter().deleteUser(randomUUID()))).resolves.not.toThrow();
      });
    });

    describe("accounts", () => {
      test("linkAccount stores every OAuth token field and getAccount returns them", async () => {
        const user = await createdUser();
        const account = accountFixture(user.id);
        await adapter().linkAccount(account);
        expect(await adapter().getAccount(account.providerAccountId, account.provider)).toEqual(
          account,
        );
        expect(await db.account(account)).toEqual(account);
      });

      test("linkAccount keeps expires_at beyond 2038 as a number of seconds", async () => {
        const user = await createdUser();
        const account = accountFixture(user.id, { expires_at: 4_102_444_800 });
        await adapter().linkAccount(account);
        const stored = await adapter().getAccount(account.providerAccountId, account.provider);
        expect(stored?.expires_at).toBe(4_102_444_800);
      });

      test("linkAccount stores an account that carries no tokens", async () => {
        const user = await createdUser();
        const account: AdapterAccount = {
          userId: user.id,
          type: "email",
          provider: "email",
          providerAccountId: user.email,
        };
        await adapter().linkAccount(account);
        const stored = await adapter().getAccount(account.providerAccountId, account.provider);
        expect(withoutAbsentFields(stored ?? {})).toEqual(account);
      });

      test("getAccount returns null for an unknown provider account", async () => {
        expect(await adapter().getAccount(randomUUID(), "example-idp")).toBeNull();
      });

      test("getUserByAccount returns the user a linked account belongs to", async () => {
        const user = await createdUser();
        const account = accountFixture(user.id);
        await adapter().linkAccount(account);
        expect(
          await adapter().getUserByAccount({
            provider: account.provider,
            providerAccountId: account.providerAccountId,
          }),
        ).toEqual(user);
      });

      test("getUserByAccount returns null for an unknown provider account", async () => {
        expect(
          await adapter().getUserByAccount({ provider: "github", providerAccountId: randomUUID() }),
        ).toBeNull();
      });

      test("getUserByAccount does not match the same account id at another provider", async () => {
        const user = await createdUser();
        const account = accountFixture(user.id, { provider: "github" });
        await adapter().linkAccount(account);
        expect(
          await adapter().getUserByAccount({
            provider: "gitlab",
            providerAccountId: account.providerAccountId,
          }),
        ).toBeNull();
      });

      test("a user can link accounts at several providers", async () => {
        const user = await createdUser();
        const github = accountFixture(user.id, { provider: "github", type: "oauth" });
        const google = accountFixture(user.id, { provider: "google" });
        await adapter().linkAccount(github);
        await adapter().linkAccount(google);
        expect(await adapter().getUserByAccount(github)).toEqual(user);
        expect(await adapter().getUserByAccount(google)).toEqual(user);
      });

      test("unlinkAccount removes the account and keeps the user and its other accounts", async () => {
        const user = await createdUser();
        const unlinked = accountFixture(user.id, { provider: "github", type: "oauth" });
        const kept = accountFixture(user.id, { provider: "google" });
        await adapter().linkAccount(unlinked);
        await adapter().linkAccount(kept);

        await adapter().unlinkAccount({
          provider: unlinked.provider,
          providerAccountId: unlinked.providerAccountId,
        });

        expect(await db.account(unlinked)).toBeNull();
        expect(
          await adapter().getAccount(unlinked.providerAccountId, unlinked.provider),
        ).toBeNull();
        expect(await adapter().getUserByAccount(unlinked)).toBeNull();
        expect(await adapter().getUser(user.id)).toEqual(user);
        expect(await adapter().getUserByAccount(kept)).toEqual(user);
      });

      if (features.uniqueConstraints) {
        test("linkAccount rejects a provider account that is already linked", async () => {
          const owner = await createdUser();
          const other = await createdUser();
          const account = accountFixture(owner.id);
          await adapter().linkAccount(account);
          await expect(
            Promise.resolve().then(() => adapter().linkAccount({ ...account, userId: other.id })),
          ).rejects.toThrow();
          expect(await adapter().getUserByAccount(account)).toEqual(owner);
        });
      }
    });

    describe("sessions", () => {
      test("createSession stores the session and returns it with the exact expiry", async () => {
        const user = await createdUser();
        const session = {
          sessionToken: mixedCaseToken(),
          userId: user.id,
          expires: dateWithMilliseconds(86_400_000),
        };
        const created = await adapter().createSession(session);
        expect(created).toEqual(session);
        const stored = await db.session(session.sessionToken);
        expect(stored).toEqual(session);
        expect(stored?.expires.getTime()).toBe(session.expires.getTime());
      });

      test("getSessionAndUser returns the session together with its user", async () => {
        const user = await createdUser();
        const session = await createdSession(user.id);
        const found = await adapter().getSessionAndUser(session.sessionToken);
        expect(found).toEqual({ session, user });
        expect(found?.session.expires).toBeInstanceOf(Date);
        expect(found?.session.expires.getTime()).toBe(session.expires.getTime());
        expect(found?.user.emailVerified?.getTime()).toBe(user.emailVerified?.getTime());
      });

      test("getSessionAndUser returns null for an unknown session token", async () => {
        expect(await adapter().getSessionAndUser(mixedCaseToken())).toBeNull();
      });

      test("getSessionAndUser matches the session token exactly, including letter case", async () => {
        const user = await createdUser();
        const session = await createdSession(user.id);
        expect(await adapter().getSessionAndUser(session.sessionToken.toLowerCase())).toBeNull();
        expect(await adapter().getSessionAndUser(session.sessionToken.toUpperCase())).toBeNull();
      });

      test("updateSession moves the expiry and returns the updated session", async () => {
        const user = await createdUser();
        const session = await createdSession(user.id);
        const expires = dateWithMilliseconds(2 * 86_400_000);
        const updated = await adapter().updateSession({
          sessionToken: session.sessionToken,
          expires,
        });
        expect(updated).toEqual({ ...session, expires });
        expect((await db.session(session.sessionToken))?.expires.getTime()).toBe(expires.getTime());
        const found = await adapter().getSessionAndUser(session.sessionToken);
        expect(found?.session.expires.getTime()).toBe(expires.getTime());
      });

      test("updateSession of an unknown session token returns null or undefined", async () => {
        const updated = await adapter().updateSession({
          sessionToken: mixedCaseToken(),
          expires: dateWithMilliseconds(86_400_000),
        });
        expect(updated ?? null).toBeNull();
      });

      test("deleteSession removes the session and keeps the user's other sessions", async () => {
        const user = await createdUser();
        const deleted = await createdSession(user.id);
        const kept = await createdSession(user.id);

        const result = await adapter().deleteSession(deleted.sessionToken);

        // Returning the deleted session is optional (it helps logging), but it must be right.
        if (result) expect(result).toEqual(deleted);
        expect(await db.session(deleted.sessionToken)).toBeNull();
        expect(await adapter().getSessionAndUser(deleted.sessionToken)).toBeNull();
        expect(await adapter().getSessionAndUser(kept.sessionToken)).toEqual({
          session: kept,
          user,
        });
      });

      test("deleteSession of an unknown token resolves without error", async () => {
        const result = await adapter().deleteSession(mixedCaseToken());
        expect(result ?? null).toBeNull();
      });
    });

    describe("verification tokens", () => {
      test("createVerificationToken stores the token", async () => {
        const token = verificationTokenFixture(`vt.${randomUUID()}@example.com`);
        const created = await adapter().createVerificationToken(token);
        // The contract allows returning nothing; when a token is returned it must be this one.
        if (created) expect(created).toEqual(token);
        expect(await db.verificationToken(token)).toEqual(token);
      });

      test("useVerificationToken returns the token with its exact expiry and deletes it", async () => {
        const token = verificationTokenFixture(`vt.${randomUUID()}@example.com`);
        await adapter().createVerificationToken(token);
        const used = await adapter().useVerificationToken({
          identifier: token.identifier,
          token: token.token,
        });
        expect(used).toEqual(token);
        expect(used?.expires).toBeInstanceOf(Date);
        expect(used?.expires.getTime()).toBe(token.expires.getTime());
        expect(await db.verificationToken(token)).toBeNull();
      });

      test("useVerificationToken returns null on the second use of a token", async () => {
        const token = verificationTokenFixture(`vt.${randomUUID()}@example.com`);
        await adapter().createVerificationToken(token);
        expect(await adapter().useVerificationToken(token)).not.toBeNull();
        expect(await adapter().useVerificationToken(token)).toBeNull();
      });

      test("useVerificationToken returns null for an unknown token", async () => {
        expect(
          await adapter().useVerificationToken({
            identifier: `vt.${randomUUID()}@example.com`,
            token: randomUUID(),
          }),
        ).toBeNull();
      });

      test("useVerificationToken returns null for another identifier and keeps the token", async () => {
        const token = verificationTokenFixture(`vt.${randomUUID()}@example.com`);
        await adapter().createVerificationToken(token);
        expect(
          await adapter().useVerificationToken({
            identifier: `intruder.${randomUUID()}@example.com`,
            token: token.token,
          }),
        ).toBeNull();
        expect(await db.verificationToken(token)).toEqual(token);
      });

      test("two tokens of the same identifier are used independently", async () => {
        const identifier = `vt.${randomUUID()}@example.com`;
        const first = verificationTokenFixture(identifier);
        const second = verificationTokenFixture(identifier);
        await adapter().createVerificationToken(first);
        await adapter().createVerificationToken(second);
        expect(await adapter().useVerificationToken(first)).toEqual(first);
        expect(await db.verificationToken(second)).toEqual(second);
        expect(await adapter().useVerificationToken(second)).toEqual(second);
      });

      test(`${parallelTokenUses} parallel useVerificationToken calls on one token let exactly one caller have it`, async () => {
        const token = verificationTokenFixture(`race.${randomUUID()}@example.com`);
        await adapter().createVerificationToken(token);
        const results = await Promise.all(
          Array.from({ length: parallelTokenUses }, () =>
            adapter().useVerificationToken({ identifier: token.identifier, token: token.token }),
          ),
        );
        const winners = results.filter((result) => result !== null);
        expect(winners).toEqual([token]);
        expect(await db.verificationToken(token)).toBeNull();
      });
    });

    if (features.authenticators) {
      describe("WebAuthn authenticators", () => {
        async function createdAuthenticator(
          userId: string,
          overrides: Partial<AdapterAuthenticator> = {},
        ): Promise<AdapterAuthenticator> {
          const authenticator = authenticatorFixture(userId, overrides);
          await adapter().linkAccount(
            accountFixture(userId, {
              type: "webauthn",
              provider: "passkey",
              providerAccountId: authenticator.providerAccountId,
            }),
          );
          return adapter().createAuthenticator(authenticator);
        }

        test("createAuthenticator stores the authenticator and returns it", async () => {
          const user = await createdUser();
          const authenticator = authenticatorFixture(user.id);
          const created = await adapter().createAuthenticator(authenticator);
          expect(created).toEqual(authenticator);
          expect(await readAuthenticator(authenticator.credentialID)).toEqual(authenticator);
          expect(await adapter().getAuthenticator(authenticator.credentialID)).toEqual(
            authenticator,
          );
        });

        test("getAuthenticator returns null for an unknown credential id", async () => {
          expect(await adapter().getAuthenticator(randomUUID())).toBeNull();
        });

        test("getAuthenticator matches the credential id exactly, including letter case", async () => {
          const user = await createdUser();
          const credentialID = `CredId_${randomUUID()}`;
          await createdAuthenticator(user.id, { credentialID });
          expect(await adapter().getAuthenticator(credentialID.toLowerCase())).toBeNull();
          expect(await adapter().getAuthenticator(credentialID.toUpperCase())).toBeNull();
        });

        test("an authenticator stored with transports null is read back with transports null", async () => {
          const user = await createdUser();
          const created = await createdAuthenticator(user.id, { transports: null });
          expect(created.transports ?? null).toBeNull();
          const stored = await adapter().getAuthenticator(created.credentialID);
          expect(stored).not.toBeNull();
          expect(stored?.transports ?? null).toBeNull();
        });

        test("an authenticator stored without transports is read back without transports", async () => {
          const user = await createdUser();
          const { transports: _ignored, ...withoutTransports } = authenticatorFixture(user.id);
          await adapter().createAuthenticator(withoutTransports);
          const stored = await adapter().getAuthenticator(withoutTransports.credentialID);
          expect(stored).not.toBeNull();
          expect(stored?.transports ?? null).toBeNull();
          expect(withoutAbsentFields(stored ?? withoutTransports)).toEqual(withoutTransports);
        });

        test("credentialBackedUp false is read back as the boolean false", async () => {
          const user = await createdUser();
          const created = await createdAuthenticator(user.id, {
            credentialBackedUp: false,
            credentialDeviceType: "singleDevice",
          });
          const stored = await adapter().getAuthenticator(created.credentialID);
          expect(stored?.credentialBackedUp).toBe(false);
          expect(stored?.credentialDeviceType).toBe("singleDevice");
        });

        test("listAuthenticatorsByUserId returns all authenticators of the user and no others", async () => {
          const user = await createdUser();
          const other = await createdUser();
          const first = await createdAuthenticator(user.id);
          const second = await createdAuthenticator(user.id, { transports: null });
          await createdAuthenticator(other.id);
          const listed = await adapter().listAuthenticatorsByUserId(user.id);
          const byId = (a: Partial<AdapterAuthenticator>, b: Partial<AdapterAuthenticator>) =>
            String(a.credentialID).localeCompare(String(b.credentialID));
          expect(listed.map(withoutAbsentFields).sort(byId)).toEqual(
            [first, second].map(withoutAbsentFields).sort(byId),
          );
        });

        test("listAuthenticatorsByUserId returns an empty array for an unknown user", async () => {
          expect(await adapter().listAuthenticatorsByUserId(randomUUID())).toEqual([]);
        });

        test("updateAuthenticatorCounter stores the new counter and returns the authenticator", async () => {
          const user = await createdUser();
          const created = await createdAuthenticator(user.id);
          const updated = await adapter().updateAuthenticatorCounter(created.credentialID, 42);
          expect(updated).toEqual({ ...created, counter: 42 });
          expect((await readAuthenticator(created.credentialID))?.counter).toBe(42);
          expect((await adapter().getAuthenticator(created.credentialID))?.counter).toBe(42);
        });

        test("updateAuthenticatorCounter keeps counters up to 2^32 - 1 exactly", async () => {
          const user = await createdUser();
          const created = await createdAuthenticator(user.id);
          const counter = 2 ** 32 - 1;
          await adapter().updateAuthenticatorCounter(created.credentialID, counter);
          expect((await adapter().getAuthenticator(created.credentialID))?.counter).toBe(counter);
        });

        test("updateAuthenticatorCounter rejects for an unknown credential id", async () => {
          await expect(
            Promise.resolve().then(() =>
              adapter().updateAuthenticatorCounter(`missing-${randomUUID()}`, 1),
            ),
          ).rejects.toThrow();
        });

        if (features.uniqueConstraints) {
          test("createAuthenticator rejects a credential id that is already registered", async () => {
            const user = await createdUser();
            const created = await createdAuthenticator(user.id);
            await expect(
              Promise.resolve().then(() =>
                adapter().createAuthenticator({ ...created, counter: 99 }),
              ),
            ).rejects.toThrow();
            expect((await adapter().getAuthenticator(created.credentialID))?.counter).toBe(
              created.counter,
            );
          });
        }
      });
    }

    if (features.sessionListing) {
      describe("session listing (Tessera extension)", () => {
        const byToken = (a: AdapterSession, b: AdapterSession) =>
          a.sessionToken.localeCompare(b.sessionToken);

        test("listSessionsByUserId returns every live session of the user and none of others", async () => {
          const user = await createdUser();
          const other = await createdUser();
          const sessions = [await createdSession(user.id), await createdSession(user.id)];
          await createdSession(other.id);
          const listed = await adapter().listSessionsByUserId(user.id);
          expect([...listed].sort(byToken)).toEqual([...sessions].sort(byToken));
          for (const session of listed) expect(session.expires).toBeInstanceOf(Date);
        });

        test("listSessionsByUserId leaves out sessions that have expired", async () => {
          const user = await createdUser();
          const live = await createdSession(user.id);
          await createdSession(user.id, dateWithMilliseconds(-60_000));
          expect(await adapter().listSessionsByUserId(user.id)).toEqual([live]);
        });

        test("listSessionsByUserId returns an empty array for an unknown user", async () => {
          expect(await adapter().listSessionsByUserId(randomUUID())).toEqual([]);
        });

        test("deleteSessionsByUserId removes every session of the user and keeps other users' sessions", async () => {
          const user = await createdUser();
          const other = await createdUser();
          const sessions = [await createdSession(user.id), await createdSession(user.id)];
          const kept = await createdSession(other.id);

          await adapter().deleteSessionsByUserId(user.id);

          for (const session of sessions) {
            expect(await db.session(session.sessionToken)).toBeNull();
            expect(await adapter().getSessionAndUser(session.sessionToken)).toBeNull();
          }
          expect(await adapter().listSessionsByUserId(user.id)).toEqual([]);
          expect(await adapter().getSessionAndUser(kept.sessionToken)).toEqual({
            session: kept,
            user: other,
          });
          expect(await adapter().getUser(user.id)).toEqual(user);
        });
      });
    }
  });
}
