/**
 * Every error Tessera throws is an {@link AuthError} subclass with a stable `type` (used in logs and
 * in the `?error=` query of redirects) and a `kind` that decides which page a user is sent to.
 *
 * @example
 * ```ts
 * import { AuthError, CredentialsSignin } from "@tessera/core/errors"
 * try { await signIn("credentials", form) } catch (e) {
 *   if (e instanceof CredentialsSignin) return { error: e.code }
 *   if (!(e instanceof AuthError)) throw e
 * }
 * ```
 */

/** Which built-in page an error leads to: the error page or the sign-in page. */
export type ErrorKind = "error" | "signIn";

/** Options accepted by every error constructor; `cause` is kept for the server log. */
export interface AuthErrorOptions {
  cause?: unknown;
}

/** The stable type names of every Tessera error. */
export type ErrorType =
  | "AccessDenied"
  | "AccountNotLinked"
  | "AdapterError"
  | "CallbackRouteError"
  | "CredentialsSignin"
  | "DuplicateConditionalUI"
  | "EmailSignInError"
  | "ErrorPageLoop"
  | "EventError"
  | "ExperimentalFeatureNotEnabled"
  | "InvalidCallbackUrl"
  | "InvalidCheck"
  | "InvalidEndpoints"
  | "InvalidExtension"
  | "InvalidProvider"
  | "JWTSessionError"
  | "MissingAdapter"
  | "MissingAdapterMethods"
  | "MissingAuthorize"
  | "MissingCSRF"
  | "MissingSecret"
  | "MissingWebAuthnAutocomplete"
  | "OAuthAccountNotLinked"
  | "OAuthCallbackError"
  | "OAuthProfileParseError"
  | "OAuthSignInError"
  | "RateLimited"
  | "InvalidRateLimit"
  | "InvalidJwtOptions"
  | "RefreshTokenError"
  | "RefreshUnavailable"
  | "SessionTokenError"
  | "SignOutError"
  | "UnknownAction"
  | "UnsupportedStrategy"
  | "TwoFactorFailed"
  | "OrganizationActionRefused"
  | "AdminActionRefused"
  | "UserBanned"
  | "OrganizationSessionUnreadable"
  | "PasswordHashUnavailable"
  | "PasswordRefused"
  | "PasskeyDeletionRefused"
  | "UntrustedHost"
  | "Verification"
  | "WebAuthnVerificationError";

/** Base class of every Tessera error. `type` is stable; `kind` picks the page a user lands on. */
export class AuthError extends Error {
  static type: ErrorType = "CallbackRouteError";
  static kind: ErrorKind = "error";
  /** Stable identifier, used in logs and in the `error` query parameter. */
  readonly type: ErrorType;
  /** Which page the user is sent to when this error ends a flow. */
  readonly kind: ErrorKind;
  /** Underlying cause, kept for the server log (never shown to the browser). */
  declare cause?: Record<string, unknown> & { err?: Error };

  constructor(message?: string | Error, options?: AuthErrorOptions) {
    if (message instanceof Error) {
      super(undefined, { cause: { err: message, ...(message.cause as object | undefined) } });
    } else if (typeof message === "string") {
      let cause = options?.cause;
      if (cause instanceof Error) cause = { err: cause, ...(cause.cause as object | undefined) };
      super(message, cause === undefined ? undefined : { cause });
    } else {
      super(undefined, options);
    }
    const ctor = this.constructor as typeof AuthError;
    this.name = ctor.name;
    this.type = ctor.type;
    this.kind = ctor.kind;
    if (!this.message) this.message = `${this.type}: an authentication error occurred.`;
  }
}

/** Errors that end a sign-in attempt; they send the user back to the sign-in page. */
export class SignInError extends AuthError {
  static override kind: ErrorKind = "signIn";
}

/** An adapter method threw. The original error is in `cause`. */
export class AdapterError extends AuthError {
  static override type: ErrorType = "AdapterError";
}

/** The `signIn` callback returned `false` or threw; shown as `error=AccessDenied` (403). */
export class AccessDenied extends AuthError {
  static override type: ErrorType = "AccessDenied";
}

/** The callback route failed for a reason logged server-side (provider, adapter or callback). */
export class CallbackRouteError extends AuthError {
  static override type: ErrorType = "CallbackRouteError";
}

/** The configured error page itself requires authentication, which would loop forever. */
export class ErrorPageLoop extends AuthError {
  static override type: ErrorType = "ErrorPageLoop";
}

