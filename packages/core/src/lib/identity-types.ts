/**
 * The identity types that adapters, providers and the configuration all build on: users, provider
 * profiles, token sets and accounts, plus the provider types and the page theme they mention.
 * A leaf module (it imports nothing of Tessera) so that `adapters.ts` and `providers/index.ts` can
 * use these without importing `types.ts`, which imports both of them. `@tessera/core/types`
 * re-exports every name.
 */

/** Provider types. `email` and `credentials` are the "redirectable" ones. */
export type ProviderType = "oidc" | "oauth" | "email" | "credentials" | "webauthn";

/** The fields every user has (Auth.js's `DefaultUser`); `User` extends it. */
export interface DefaultUser {
  id?: string;
  name?: string | null;
  email?: string | null;
  image?: string | null;
}

/**
 * A user as seen by callbacks and the client. Add fields by module augmentation:
 * `declare module "@tessera/core/types" { interface User { role?: string } }`.
 */
export interface User extends DefaultUser {}

/** OIDC standard claims, as returned by an identity provider; indexable by any claim. */
export interface Profile {
  id?: string | null;
  sub?: string | null;
  name?: string | null;
  given_name?: string | null;
  family_name?: string | null;
  middle_name?: string | null;
  nickname?: string | null;
  preferred_username?: string | null;
  profile?: string | null;
  picture?: unknown;
  website?: string | null;
  email?: string | null;
  email_verified?: boolean | null;
  gender?: string | null;
  birthdate?: string | null;
  zoneinfo?: string | null;
  locale?: string | null;
  phone_number?: string | null;
  updated_at?: Date | string | number | null;
  address?: {
    formatted?: string | null;
    street_address?: string | null;
    locality?: string | null;
    region?: string | null;
    postal_code?: string | null;
    country?: string | null;
  } | null;
  [claim: string]: unknown;
}

/** Token endpoint response (OAuth 2 / OpenID) plus the absolute `expires_at` in seconds. */
export interface TokenSet {
  access_token?: string;
  token_type?: string;
  id_token?: string;
  refresh_token?: string;
  scope?: string;
  expires_in?: number;
  expires_at?: number;
  [key: string]: unknown;
}

/** The link between a user and a provider identity; extends the provider's token set. */
export interface Account extends Partial<TokenSet> {
  provider: string;
  providerAccountId: string;
  type: ProviderType;
  userId?: string;
  expires_at?: number;
  session_state?: string | null;
  token_type?: string;
}

/** Appearance of the built-in pages and e-mails. */
export interface Theme {
  colorScheme?: "auto" | "dark" | "light";
  logo?: string;
  brandColor?: string;
  buttonText?: string;
}
