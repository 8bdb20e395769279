import { randomUUID } from "node:crypto";
import type {
  Adapter,
  AdapterAuthenticator,
  AdapterSession,
  AdapterUser,
  Awaitable,
} from "@tessera/core/adapters";
import { dateWithMilliseconds, userFixture } from "../fixtures.js";
import type { ConformanceDb, ConformanceFeatures } from "./options.js";

/** What every group of tests works with. */
export interface SuiteContext {
  /**
   * The adapter with the methods the suite covers. Tests call methods through it; a missing
   * method fails the test that needs it.
   */
  adapter(): Required<Adapter>;
  db: ConformanceDb;
  features: Required<ConformanceFeatures>;
  parallelTokenUses: number;
  /** A user created through the adapter, as `createUser` returned it. */
  createdUser(overrides?: Partial<AdapterUser>): Promise<AdapterUser>;
  /** A session of `userId` created through the adapter, with a mixed-case token. */
  createdSession(userId: string, expires?: Date): Promise<AdapterSession>;
  /**
   * An id no user has, in the adapter's own id format: the adapter may assign serial integers,
   * and a store may reject a malformed id where the contract asks for `null`. It is the id of a
   * user created and then deleted through the adapter.
   */
  absentUserId(): Promise<string>;
  readAuthenticator(credentialID: string): Awaitable<AdapterAuthenticator | null>;
}

/**
 * Builds the context of one suite run. `adapter` returns the adapter once `beforeAll` created it.
 */
export function suiteContext(
  init: Pick<SuiteContext, "adapter" | "db" | "features" | "parallelTokenUses">,
): SuiteContext {
  const { adapter, db } = init;
  return {
    ...init,
    createdUser: async (overrides = {}) => adapter().createUser(userFixture(overrides)),
    createdSession: async (userId, expires = dateWithMilliseconds(86_400_000)) =>
      adapter().createSession({ sessionToken: mixedCaseToken(), userId, expires }),
    async absentUserId() {
      const { id } = await adapter().createUser(userFixture());
      await adapter().deleteUser(id);
      return id;
    },
    readAuthenticator(credentialID) {
      if (!db.authenticator) throw new Error("db.authenticator is needed to test authenticators");
      return db.authenticator(credentialID);
    },
  };
}

/** Drops `null` and `undefined` fields: a store may return either for an absent optional value. */
export function withoutAbsentFields<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(value).filter(([, field]) => field !== null && field !== undefined),
  ) as Partial<T>;
}

/** A session token with upper- and lower-case letters (for the exact-match checks). */
export function mixedCaseToken(): string {
  return `Sess-${randomUUID()}-${randomUUID()}`.replace(/[a-f]/g, (c, i: number) =>
    i % 2 === 0 ? c.toUpperCase() : c,
  );
}

/** Runs `call` so that a synchronous throw becomes a rejection, for `expect(…).rejects`. */
export function settled(call: () => unknown): Promise<unknown> {
  return Promise.resolve().then(call);
}
