/**
 * `GET /signout` renders the confirmation page; `POST /signout` ends the session: the cookie is
 * cleared, a database session deleted and the CSRF token replaced, then the user goes to the
 * callback URL — through the OpenID Provider's end-session endpoint when the session came from a
 * provider with `federatedLogout: true` (OpenID Connect RP-Initiated Logout 1.0).
 */
import { MissingCSRF, SignOutError } from "../../errors.js";
import type { ResponseInternal } from "../../types.js";
import { requireAdapter } from "../config/adapter.js";
import type { AuthContext } from "../config/internal.js";
import { clearChunkedCookie, readChunkedCookie } from "../http/cookies.js";
import { rotateCsrfToken } from "../http/csrf.js";
import { renderSignOutPage } from "../pages/index.js";
import {
  databaseLogoutTarget,
  federatedLogoutProviders,
  federatedLogoutRedirect,
  jwtLogoutTarget,
} from "../session/federated-logout.js";
import { decodeJwtSession, revokeJwtSessionOf } from "../session/jwt-cookie.js";
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
  const cleared = clearChunkedCookie(request.cookies, option);
  let logoutTarget: Parameters<typeof federatedLogoutRedirect>[1];
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
      // The cookie is cleared whatever happens; the failure is logged for the operator.
      ctx.logger.error(new SignOutError(error as Error));
    }
  }
  // RP-initiated logout: the OP's end-session endpoint sends the browser on to the callback URL.
  const redirect = (await federatedLogoutRedirect(ctx, logoutTarget)) ?? ctx.callbackUrl;
  // A token seen before sign-out must not serve the next sign-in (login CSRF).
  return { redirect, cookies: [...cleared, ...(await rotateCsrfToken(ctx))] };
}
