/**
 * The data-layer contract. Any object implementing (a subset of) {@link Adapter} can store users,
 * accounts, sessions, verification tokens and WebAuthn authenticators. The shape is the one of
 * Auth.js v5, so existing `@auth/*-adapter` packages work unchanged.
 *
 * @example
 * ```ts
 * import type { Adapter } from "@tessera/core/adapters"
 * export function MyAdapter(db: Db): Adapter {
 *   return { async getUser(id) { return db.users.find(id) ?? null }, … }
 * }
 * ```
 */
import type { Account, User } from "./lib/identity-types.js";

/** A value or a promise of it: adapter methods may be synchronous. */
export type Awaitable<T> = T | PromiseLike<T>;

/** A user as stored by an adapter. `emailVerified` is set by the first e-mail sign-in. */
export interface AdapterUser extends User {
  id: string;
  email: string;
  emailVerified: Date | null;
}

/** Account types an adapter stores (credentials sign-ins store no account). */
export type AdapterAccountType = "oauth" | "oidc" | "email" | "webauthn";

/** An account as stored by an adapter: the link between a user and a provider identity. */
export interface AdapterAccount extends Account {
  userId: string;
  type: AdapterAccountType;
}

/**
 * The token fields {@link Adapter.updateAccount} may change: `undefined` leaves a field as it is,
 * `null` clears it.
 */
export type AccountUpdate = {
  [Field in Exclude<keyof AdapterAccount, "userId" | "type" | "provider" | "providerAccountId">]?:
    | AdapterAccount[Field]
    | null;
};

/**
 * Tessera extension (optional): what a database session records about its device, shown by
 * `GET <basePath>/sessions`. Tessera passes these fields to `createSession` and `updateSession`
 * only for adapters that implement `listSessionsByUserId` (the extension that reads them back):
 * Auth.js adapters that hand the whole object to their database (Prisma's does) never see them.
 */
export interface SessionMetadata {
  /** When the session was created. */
  createdAt?: Date | null;
  /** When the session was last read, updated at most once per `session.updateAge`. */
  lastSeenAt?: Date | null;
  /** The client's IP address at sign-in, where the integration knows it. */
  ip?: string | null;
  /** The client's `User-Agent` at sign-in (at most 512 characters). */
  userAgent?: string | null;
}

/** A database session. The cookie carries `sessionToken`; `expires` is absolute. */
export interface AdapterSession extends SessionMetadata {
  sessionToken: string;
  userId: string;
  expires: Date;
}

/** An e-mail sign-in token; `token` is stored hashed (`sha256(token + secret)`). */
export interface VerificationToken {
  identifier: string;
  expires: Date;
  token: string;
}

/** A WebAuthn credential (base64 encoded id and public key). */
export interface AdapterAuthenticator {
  credentialID: string;
  userId: string;
  providerAccountId: string;
  counter: number;
  credentialBackedUp: boolean;
  credentialPublicKey: string;
  transports?: string | null;
  credentialDeviceType: string;
}

/**
 * Tessera extension: what tells a user's passkeys apart in a list. Kept beside the authenticator
 * (never as columns of Auth.js's `Authenticator` table), so an Auth.js database stays usable by
 * Auth.js. `null` where nothing was recorded (passkeys registered before the extension).
 */
export interface PasskeyDetails {
  /** The name the user gave it; `null` until renamed. */
  name: string | null;
  createdAt: Date | null;
  /** The last sign-in with it. */
  lastUsedAt: Date | null;
  /**
   * The WebAuthn user handle (base64url) the authenticator keeps with the credential, which the
   * Signal API calls name; random per passkey, never the user id.
   */
  userHandle: string | null;
}

/** Tessera extension: an authenticator with its {@link PasskeyDetails}. */
export interface AdapterPasskey extends AdapterAuthenticator, PasskeyDetails {}

/** Tessera extension: one of a user's passkeys, named by owner and credential id together. */
export interface PasskeyKey {
  userId: string;
  credentialID: string;
}

/**
 * The adapter contract. Every method is optional; Tessera checks at start-up which methods the
 * configured features need and names the missing ones in a `MissingAdapterMethods` error.
 */