/** An `events.*` handler threw. Events never break a flow; this is only logged. */
export class EventError extends AuthError {
  static override type: ErrorType = "EventError";
}

/** A `callbackUrl` could not be parsed or points where the `redirect` callback refused. */
export class InvalidCallbackUrl extends AuthError {
  static override type: ErrorType = "InvalidCallbackUrl";
}

/**
 * `authorize` refused the credentials. `code` is placed in the redirect (`&code=`) and must not
 * reveal whether the user or the password was wrong.
 *
 * @example
 * ```ts
 * class InvalidLogin extends CredentialsSignin { code = "invalid_login" }
 * ```
 */
export class CredentialsSignin extends SignInError {
  static override type: ErrorType = "CredentialsSignin";
  /** Shown in the `code` query parameter. Defaults to `credentials`. */
  code = "credentials";
}

/** An OAuth provider lacks a usable authorization, token or userinfo endpoint. */
export class InvalidEndpoints extends AuthError {
  static override type: ErrorType = "InvalidEndpoints";
}

/** A PKCE, state, nonce or WebAuthn challenge check failed (missing, tampered, expired, foreign). */
export class InvalidCheck extends AuthError {
  static override type: ErrorType = "InvalidCheck";
}

/** The JWT session cookie could not be decoded or the `jwt`/`session` callback threw. */
export class JWTSessionError extends AuthError {
  static override type: ErrorType = "JWTSessionError";
}

/** A feature that needs an adapter (e-mail, WebAuthn, database sessions) has none configured. */
export class MissingAdapter extends AuthError {
  static override type: ErrorType = "MissingAdapter";
}

/** The adapter lacks methods that the configured features call; the message names them. */
export class MissingAdapterMethods extends AuthError {
  static override type: ErrorType = "MissingAdapterMethods";
}

/** A credentials provider has no `authorize` function. */
export class MissingAuthorize extends AuthError {
  static override type: ErrorType = "MissingAuthorize";
}

/** No secret is configured. Set `AUTH_SECRET` (for example with `npx tessera secret`). */
export class MissingSecret extends AuthError {
  static override type: ErrorType = "MissingSecret";
}

/** Alias kept for the error's other name, `MissingSecretError`. */
export { MissingSecret as MissingSecretError };

/** An OAuth account's e-mail belongs to another user and automatic linking is not allowed. */
export class OAuthAccountNotLinked extends SignInError {
  static override type: ErrorType = "OAuthAccountNotLinked";
}

/** The provider answered the callback with an error, or its token/userinfo response was bad. */
export class OAuthCallbackError extends SignInError {
  static override type: ErrorType = "OAuthCallbackError";
}

/** The provider's `profile` callback threw or returned something that is not a user. */
export class OAuthProfileParseError extends AuthError {
  static override type: ErrorType = "OAuthProfileParseError";
}

/** The database session could not be read (adapter failure or malformed cookie). */
export class SessionTokenError extends AuthError {
  static override type: ErrorType = "SessionTokenError";
}

/** The authorization request could not be built (discovery failed, bad configuration). */
export class OAuthSignInError extends SignInError {
  static override type: ErrorType = "OAuthSignInError";
}

/** The e-mail sign-in could not start: invalid address, or sending the e-mail failed. */
export class EmailSignInError extends SignInError {
  static override type: ErrorType = "EmailSignInError";
  /**
   * Why the address was refused, when it was (`address-required`, `address-one-at`, …): sent to
   * the sign-in page as `&code=`, which names the reason and keeps what was typed.
   */
  code?: string;
}

/** Sign-out failed (for example the adapter could not delete the session). */
export class SignOutError extends AuthError {
  static override type: ErrorType = "SignOutError";
}

/** The path or method does not name an action Tessera serves. Answered with 400. */
export class UnknownAction extends AuthError {
  static override type: ErrorType = "UnknownAction";
}

/** The configured session strategy does not fit the provider (kept for API compatibility). */
export class UnsupportedStrategy extends AuthError {
  static override type: ErrorType = "UnsupportedStrategy";
}

/** A provider is misconfigured or unknown. */
export class InvalidProvider extends AuthError {
  static override type: ErrorType = "InvalidProvider";
}

/**
 * The request's host is not trusted. Set `AUTH_URL` to the site's public URL, or `trustHost: true`
 * (`AUTH_TRUST_HOST=true`) when the Host header is set safely.
 */
