/**
 * The one place a session is issued. OAuth, e-mail, credentials and WebAuthn callbacks all end
 * here, so every sign-in honours the configured strategy (JWT cookie or database session) the same
 * way — including credentials with database sessions.
 */
import { AccessDenied, AuthError } from "../../errors.js";
import type { Cookie, JWT, ResponseInternal } from "../../types.js";
import { requireAdapter } from "../config/adapter.js";
import type { AuthContext, SignInResult } from "../config/internal.js";
import { readChunkedCookie, writeChunkedCookie } from "../http/cookies.js";
import { rotateCsrfToken } from "../http/csrf.js";
import { newSessionMetadata } from "./devices.js";
import {
  clearJwtSession,
  SESSION_ACCOUNT_CLAIM,
  sessionAccountClaim,
  writeJwtSession,
} from "./jwt-cookie.js";
import { withSessionId } from "./jwt-revocation.js";
import { storeSessionClaims } from "./session-claims.js";

/**
 * Asks the `signIn` callback whether the sign-in may go on. Returns a URL when the callback asked
 * for a redirect; throws `AccessDenied` (carrying the original error) when it refused or threw.
 */
export async function authorizeSignIn(
  ctx: AuthContext,
  params: Parameters<AuthContext["config"]["callbacks"]["signIn"]>[0],
): Promise<string | undefined> {
  let verdict: boolean | string;
  try {
    verdict = await ctx.config.callbacks.signIn(params);
  } catch (error) {
    if (error instanceof AuthError) throw error;
    throw new AccessDenied(error as Error);
  }
  if (!verdict) throw new AccessDenied("The signIn callback refused this sign-in.");
  if (typeof verdict !== "string") return undefined;
  return ctx.config.callbacks.redirect({ url: verdict, baseUrl: ctx.url.origin });
}

/**
 * Writes the session for `user`: a JWT cookie (through the `jwt` callback) or a database session
 * (through the adapter), rotates the CSRF token, then emits `signIn`. Returns the cookies to set.
 */
export async function issueSession(ctx: AuthContext, result: SignInResult): Promise<Cookie[]> {
  const { config, cookies, request } = ctx;
  const { user, account, profile, isNewUser } = result;
  const option = cookies.sessionToken;
  const issued: Cookie[] = [];

  if (config.session.strategy === "jwt") {
    // What the user lacks stays undefined, so the token (and the session read from it) omits
    // it, exactly as Auth.js builds them; a stored user's NULLs stay null.
    const defaultToken: JWT = {
      name: user.name,
      email: user.email,
      picture: user.image,
      ...(user.id !== undefined && { sub: String(user.id) }),
    };
    let token = await config.callbacks.jwt({
      token: defaultToken,
      user,
      account,
      ...(profile !== undefined && { profile }),
      isNewUser: isNewUser ?? false,
      trigger: isNewUser ? "signUp" : "signIn",
    });
    if (token === null) {
      issued.push(...clearJwtSession(request.cookies, option));
    } else {
      // Revocable sessions get their id (`sid`) here, after the callback, so it cannot be lost.
      token = withSessionId(config.jwt.revocation, token);
      // Added after the callback, so a callback that builds a new token cannot drop it.
      const claim =
        account && ctx.provider && (ctx.provider.type === "oauth" || ctx.provider.type === "oidc")
          ? sessionAccountClaim(ctx.provider, account)
          : undefined;
      const expires = new Date(Date.now() + config.jwt.maxAge * 1000);
      // When the user authenticated (OpenID Connect Core §2 `auth_time`), for step-up checks
      // (the account page's unlink); the steps' claims (how and when) go in after the callback
      // too, and a step's `auth_time` wins.
      const withSteps = {
        auth_time: Math.floor(Date.now() / 1000),
        ...token,
        ...result.claims,
      };
      const session = claim ? { ...withSteps, [SESSION_ACCOUNT_CLAIM]: claim } : withSteps;
      issued.push(...(await writeJwtSession(config, request.cookies, option, session, expires)));
    }
  } else {
    const adapter = requireAdapter(config, "The database session strategy");
    if (user.id === undefined) throw new TypeError("A database session needs a user with an id.");
    // A new sign-in always gets a new session token and the previous session is removed, so a
    // token planted before sign-in is worthless afterwards (session fixation) and no rows leak.
    const previous = readChunkedCookie(request.cookies, option.name);
    if (previous) await Promise.resolve(adapter.deleteSession(previous)).catch(() => undefined);
    const now = new Date();
    const expires = new Date(now.getTime() + config.session.maxAge * 1000);
    const session = await adapter.createSession({
      sessionToken: config.session.generateSessionToken(),
      userId: String(user.id),
      expires,
      ...newSessionMetadata(ctx, now),
    });
    issued.push(
      ...writeChunkedCookie(request.cookies, option, session.sessionToken, {
        expires: new Date(session.expires),
      }),
    );
    // How and when the user authenticated, where a session row has no column for it.
    if (result.claims)
      await storeSessionClaims(config, session.sessionToken, result.claims, config.session.maxAge);
  }

  // Login CSRF / token fixation: a CSRF token planted before the sign-in is worthless after it.
  issued.push(...(await rotateCsrfToken(ctx)));

  await config.events.signIn?.({
    user,
    account,
    ...(profile !== undefined && { profile }),
    ...(isNewUser !== undefined && { isNewUser }),
  });
  return issued;
}

/**
 * Issues the session and redirects: to `pages.newUser` on a first sign-in when configured, else
 * to the callback URL. The last part of a sign-in (see `completeSignIn` in sign-in.ts).
 */
export async function issueSessionAndRedirect(
  ctx: AuthContext,
  result: SignInResult,
): Promise<ResponseInternal> {
  const cookies = await issueSession(ctx, result);
  const newUserPage = ctx.config.pages.newUser;
  if (result.isNewUser && newUserPage) {
    const target = new URL(newUserPage, ctx.url.origin);
    target.searchParams.set("callbackUrl", ctx.callbackUrl);
    return { redirect: target.href, cookies };
  }
  return { redirect: ctx.callbackUrl, cookies };
}
