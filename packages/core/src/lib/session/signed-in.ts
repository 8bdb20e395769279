/**
 * Who is signed in, for an extension's action: the id of the session's user. JWT sessions go
 * through the revocation gates, asked now (no cached "not revoked"): a revoked session must not
 * act. Database sessions are looked up and their expiry checked.
 */
import type { AuthContext } from "../config/internal.js";
import { readChunkedCookie } from "../http/cookies.js";
import { readJwtSession } from "./jwt-cookie.js";

/**
 * The id of the signed-in user, or null (signed out, expired, revoked, unreadable).
 *
 * @example
 * ```ts
 * const userId = await signedInUserId(ctx)
 * if (!userId) return json({ error: "NotSignedIn" }, 401)
 * ```
 */
export async function signedInUserId(ctx: AuthContext): Promise<string | null> {
  const { config, cookies, request } = ctx;
  try {
    if (config.session.strategy === "jwt") {
      const read = await readJwtSession(config, request.cookies, cookies.sessionToken, 0);
      if (typeof read === "string") return null;
      return typeof read.sub === "string" ? read.sub : null;
    }
    const token = readChunkedCookie(request.cookies, cookies.sessionToken.name);
    if (!token || !config.adapter) return null;
    const found = await config.adapter.getSessionAndUser(token);
    if (!found || found.session.expires.valueOf() < Date.now()) return null;
    return found.user.id;
  } catch {
    return null;
  }
}
