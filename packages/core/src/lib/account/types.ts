/**
 * The account overview: what `GET <basePath>/account` answers as data, what the built-in account
 * page shows, and what `getAccountOverview` returns to apps that build their own page. Types
 * only, so that the configuration's types and the extensions can name them without loading the
 * account code.
 */
import type { ListedSession } from "../session/devices.js";
import type { AccountPassword, AccountSectionPart, AccountTwoFactor } from "./sections.js";

export type { AccountPassword, AccountSectionPart, AccountTwoFactor };

import type { ListedPasskey, PasskeySignals } from "../webauthn/passkeys.js";

/** The signed-in user as the account page shows them. */
export interface AccountProfile {
  id: string;
  name: string | null;
  email: string | null;
  emailVerified: boolean;
  image: string | null;
}

/** One sign-in method linked to the user (an OAuth or OpenID provider account). */
export interface LinkedAccount {
  provider: string;
  /** The provider's display name (its id when the config no longer has it). */
  providerName: string;
  providerAccountId: string;
  type: string;
  /** Whether unlinking it leaves the user another way in (see `waysIn`). */
  canUnlink: boolean;
}

/** An OAuth or OpenID provider the user has not linked yet, and where linking starts. */
export interface LinkableProvider {
  id: string;
  name: string;
  /** `POST` here (with `csrfToken` and `callbackUrl`) to link it while signed in. */
  signinUrl: string;
}

/**
 * Everything the account page shows. A section the configuration does not enable is absent
 * (`sessions` needs database sessions with session listing, `passkeys` a WebAuthn provider with
 * passkey management, `twoFactor` and `password` their extensions).
 */
export interface AccountOverview {
  profile: AccountProfile;
  sessions?: ListedSession[];
  /** Linked OAuth/OpenID accounts (needs an adapter with `listAccountsByUserId`). */
  linkedAccounts?: LinkedAccount[];
  linkableProviders: LinkableProvider[];
  passkeys?: { passkeys: ListedPasskey[]; signals: PasskeySignals };
  twoFactor?: AccountTwoFactor;
  password?: AccountPassword;
  /**
   * How many ways in the user has: linked provider accounts, passkeys, a password, e-mail links
   * (an e-mail provider and an address). Unlinking is refused when it would leave none.
   */
  waysIn: number;
}