export class UntrustedHost extends AuthError {
  static override type: ErrorType = "UntrustedHost";
}

/** An e-mail link is expired, used, or does not match the address. Shown with status 403. */
export class Verification extends AuthError {
  static override type: ErrorType = "Verification";
}

/** A POST lacked a valid CSRF token (double-submit cookie check failed). */
export class MissingCSRF extends SignInError {
  static override type: ErrorType = "MissingCSRF";
}

/** More than one WebAuthn provider asks for conditional UI. */
export class DuplicateConditionalUI extends AuthError {
  static override type: ErrorType = "DuplicateConditionalUI";
}

/** A WebAuthn provider with conditional UI has no form field with `autocomplete="webauthn"`. */
export class MissingWebAuthnAutocomplete extends AuthError {
  static override type: ErrorType = "MissingWebAuthnAutocomplete";
}

/** A WebAuthn registration or assertion failed verification. */
export class WebAuthnVerificationError extends AuthError {
  static override type: ErrorType = "WebAuthnVerificationError";
}

/** The account (e.g. a passkey) is already linked to another user. */
export class AccountNotLinked extends SignInError {
  static override type: ErrorType = "AccountNotLinked";
}

/**
 * The provider refused to refresh an account's access token (`invalid_grant`: the refresh token
 * was revoked, expired or already used), or the account has no refresh token. The user must sign
 * in with the provider again; `getAccessToken` throws it and JWT sessions carry
 * `error: "RefreshTokenError"`. Network failures and provider outages are not this error.
 */
export class RefreshTokenError extends AuthError {
  static override type: ErrorType = "RefreshTokenError";
}

/**
 * Too many sign-in attempts for one identifier or client IP address within the `rateLimit`
 * window. The browser lands on the sign-in page with `error=RateLimited`; API clients get 429
 * with `Retry-After`. Nothing else about the attempt (whether the account exists, whether the
 * password was right) is revealed.
 */
export class RateLimited extends SignInError {
  static override type: ErrorType = "RateLimited";
  /** Seconds until another attempt would be counted (the `Retry-After` header). */
  retryAfter = 60;
}

/**
 * A two-factor server function was refused: a wrong or used code, nobody signed in, or no factor
 * to act on. The message says which of these, for the server log; the browser is told nothing
 * about which factor or user failed.
 */
export class TwoFactorFailed extends AuthError {
  static override type: ErrorType = "TwoFactorFailed";
}

/**
 * An extension's operation refused over its action row, as its in-process API reports it: the
 * server's refusal code and the HTTP status it answered. Catch the subclass of the extension.
 */
export abstract class ExtensionActionRefused extends AuthError {
  /** The refusal's code, as the HTTP answer names it. */
  readonly reason: string;
  /** The HTTP status the action answered. */
  readonly status: number;
  constructor(message: string, reason: string, status: number) {
    super(message);
    this.reason = reason;
    this.status = status;
  }
}

/**
 * An organisation operation was refused: the caller is signed out, not a member of the
 * organisation, lacks the permission, or the target (member, invitation, team) does not exist or
 * changed. `reason` is the server's code (`Forbidden`, `LastOwner`, `InvitationNotPending`, …).
 */
export class OrganizationActionRefused extends ExtensionActionRefused {
  static override type: ErrorType = "OrganizationActionRefused";
}

/**
 * An admin operation was refused: the caller is signed out, not an administrator, acting from an
 * impersonated session, or the target user does not exist. `reason` is the server's code
 * (`Forbidden`, `UserNotFound`, `ImpersonationActive`, …).
 */
export class AdminActionRefused extends ExtensionActionRefused {
  static override type: ErrorType = "AdminActionRefused";
}

/**
 * A banned user tried to sign in (`@tessera/core/admin`); shown as `error=UserBanned` (403) on
 * the error page. The ban's reason stays in the server log: the page tells the user only that the
 * account is suspended and whom to ask.
 */
export class UserBanned extends AuthError {
  static override type: ErrorType = "UserBanned";
}

/**
 * `hasPermission(session, …)` was given a session it cannot trust: not one read in-process with
 * the organisations extension configured (a session from JSON could say anything). Pass the
 * session your integration's `auth()` answered in server code.
 */
export class OrganizationSessionUnreadable extends AuthError {
  static override type: ErrorType = "OrganizationSessionUnreadable";
}

