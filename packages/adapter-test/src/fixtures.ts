import { randomUUID } from "node:crypto";
import type {
  AdapterAccount,
  AdapterAuthenticator,
  AdapterUser,
  VerificationToken,
} from "@tessera/core/adapters";

/** A short random suffix, so fixtures of parallel tests never collide on unique columns. */
export function uniqueSuffix(): string {
  return randomUUID().slice(0, 8);
}

/**
 * A date `offsetMs` from now with a non-zero millisecond part, so that a store which truncates to
 * whole seconds fails the round-trip checks instead of passing by luck.
 *
 * @example
 * ```ts
 * const expires = dateWithMilliseconds(60_000) // one minute ahead, e.g. …:42.137Z
 * ```
 */
export function dateWithMilliseconds(offsetMs: number): Date {
  const date = new Date(Date.now() + offsetMs);
  if (date.getUTCMilliseconds() === 0) date.setUTCMilliseconds(137);
  return date;
}

/**
 * A complete user as the core hands it to `createUser`, with a unique id and e-mail.
 *
 * @example
 * ```ts
 * const user = await adapter.createUser(userFixture({ name: "Grace" }))
 * ```
 */
export function userFixture(overrides: Partial<AdapterUser> = {}): AdapterUser {
  const suffix = uniqueSuffix();
  return {
    id: randomUUID(),
    name: "Ada Lovelace",
    email: `ada.${suffix}@example.com`,
    emailVerified: dateWithMilliseconds(-3_600_000),
    image: `https://images.example.com/${suffix}.png`,
    ...overrides,
  };
}

/**
 * An OAuth account of `userId` carrying every token field the core stores (snake_case names).
 *
 * @example
 * ```ts
 * await adapter.linkAccount(accountFixture(user.id, { provider: "github" }))
 * ```
 */
export function accountFixture(
  userId: string,
  overrides: Partial<AdapterAccount> = {},
): AdapterAccount {
  return {
    userId,
    type: "oidc",
    provider: "example-idp",
    providerAccountId: `sub-${uniqueSuffix()}`,
    access_token: `at-${uniqueSuffix()}`,
    refresh_token: `rt-${uniqueSuffix()}`,
    id_token: "eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.",
    token_type: "bearer",
    scope: "openid email profile",
    // Past 2038 on purpose: a 32-bit column would overflow.
    expires_at: 4_102_444_800,
    session_state: `state-${uniqueSuffix()}`,
    ...overrides,
  };
}

/**
 * A verification token for `identifier`, expiring in one hour (with milliseconds).
 *
 * @example
 * ```ts
 * await adapter.createVerificationToken(verificationTokenFixture("ada@example.com"))
 * ```
 */
export function verificationTokenFixture(
  identifier: string,
  overrides: Partial<VerificationToken> = {},
): VerificationToken {
  return {
    identifier,
    token: randomUUID().replaceAll("-", "") + randomUUID().replaceAll("-", ""),
    expires: dateWithMilliseconds(3_600_000),
    ...overrides,
  };
}

/**
 * A WebAuthn authenticator of `userId` with base64 id and key, as the core stores it.
 *
 * @example
 * ```ts
 * await adapter.createAuthenticator(authenticatorFixture(user.id, { transports: null }))
 * ```
 */
export function authenticatorFixture(
  userId: string,
  overrides: Partial<AdapterAuthenticator> = {},
): AdapterAuthenticator {
  return {
    credentialID: Buffer.from(randomUUID()).toString("base64url"),
    userId,
    providerAccountId: `passkey-${uniqueSuffix()}`,
    counter: 0,
    credentialBackedUp: true,
    credentialPublicKey: Buffer.from(`public-key-${randomUUID()}`).toString("base64"),
    transports: "internal,hybrid",
    credentialDeviceType: "multiDevice",
    ...overrides,
  };
}
