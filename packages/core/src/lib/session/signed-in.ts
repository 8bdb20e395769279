/**
 * Who is signed in: the id of the session's user (for an extension's action), or the user (to
 * link a new sign-in method to them). JWT sessions go through the revocation gates, asked now (no
 * cached "not revoked"): a revoked session must not act. Database sessions are looked up and
 * their expiry checked. Reading who is signed in issues nothing, so the pages that ask (the
 * sign-in page) load none of the session-issuing code (sign-in.ts).
 */
import type { AdapterUser } from "../../adapters.js";
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

/**
 * The user of the current session, or null (signed out, expired, revoked, unreadable, or no
 * adapter to read users from): the user a new account is linked to.
 *
 * @example
 * ```ts
 * const signedIn = await currentSessionUser(ctx)
 * if (signedIn) await adapter.linkAccount({ ...account, userId: signedIn.id })
 * ```
 */
export async function currentSessionUser(ctx: AuthContext): Promise<AdapterUser | null> {
  const { config, cookies, request } = ctx;
  const adapter = config.adapter;
  if (!adapter) return null;
  try {
    if (config.session.strategy === "jwt") {
      // Account takeover through a revoked or OP-ended cookie: it must not link a new account to
      // its user. The denylist is asked now (no cached "not revoked").
      const payload = await readJwtSession(config, request.cookies, cookies.sessionToken, 0);
      if (typeof payload === "string") return null;
      return payload.sub ? await adapter.getUser(payload.sub) : null;
    }
    const token = readChunkedCookie(request.cookies, cookies.sessionToken.name);
    if (!token) return null;
    const found = await adapter.getSessionAndUser(token);
    if (!found || found.session.expires.valueOf() < Date.now()) return null;
    return found.user;
  } catch {
    // A stale or foreign session cookie does not stop a fresh sign-in.
    return null;
  }
}
