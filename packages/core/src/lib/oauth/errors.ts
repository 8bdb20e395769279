/**
 * Turns whatever a provider exchange throws (oauth4webapi protocol errors, network failures,
 * timeouts, failed checks) into the `AuthError` a user is redirected with. Provider-supplied text
 * only reaches the server log, never a page: the redirect carries the error type alone.
 */
import * as o from "oauth4webapi";
import { AuthError, InvalidCheck, OAuthCallbackError, OAuthSignInError } from "../../errors.js";
import type { InternalOAuthProvider } from "../provider-types.js";

/** Keeps log lines about provider text short and on one line (log injection). */
function loggable(value: unknown, max = 200): string {
  const text = typeof value === "string" ? value : JSON.stringify(value ?? "");
  let clean = "";
  for (const char of text) {
    const code = char.charCodeAt(0);
    clean += code < 0x20 || code === 0x7f ? " " : char;
  }
  return clean.length > max ? `${clean.slice(0, max)}…` : clean;
}

/** A one-line description of a provider-side failure, for the server log. */
export function describeProviderError(error: unknown): string {
  if (error instanceof o.AuthorizationResponseError)
    return `the provider answered with error "${loggable(error.error)}"${error.error_description ? ` (${loggable(error.error_description)})` : ""}`;
  if (error instanceof o.ResponseBodyError)
    return `the provider's endpoint answered HTTP ${error.status} with error "${loggable(error.error)}"${error.error_description ? ` (${loggable(error.error_description)})` : ""}`;
  if (error instanceof o.WWWAuthenticateChallengeError) {
    const challenge = error.cause[0];
    const code = challenge?.parameters.error;
    return `the provider refused the request (HTTP ${error.status}, ${loggable(challenge?.scheme ?? "")} challenge${code ? ` with error "${loggable(code)}"` : ""})`;
  }
  if (error instanceof o.OperationProcessingError || error instanceof o.UnsupportedOperationError)
    return `the provider's response failed validation: ${loggable(error.message)}${"code" in error && error.code ? ` [${error.code}]` : ""}`;
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError"))
    return "the request to the provider timed out";
  if (error instanceof TypeError)
    return `the request to the provider failed: ${loggable(error.message)}`;
  if (error instanceof Error) return loggable(error.message);
  return loggable(error);
}

/**
 * The error a failed callback ends with. Configuration errors and errors of later steps (adapter,
 * callbacks) pass through; provider and check failures become `OAuthCallbackError`, which sends
 * the user back to the sign-in page to try again.
 */
export function toCallbackError(error: unknown, provider: InternalOAuthProvider): AuthError {
  if (error instanceof InvalidCheck) {
    const wrapped = new OAuthCallbackError(
      `The OAuth callback of "${provider.id}" failed a check: ${error.message}`,
      { cause: error },
    );
    return wrapped;
  }
  if (error instanceof AuthError) return error;
  return new OAuthCallbackError(
    `The OAuth callback of "${provider.id}" failed: ${describeProviderError(error)}.`,
    { cause: error },
  );
}

/** The error a failed sign-in start ends with (discovery or metadata problems). */
export function toSignInError(error: unknown, provider: InternalOAuthProvider): AuthError {
  if (error instanceof AuthError) return error;
  return new OAuthSignInError(
    `The OAuth sign-in with "${provider.id}" could not start: ${describeProviderError(error)}. Check the provider's issuer/endpoints and that it is reachable.`,
    { cause: error },
  );
}
