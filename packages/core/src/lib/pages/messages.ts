/**
 * User-facing texts for error values. The `error` query parameter is attacker-controlled, so it is
 * only ever used as a key into these tables: the raw value is never printed.
 */

/** Sign-in page banners for the SignInPageErrorParam values. */
const SIGNIN_ERRORS: Readonly<Record<string, string>> = {
  Signin: "Sign in failed. Try again, or choose another way to sign in.",
  OAuthSignin: "We couldn't start signing you in with that provider. Please try again.",
  OAuthSignInError: "We couldn't start signing you in with that provider. Please try again.",
  OAuthCallbackError: "Signing in with that provider didn't complete. Please try again.",
  OAuthCreateAccount:
    "We couldn't create your account. Try again, or choose another way to sign in.",
  EmailCreateAccount:
    "We couldn't create your account. Try again, or choose another way to sign in.",
  Callback: "Something went wrong while signing you in. Please try again.",
  OAuthAccountNotLinked:
    "To confirm your identity, sign in with the same method you used when you first signed up.",
  AccountNotLinked:
    "To confirm your identity, sign in with the same method you used when you first signed up.",
  EmailSignin: "We couldn't send the sign-in email. Check the address and try again.",
  EmailSignInError: "We couldn't send the sign-in email. Check the address and try again.",
  // Never say whether the identifier or the secret was wrong: that would confirm accounts exist.
  CredentialsSignin: "Sign in failed. Check the details you provided are correct.",
  SessionRequired: "Please sign in to access this page.",
  MissingCSRF: "Your sign-in form expired. Please try again.",
  Verification:
    "That sign-in link is no longer valid. It may have been used already or it may have expired.",
  WebAuthnVerificationError: "We couldn't verify your passkey. Please try again.",
  RateLimited: "Too many sign-in attempts. Please wait a minute, then try again.",
};

const SIGNIN_DEFAULT = "Unable to sign in. Please try again.";

/** Why an e-mail address was refused (the `code` of an `EmailSignin` error). */
const ADDRESS_REFUSALS: Readonly<Record<string, string>> = {
  "address-required": "Enter your e-mail address.",
  "address-too-long": "That e-mail address is too long.",
  "address-at-lookalike":
    "That e-mail address contains a character that looks like @ but is not one.",
  "address-quoted": "E-mail addresses with quotes are not accepted.",
  "address-one-at": "An e-mail address has exactly one @.",
  "address-local-part": "The part before the @ contains characters an address cannot have.",
  "address-domain": "The part after the @ is not a domain name (like example.com).",
};

/**
 * The banner text for a sign-in page error; unknown values get a generic text. A refused e-mail
 * address (`EmailSignin` with a known `code`) is told why.
 */
export function signInErrorMessage(error: string, code?: string): string {
  if ((error === "EmailSignin" || error === "EmailSignInError") && code !== undefined) {
    const reason = Object.hasOwn(ADDRESS_REFUSALS, code) ? ADDRESS_REFUSALS[code] : undefined;
    if (reason) return `That e-mail address was not accepted. ${reason} Correct it and try again.`;
  }
  return Object.hasOwn(SIGNIN_ERRORS, error)
    ? (SIGNIN_ERRORS[error] ?? SIGNIN_DEFAULT)
    : SIGNIN_DEFAULT;
}

/** What the error page shows for one ErrorPageParam value. */
export interface ErrorPageContent {
  status: number;
  title: string;
  message: string;
  /** Where the page's button leads: back to sign-in, or to the site root. */
  action: "signin" | "home";
}

const ERROR_PAGES: Readonly<Record<string, ErrorPageContent>> = {
  Configuration: {
    status: 500,
    title: "Server error",
    message:
      "There is a problem with the server configuration. Check the server logs for more information.",
    action: "home",
  },
  AccessDenied: {
    status: 403,
    title: "Access denied",
    message: "You do not have permission to sign in.",
    action: "signin",
  },
  Verification: {
    status: 403,
    title: "Unable to sign in",
    message:
      "The sign-in link is no longer valid. It may have been used already or it may have expired.",
    action: "signin",
  },
  // A ban (`@tessera/core/admin`): the reason is for administrators, never shown here.
  UserBanned: {
    status: 403,
    title: "Account suspended",
    message:
      "This account is suspended and cannot sign in. If you think this is a mistake, contact the site's support.",
    action: "home",
  },
  // Sign-out cleared this browser's cookie but could not end the session on the server (store or
  // database down): a copy of the cookie elsewhere may still be signed in, and the user must know.
  SignOutError: {
    status: 503,
    title: "Sign-out incomplete",
    message:
      "You are signed out on this device, but your session could not be ended everywhere right now: a copy of it on another device may still be signed in. If you signed in on a device you no longer control, contact the site's support.",
    action: "home",
  },
};

const ERROR_DEFAULT: ErrorPageContent = {
  status: 200,
  title: "Something went wrong",
  message: "An unexpected error occurred. Please try again.",
  action: "signin",
};

/** The error page content for an error value; unknown or missing values get a generic page. */
export function errorPageContent(error: string | undefined): ErrorPageContent {
  // hasOwn, not `in`: `?error=constructor` must not reach Object.prototype.
  if (error !== undefined && Object.hasOwn(ERROR_PAGES, error)) {
    return ERROR_PAGES[error] ?? ERROR_DEFAULT;
  }
  return ERROR_DEFAULT;
}
