import type {
  Adapter,
  AdapterAccount,
  AdapterAuthenticator,
  AdapterSession,
  AdapterUser,
  Awaitable,
  VerificationToken,
} from "@tessera/core/adapters";

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

/**
 * What the adapter offers beyond the methods every Auth.js adapter has; each defaults to `true`
 * (tested). Declaring `false` does not hide anything: the suite then checks that the adapter
 * really lacks the feature, so a declaration cannot outlive the weakness it describes.
 */
export interface ConformanceFeatures {
  /**
   * WebAuthn: the four authenticator methods and `getAccount` (Auth.js calls `getAccount` only
   * for WebAuthn). `false`: the adapter has none of these five methods.
   */
  authenticators?: boolean;
  /**
   * Tessera's `listSessionsByUserId` / `deleteSessionsByUserId` extension. `false`: the adapter
   * has neither method.
   */
  sessionListing?: boolean;
  /**
   * Tessera's two-factor methods (`TwoFactorAdapter` of `@tessera/core/two-factor`); off unless
   * set, since they are optional.
   */
  twoFactor?: boolean;
  /**
   * Tessera's organisation methods (`OrganizationAdapter` of `@tessera/core/organizations`); off
   * unless set, since they are optional.
   */
  organizations?: boolean;
  /**
   * Roles stored per organisation (`OrganizationRoleAdapter` of `@tessera/core/organizations`);
   * off unless set. Runs with `organizations` only.
   */
  organizationRoles?: boolean;
  /**
   * Tessera's password methods (`PasswordAdapter` of `@tessera/core/password`); off unless set,
   * since they are optional.
   */
  password?: boolean;
  /**
   * Tessera's admin methods (`AdminAdapter` of `@tessera/core/admin`: roles, bans, user
   * listing); off unless set, since they are optional.
   */
  admin?: boolean;
  /** Tessera's `listAccountsByUserId` extension. `false`: the adapter lacks it. */
  accountListing?: boolean;
  /**
   * Tessera's `updateAccount` extension (refreshed OAuth tokens are stored through it). `false`:
   * the adapter lacks it.
   */
  accountUpdate?: boolean;
  /**
   * Tessera's passkey-management extension (`listPasskeysByUserId`, `updatePasskey`,
   * `deletePasskey`). `false`: the adapter has none of them.
   */
  passkeyManagement?: boolean;
  /**
   * `createUser` rejects an e-mail another user has. `false`: the store has no such constraint,
   * and a duplicate e-mail is accepted.
   */
  uniqueEmail?: boolean;
  /**
   * `linkAccount` rejects a provider account that is already linked. `false`: the store has no
   * such constraint, and the second link is accepted.
   */
  uniqueAccount?: boolean;
  /**
   * `createAuthenticator` rejects a credential id that is already registered. `false`: the store
   * has no such constraint, and the second authenticator is accepted.
   */
  uniqueCredentialId?: boolean;
}

/** Options of `runAdapterConformance`. */
export interface ConformanceOptions {
  /** The adapter, or a function creating it once `db.connect()` has run. */
  adapter: Adapter | (() => Awaitable<Adapter>);
  db: ConformanceDb;
  features?: ConformanceFeatures;
  /** How many callers race for one verification token (default 50). */
  parallelTokenUses?: number;
}
