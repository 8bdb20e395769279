/**
 * What the session knows about how its user authenticated: the methods (`amr`, RFC 8176 values)
 * and the time (`auth_time`), kept as token claims by the sign-in step and shown as the session's
 * `authentication` field; and the step-up check built on them.
 */
import type { AuthContext } from "../../lib/config/internal.js";
import type { JWT, Session } from "../../types.js";

/** How a session's user authenticated, as the session shows it. */
export interface SessionAuthentication {
  /**
   * Authentication method references (RFC 8176): `pwd` (a password), `hwk` and `user` (a passkey),
   * `otp` (an authenticator or backup code), `mfa` (more than one factor), `email` (an e-mail
   * link; not a registered value), `fed` (an OAuth or OpenID provider vouched, with the
   * provider's own `amr` values when its ID token has them).
   */
  amr: string[];
  /** When the user last authenticated (ISO 8601). */
  authenticatedAt: string;
}

/** The first factor's methods, from the provider the sign-in used. */
export function firstFactorAmr(ctx: AuthContext, profile: unknown): string[] {
  switch (ctx.provider?.type) {
    case "credentials":
      return ["pwd"];
    case "email":
      return ["email"];
    case "webauthn":
      // A possessed key unlocked by the user (biometrics or PIN); `mfa` is the step's to add.
      return ["hwk", "user"];
    case "oauth":
    case "oidc": {
      const given = (profile as { amr?: unknown } | undefined)?.amr;
      const fromProvider = Array.isArray(given)
        ? given.filter((value): value is string => typeof value === "string")
        : [];
      return ["fed", ...fromProvider];
    }
    default:
      return [];
  }
}

/** The claims a sign-in gets: the methods, without duplicates, and now. */
export function authenticationClaims(amr: readonly string[]): Record<string, unknown> {
  return { amr: [...new Set(amr)], auth_time: Math.floor(Date.now() / 1000) };
}

/** The session's `authentication` field, from the token's claims (none when absent). */
export function authenticationFields(token: JWT): Record<string, unknown> | undefined {
  const { amr, auth_time: authTime } = token as { amr?: unknown; auth_time?: unknown };
  if (!Array.isArray(amr) || typeof authTime !== "number") return undefined;
  const authentication: SessionAuthentication = {
    amr: amr.filter((value): value is string => typeof value === "string"),
    authenticatedAt: new Date(authTime * 1000).toISOString(),
  };
  return { authentication };
}

/** What {@link requireRecentAuthentication} asks of a session. */
export interface RecentAuthenticationOptions {
  /** The longest time since the last authentication, in seconds. */
  maxAge: number;
  /** `mfa`: the authentication must have used more than one factor. */
  factor?: "mfa";
}

/**
 * Step-up for sensitive actions (changing the password, revoking other sessions, turning 2FA
 * off): true when `session` authenticated within `maxAge` seconds (and with several factors when
 * `factor: "mfa"`). When false, send the user to sign in again (a fresh sign-in is the
 * re-authentication) and come back: `signIn(provider, { redirectTo })`.
 *
 * @example
 * ```ts
 * import { requireRecentAuthentication } from "@tessera/core/two-factor"
 * if (!requireRecentAuthentication(session, { maxAge: 5 * 60, factor: "mfa" }))
 *   return Response.redirect(`/auth/signin?callbackUrl=${encodeURIComponent("/account/security")}`)
 * ```
 */
export function requireRecentAuthentication(
  session: Session | null | undefined,
  options: RecentAuthenticationOptions,
): boolean {
  const authentication = (session as { authentication?: SessionAuthentication } | null | undefined)
    ?.authentication;
  if (!authentication) return false;
  const at = Date.parse(authentication.authenticatedAt);
  if (!Number.isFinite(at) || Date.now() - at > options.maxAge * 1000) return false;
  return options.factor !== "mfa" || authentication.amr.includes("mfa");
}
