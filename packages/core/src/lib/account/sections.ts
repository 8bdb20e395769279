/**
 * What extensions add to the account overview (the two-factor state, the password), in a module
 * that imports nothing, so that the configuration's types can name it without an import cycle.
 */

/** The two-factor extension's state for the user (present when the extension is configured). */
export interface AccountTwoFactor {
  enabled: boolean;
  backupCodesLeft: number;
  /** The extension's manage page (enrol, backup codes, turn off). */
  manageUrl: string;
}

/** The password extension's state for the user (present when the extension is configured). */
export interface AccountPassword {
  /** Whether the user has a password (a user who signed up through a provider may not). */
  set: boolean;
  /** The change-password page. */
  changeUrl: string;
  /** The change-e-mail flow, when the configuration has one. */
  changeEmailUrl?: string;
  /** The delete-account page. */
  deleteUrl: string;
}

/** What an extension adds to the account overview of one user. */
export interface AccountSectionPart {
  twoFactor?: AccountTwoFactor;
  password?: AccountPassword;
}
