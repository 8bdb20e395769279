/**
 * `GET /signout` renders the confirmation page; `POST /signout` ends the session: the cookie is
 * cleared, a database session deleted and the CSRF token replaced, then the user goes to the
 * callback URL — through the OpenID Provider's end-session endpoint when the session came from a
 * provider with `federatedLogout: true` (OpenID Connect RP-Initiated Logout 1.0). When the
 * session could not be ended on the server (revocation store or database down), the cookie is
 * still cleared and the user is sent to the error page with `error=SignOutError` instead.
 */
import { MissingCSRF, SignOutError } from "../../errors.js";
import type { ResponseInternal } from "../../types.js";
import { requireAdapter } from "../config/adapter.js";
import type { AuthContext } from "../config/internal.js";
import { clearChunkedCookie, readChunkedCookie } from "../http/cookies.js";
import { rotateCsrfToken } from "../http/csrf.js";
import { coreTranslator } from "../i18n/core/translator.js";
import { renderSignOutPage } from "../pages/index.js";
import {
  databaseLogoutTarget,
  federatedLogoutProviders,
  federatedLogoutRedirect,
  jwtLogoutTarget,
} from "../session/federated-logout.js";
import {
  clearLegacyJwtSessions,
  decodeJwtSession,
  revokeJwtSessionOf,
} from "../session/jwt-cookie.js";
import { pageUrl } from "./page-url.js";

/** Handles `GET` and `POST /signout`. */
export async function signout(ctx: AuthContext): Promise<ResponseInternal> {
  const { config, request, cookies } = ctx;
  if (request.method === "GET") {
    if (config.pages.signOut)
      return { redirect: pageUrl(ctx, config.pages.signOut, { callbackUrl: ctx.callbackUrl }) };
    return renderSignOutPage({
      url: ctx.url,
      theme: config.theme,
      csrfToken: ctx.csrfToken ?? "",
      callbackUrl: ctx.callbackUrl,
      logoutIssuers: federatedLogoutProviders(ctx).flatMap((provider) => provider.issuer ?? []),
      t: await coreTranslator(ctx),
    });
  }
  // Logout CSRF defence: a foreign page must not be able to sign users out.
  // Thrown, as Auth.js does: the pipeline sends the browser to the sign-in page with
  // \`error=MissingCSRF\` (or answers \`{ url }\` to \`X-Auth-Return-Redirect\` clients).
  if (!ctx.csrfTokenVerified)
    throw new MissingCSRF(
      `A POST to /signout needs the CSRF token of the csrf cookie in \`csrfToken\`.`,
    );
  const option = cookies.sessionToken;
  const sessionToken = readChunkedCookie(request.cookies, option.name);
  // The cookie of this browser is cleared whatever happens below, and so is a session cookie of
  // an earlier setup (`jwt.legacySessionCookies`), which would otherwise sign the user back in.
  const cleared = [
    ...clearChunkedCookie(request.cookies, option),
    ...clearLegacyJwtSessions(config, request.cookies),
  ];
  let logoutTarget: Parameters<typeof federatedLogoutRedirect>[1];
  let incomplete = false;
  if (sessionToken) {
    try {
      if (config.session.strategy === "jwt") {
        const token = await decodeJwtSession(config, request.cookies, option);
        logoutTarget = jwtLogoutTarget(ctx, token);
        // With revocation on, a copy of the cookie (stolen, or on a shared computer) dies too.
        await revokeJwtSessionOf(config, token);
        await config.events.signOut?.({ token });
      } else {
        const adapter = requireAdapter(config, "The database session strategy");
        // Read before the session goes: its user's account holds the ID token of the OP.
        if (federatedLogoutProviders(ctx).length && config.rawAdapter?.listAccountsByUserId) {
          const found = await adapter.getSessionAndUser(sessionToken);
          if (found)
            logoutTarget = databaseLogoutTarget(
              ctx,
              await adapter.listAccountsByUserId(found.user.id),
            );
        }
        const session = await adapter.deleteSession(sessionToken);
        await config.events.signOut?.({ session: session ?? null });
      }
    } catch (error) {
      incomplete = true;
      ctx.logger.error(
        new SignOutError(
          "Sign-out could not end the session on the server (the revocation store or the database failed): this browser's cookie was cleared, but a copy of it stays signed in until it expires. The user was sent to the error page with error=SignOutError. Check the store's or the database's connection.",
          { cause: error },
        ),
      );
    }
  }
  // A token seen before sign-out must not serve the next sign-in (login CSRF).
  const answerCookies = [...cleared, ...(await rotateCsrfToken(ctx))];
  // A sign-out that did not end the session must not look like one that did: the user learns
  // that copies of the session may live on (the OP's end-session redirect would hide it).
  if (incomplete) return { redirect: signOutErrorPage(ctx), cookies: answerCookies };
  // RP-initiated logout: the OP's end-session endpoint sends the browser on to the callback URL.
  const redirect = (await federatedLogoutRedirect(ctx, logoutTarget)) ?? ctx.callbackUrl;
  return { redirect, cookies: answerCookies };
}

/** The error page (`pages.error`, else the built-in one) saying that sign-out was incomplete. */
function signOutErrorPage(ctx: AuthContext): string {
  const page = ctx.config.pages.error ?? `${ctx.config.basePath}/error`;
  return pageUrl(ctx, page, { error: SignOutError.type });
}