/**
 * A password could not be hashed here: the runtime has no `node:crypto`, and `@noble/hashes` (the
 * scrypt used there) is not installed.
 */
export class PasswordHashUnavailable extends AuthError {
  static override type: ErrorType = "PasswordHashUnavailable";
}

/**
 * A password server function (`passwordApi`) was refused: a wrong or expired code, a password the
 * policy refuses, a wrong current password, nobody signed in, or too many attempts. The message
 * names which, for the server log.
 */
export class PasswordRefused extends AuthError {
  static override type: ErrorType = "PasswordRefused";
}

/**
 * Deleting a passkey was refused. `reason` is the action's code: `StepUpRequired` when the session
 * did not authenticate within the last ten minutes (send the user to `url`, which re-authenticates
 * and comes back to the account page, then try again), `LastSignInMethod` when the passkey is the
 * user's only way in (add another sign-in method first).
 *
 * @example
 * ```ts
 * try {
 *   await deletePasskey(request, config, id)
 * } catch (error) {
 *   if (error instanceof PasskeyDeletionRefused && error.url) return Response.redirect(error.url)
 *   throw error
 * }
 * ```
 */
export class PasskeyDeletionRefused extends AuthError {
  static override type: ErrorType = "PasskeyDeletionRefused";
  /** The refusal's code, as the HTTP answer names it. */
  readonly reason: "StepUpRequired" | "LastSignInMethod";
  /** With `StepUpRequired`: where the user authenticates again before deleting. */
  readonly url?: string;
  constructor(message: string, reason: "StepUpRequired" | "LastSignInMethod", url?: string) {
    super(message);
    this.reason = reason;
    if (url !== undefined) this.url = url;
  }
}

/** The `rateLimit` option is malformed (a window or maximum that is not positive, a bad store). */
export class InvalidRateLimit extends AuthError {
  static override type: ErrorType = "InvalidRateLimit";
}

/** The `jwt` option is malformed (a `revocationCacheSeconds` that is not 0 to 60 seconds). */
export class InvalidJwtOptions extends AuthError {
  static override type: ErrorType = "InvalidJwtOptions";
}

/**
 * An expired access token could not be refreshed now: the provider or the network failed (a
 * timeout, a 5xx, a malformed answer). Unlike {@link RefreshTokenError}, the refresh token may
 * still be good: try again later. The cause, when known, is kept.
 */
export class RefreshUnavailable extends AuthError {
  static override type: ErrorType = "RefreshUnavailable";
}

/**
 * An entry of `experimental.extensions` cannot be used: not made by `defineExtension`, or an
 * action or sign-in step whose name is taken.
 */
export class InvalidExtension extends AuthError {
  static override type: ErrorType = "InvalidExtension";
}

/** An experimental feature (WebAuthn) is used without `experimental.enableWebAuthn`. */
export class ExperimentalFeatureNotEnabled extends AuthError {
  static override type: ErrorType = "ExperimentalFeatureNotEnabled";
}

/**
 * Error types that may be shown to the browser as they are. Every other error is shown as
 * `Configuration` so that internals never leak to a client.
 */
const clientSafeErrorTypes: ReadonlySet<ErrorType> = new Set<ErrorType>([
  "CredentialsSignin",
  "OAuthAccountNotLinked",
  "OAuthCallbackError",
  "OAuthSignInError",
  "EmailSignInError",
  "AccessDenied",
  "Verification",
  "MissingCSRF",
  "AccountNotLinked",
  "WebAuthnVerificationError",
  "RateLimited",
  "UserBanned",
]);

/**
 * The `error` parameter of the page an error sends the browser to. Two sign-in errors go by the
 * names Auth.js's sign-in pages know (`SignInPageErrorParam`), so that custom pages written for
 * Auth.js show their message; every other type is its own name.
 *
 * @example
 * ```ts
 * errorPageParam(new EmailSignInError("SMTP refused")) // "EmailSignin"
 * ```
 */
export function errorPageParam(error: AuthError): string {
  if (error.type === "OAuthSignInError") return "OAuthSignin";
  if (error.type === "EmailSignInError") return "EmailSignin";
  return error.type;
}

/** True when `error` may be named to the browser (see {@link clientSafeErrorTypes}). */
export function isClientError(error: unknown): error is AuthError {
  return error instanceof AuthError && clientSafeErrorTypes.has(error.type);
}