export interface Adapter {
  createUser?(user: AdapterUser): Awaitable<AdapterUser>;
  getUser?(id: string): Awaitable<AdapterUser | null>;
  getUserByEmail?(email: string): Awaitable<AdapterUser | null>;
  getUserByAccount?(
    providerAccountId: Pick<AdapterAccount, "provider" | "providerAccountId">,
  ): Awaitable<AdapterUser | null>;
  updateUser?(user: Partial<AdapterUser> & Pick<AdapterUser, "id">): Awaitable<AdapterUser>;
  /** Not called by Tessera itself; used by applications to delete an account. */
  deleteUser?(userId: string): Promise<void> | Awaitable<AdapterUser | null | undefined>;
  linkAccount?(
    account: AdapterAccount,
  ): Promise<void> | Awaitable<AdapterAccount | null | undefined>;
  /** Not called by Tessera itself. */
  unlinkAccount?(
    providerAccountId: Pick<AdapterAccount, "provider" | "providerAccountId">,
  ): Promise<void> | Awaitable<AdapterAccount | undefined>;
  createSession?(
    session: {
      sessionToken: string;
      userId: string;
      expires: Date;
    } & SessionMetadata,
  ): Awaitable<AdapterSession>;
  getSessionAndUser?(
    sessionToken: string,
  ): Awaitable<{ session: AdapterSession; user: AdapterUser } | null>;
  updateSession?(
    session: Partial<AdapterSession> & Pick<AdapterSession, "sessionToken">,
  ): Awaitable<AdapterSession | null | undefined>;
  deleteSession?(
    sessionToken: string,
  ): Promise<void> | Awaitable<AdapterSession | null | undefined>;
  createVerificationToken?(
    verificationToken: VerificationToken,
  ): Awaitable<VerificationToken | null | undefined>;
  /** Returns the token and deletes it, so that it can be used once only (atomically). */
  useVerificationToken?(params: {
    identifier: string;
    token: string;
  }): Awaitable<VerificationToken | null>;
  getAccount?(providerAccountId: string, provider: string): Awaitable<AdapterAccount | null>;
  getAuthenticator?(credentialID: string): Awaitable<AdapterAuthenticator | null>;
  createAuthenticator?(authenticator: AdapterAuthenticator): Awaitable<AdapterAuthenticator>;
  listAuthenticatorsByUserId?(userId: string): Awaitable<AdapterAuthenticator[]>;
  updateAuthenticatorCounter?(
    credentialID: string,
    newCounter: number,
  ): Awaitable<AdapterAuthenticator>;
  /**
   * Tessera extension (optional): every live (unexpired) session of a user, for "sign out other
   * devices". Expired sessions are left out. An adapter that has it also stores the
   * {@link SessionMetadata} fields given to `createSession`/`updateSession` and returns them here.
   */
  listSessionsByUserId?(userId: string): Awaitable<AdapterSession[]>;
  /** Tessera extension (optional): delete every session of a user. */
  deleteSessionsByUserId?(userId: string): Awaitable<void>;
  /**
   * Tessera extension (optional): every account linked to a user. With it, e-mail account
   * linking can tell a user who signed in through a provider from one who never proved the
   * address (see `allowDangerousEmailAccountLinking`).
   */
  listAccountsByUserId?(userId: string): Awaitable<AdapterAccount[]>;
  /**
   * Tessera extension (optional): writes the fields of `account` given (not `undefined`) onto the
   * stored account that `provider` and `providerAccountId` name, and returns it; `null` when there
   * is no such account. `null` clears a field. `getAccessToken` stores refreshed tokens (a
   * rotated `refresh_token`, `access_token`, `expires_at`, `id_token`, …) through it; the
   * account's `userId`, `type`, `provider` and `providerAccountId` never change.
   *
   * @example
   * ```ts
   * await adapter.updateAccount({
   *   provider: "keycloak", providerAccountId: "ada",
   *   access_token: "new", expires_at: 1767225600, refresh_token: "rotated",
   * })
   * ```
   */
  updateAccount?(
    account: AccountUpdate & Pick<AdapterAccount, "provider" | "providerAccountId">,
  ): Awaitable<AdapterAccount | null>;
  /**
   * Tessera extension (optional, with the two below): every authenticator of a user with its
   * {@link PasskeyDetails}; an empty array for an unknown user.
   */
  listPasskeysByUserId?(userId: string): Awaitable<AdapterPasskey[]>;
  /**
   * Tessera extension: writes the details given (not `undefined`) of the passkey that `userId`
   * owns with this credential id, and returns it; `null` when that user has no such passkey (a
   * credential of another user is never touched: the owner is part of the key).
   *
   * @example
   * ```ts
   * await adapter.updatePasskey({ userId: "u1", credentialID: "AbC…", name: "Work laptop" })
   * ```
   */
  updatePasskey?(passkey: PasskeyKey & Partial<PasskeyDetails>): Awaitable<AdapterPasskey | null>;
  /**
   * Tessera extension: deletes the authenticator and details of the passkey that `userId` owns
   * with this credential id, and returns what was deleted; `null` when that user has no such
   * passkey. The passkey's account (type `webauthn`) is unlinked by the caller.
   */
  deletePasskey?(passkey: PasskeyKey): Awaitable<AdapterPasskey | null>;
}

/** True when `value` is a date string (ISO 8601) — helps adapters that store dates as text. */
export function isDate(value: unknown): value is string {
  return (
    typeof value === "string" &&
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(value) &&
    !Number.isNaN(Date.parse(value))
  );
}
