import type { Adapter } from "@tessera/core/adapters";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { accountListingTests } from "./conformance/account-listing.js";
import { accountUpdateTests } from "./conformance/account-update.js";
import { accountTests } from "./conformance/accounts.js";
import { adminTests } from "./conformance/admin.js";
import { authenticatorTests } from "./conformance/authenticators.js";
import { suiteContext } from "./conformance/context.js";
import type { ConformanceFeatures, ConformanceOptions } from "./conformance/options.js";
import { organizationTests } from "./conformance/organizations.js";
import { passkeyTests } from "./conformance/passkeys.js";
import { passwordTests } from "./conformance/password.js";
import { sessionListingTests } from "./conformance/session-listing.js";
import { sessionTests } from "./conformance/sessions.js";
import { twoFactorTests } from "./conformance/two-factor.js";
import { userTests } from "./conformance/users.js";
import { verificationTokenTests } from "./conformance/verification-tokens.js";

export type {
  AccountKey,
  ConformanceDb,
  ConformanceFeatures,
  ConformanceOptions,
  VerificationTokenKey,
} from "./conformance/options.js";

/** The methods every Auth.js v5 adapter has (the `Adapter` interface of `@auth/core/adapters`), WebAuthn aside. */
const coreMethods = [
  "createUser",
  "getUser",
  "getUserByEmail",
  "getUserByAccount",
  "updateUser",
  "deleteUser",
  "linkAccount",
  "unlinkAccount",
  "createSession",
  "getSessionAndUser",
  "updateSession",
  "deleteSession",
  "createVerificationToken",
  "useVerificationToken",
] as const satisfies readonly (keyof Adapter)[];

/** WebAuthn's methods; Auth.js calls `getAccount` only there. */
const authenticatorMethods = [
  "getAccount",
  "createAuthenticator",
  "getAuthenticator",
  "listAuthenticatorsByUserId",
  "updateAuthenticatorCounter",
] as const satisfies readonly (keyof Adapter)[];

const sessionListingMethods = [
  "listSessionsByUserId",
  "deleteSessionsByUserId",
] as const satisfies readonly (keyof Adapter)[];

const accountListingMethods = [
  "listAccountsByUserId",
] as const satisfies readonly (keyof Adapter)[];

const accountUpdateMethods = ["updateAccount"] as const satisfies readonly (keyof Adapter)[];

const passkeyManagementMethods = [
  "listPasskeysByUserId",
  "updatePasskey",
  "deletePasskey",
] as const satisfies readonly (keyof Adapter)[];

/**
 * Registers a vitest suite that certifies an adapter against the Auth.js v5 adapter contract and
 * Tessera's session-listing extension: exact `Date` round-trips, `null` for missing records,
 * cascading `deleteUser`, single-use verification tokens under concurrency and WebAuthn. It
 * assumes only what the contract guarantees: the adapter may assign its own ids, return extra
 * fields, and return nothing where the contract allows it. Call it at the top level of a
 * `*.test.ts` file.
 *
 * Tests create their own users with unique e-mails, so the suite can share a database with other
 * suites, and it never deletes data it did not create.
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
    accountListing: true,
    accountUpdate: true,
    passkeyManagement: true,
    uniqueEmail: true,
    uniqueAccount: true,
    uniqueCredentialId: true,
    twoFactor: false,
    organizations: false,
    organizationRoles: false,
    password: false,
    admin: false,
    ...options.features,
  };
  const { db } = options;
  let resolvedAdapter: Adapter | undefined;

  const context = suiteContext({
    db,
    features,
    parallelTokenUses: options.parallelTokenUses ?? 50,
    adapter() {
      if (!resolvedAdapter) throw new Error("the adapter was not created: did db.connect() fail?");
      // Tests call methods through this; a missing method fails the test that calls it, and
      // the "implements" test below names them all.
      return resolvedAdapter as Required<Adapter>;
    },
  });

  /** The methods of `methods` the adapter has. */
  function present(methods: readonly (keyof Adapter)[]): (keyof Adapter)[] {
    const adapter: Adapter = context.adapter();
    return methods.filter((method) => typeof adapter[method] === "function");
  }

  const expectedMethods: (keyof Adapter)[] = [
    ...coreMethods,
    ...(features.authenticators ? authenticatorMethods : []),
    ...(features.sessionListing ? sessionListingMethods : []),
    ...(features.accountListing ? accountListingMethods : []),
    ...(features.accountUpdate ? accountUpdateMethods : []),
    ...(features.passkeyManagement ? passkeyManagementMethods : []),
  ];

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
      expect(present(expectedMethods)).toEqual(expectedMethods);
    });

    // A feature declared absent must be absent: nothing the adapter offers goes untested.
    if (!features.authenticators) {
      test("has none of the WebAuthn methods, as declared by authenticators: false", () => {
        expect(present(authenticatorMethods)).toEqual([]);
      });
    }
    if (!features.sessionListing) {
      test("has neither session-listing method, as declared by sessionListing: false", () => {
        expect(present(sessionListingMethods)).toEqual([]);
      });
    }

    if (!features.accountListing) {
      test("lacks listAccountsByUserId, as declared by accountListing: false", () => {
        expect(present(accountListingMethods)).toEqual([]);
      });
    }

    if (!features.accountUpdate) {
      test("lacks updateAccount, as declared by accountUpdate: false", () => {
        expect(present(accountUpdateMethods)).toEqual([]);
      });
    }

    if (!features.passkeyManagement) {
      test("lacks the passkey-management methods, as declared by passkeyManagement: false", () => {
        expect(present(passkeyManagementMethods)).toEqual([]);
      });
    }

    userTests(context);
    accountTests(context);
    sessionTests(context);
    verificationTokenTests(context);
    if (features.authenticators) authenticatorTests(context);
    if (features.sessionListing) sessionListingTests(context);
    if (features.accountListing) accountListingTests(context);
    if (features.accountUpdate) accountUpdateTests(context);
    if (features.twoFactor) twoFactorTests(context);
    if (features.organizations) organizationTests(context, features.organizationRoles);
    if (features.passkeyManagement) passkeyTests(context);
    if (features.password) passwordTests(context);
    if (features.admin) adminTests(context);
  });
}
