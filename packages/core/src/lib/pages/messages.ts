/**
 * User-facing texts for error values. The `error` query parameter is attacker-controlled, so it is
 * only ever used as a key into these tables: the raw value is never printed. The texts
 * themselves are in the core's dictionary (lib/i18n/core/), in the request's language.
 */
import type { CoreMessages } from "../i18n/core/en.js";
import type { Translator } from "../i18n/messages.js";

type CoreKey = keyof CoreMessages & string;

/** Sign-in page banners for the SignInPageErrorParam values. */
const SIGNIN_ERRORS: Readonly<Record<string, CoreKey>> = {
  Signin: "signIn.error.Signin",
  OAuthSignin: "signIn.error.OAuthSignin",
  OAuthSignInError: "signIn.error.OAuthSignin",
  OAuthCallbackError: "signIn.error.OAuthCallbackError",
  OAuthCreateAccount: "signIn.error.CreateAccount",
  EmailCreateAccount: "signIn.error.CreateAccount",
  Callback: "signIn.error.Callback",
  OAuthAccountNotLinked: "signIn.error.AccountNotLinked",
  AccountNotLinked: "signIn.error.AccountNotLinked",
  EmailSignin: "signIn.error.EmailSignin",
  EmailSignInError: "signIn.error.EmailSignin",
  // Never say whether the identifier or the secret was wrong: that would confirm accounts exist.
  CredentialsSignin: "signIn.error.CredentialsSignin",
  SessionRequired: "signIn.error.SessionRequired",
  MissingCSRF: "signIn.error.MissingCSRF",
  Verification: "signIn.error.Verification",
  WebAuthnVerificationError: "signIn.error.WebAuthnVerificationError",
  RateLimited: "signIn.error.RateLimited",
};

/** Why an e-mail address was refused (the `code` of an `EmailSignin` error). */
const ADDRESS_REFUSALS: Readonly<Record<string, CoreKey>> = {
  "address-required": "address.address-required",
  "address-too-long": "address.address-too-long",
  "address-at-lookalike": "address.address-at-lookalike",
  "address-quoted": "address.address-quoted",
  "address-one-at": "address.address-one-at",
  "address-local-part": "address.address-local-part",
  "address-domain": "address.address-domain",
};

/**
 * The banner text for a sign-in page error; unknown values get a generic text. A refused e-mail
 * address (`EmailSignin` with a known `code`) is told why.
 */
export function signInErrorMessage(
  t: Translator<CoreMessages>,
  error: string,
  code?: string,
): string {
  if ((error === "EmailSignin" || error === "EmailSignInError") && code !== undefined) {
    const reason = Object.hasOwn(ADDRESS_REFUSALS, code) ? ADDRESS_REFUSALS[code] : undefined;
    if (reason) return t("signIn.error.addressRefused", { reason: t(reason) });
  }
  const key = Object.hasOwn(SIGNIN_ERRORS, error) ? SIGNIN_ERRORS[error] : undefined;
  return t(key ?? "signIn.error.default");
}

/** What the error page shows for one ErrorPageParam value. */
export interface ErrorPageContent {
  status: number;
  title: string;
  message: string;
  /** Where the page's button leads: back to sign-in, or to the site root. */
  action: "signin" | "home";
}

/** The error values with a page of their own; the texts are `error.<value>.title/message`. */
const ERROR_PAGES: Readonly<
  Record<string, { status: number; action: "signin" | "home"; title: CoreKey; message: CoreKey }>
> = {
  Configuration: {
    status: 500,
    action: "home",
    title: "error.Configuration.title",
    message: "error.Configuration.message",
  },
  AccessDenied: {
    status: 403,
    action: "signin",
    title: "error.AccessDenied.title",
    message: "error.AccessDenied.message",
  },
  Verification: {
    status: 403,
    action: "signin",
    title: "error.Verification.title",
    message: "error.Verification.message",
  },
  // A ban (`@tessera/core/admin`): the reason is for administrators, never shown here.
  UserBanned: {
    status: 403,
    action: "home",
    title: "error.UserBanned.title",
    message: "error.UserBanned.message",
  },
  // Sign-out cleared this browser's cookie but could not end the session on the server (store or
  // database down): a copy of the cookie elsewhere may still be signed in, and the user must know.
  SignOutError: {
    status: 503,
    action: "home",
    title: "error.SignOutError.title",
    message: "error.SignOutError.message",
  },
};

const ERROR_DEFAULT = {
  status: 200,
  action: "signin",
  title: "error.default.title",
  message: "error.default.message",
} as const;

/** The error page content for an error value; unknown or missing values get a generic page. */
export function errorPageContent(
  t: Translator<CoreMessages>,
  error: string | undefined,
): ErrorPageContent {
  // hasOwn, not `in`: `?error=constructor` must not reach Object.prototype.
  const page =
    (error !== undefined && Object.hasOwn(ERROR_PAGES, error) ? ERROR_PAGES[error] : undefined) ??
    ERROR_DEFAULT;
  return {
    status: page.status,
    action: page.action,
    title: t(page.title),
    message: t(page.message),
  };
}
