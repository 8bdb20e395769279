/**
 * `GET <basePath>/sessions` lists the signed-in user's sessions; `POST <basePath>/sessions/revoke`
 * (with `csrfToken` and `id` or `others=true`) ends one of them or all but the current one.
 * Tessera extension, available with the database strategy and an adapter that lists sessions.
 *
 * Every answer is JSON, never a redirect: 200 with the list or `{ revoked }`, 401 when signed
 * out, 403 without a valid CSRF token, 400 for a malformed body, 404 when the feature is not
 * available with this configuration, 500 when the adapter failed (the cause in the server log).
 */
import { AdapterError } from "../../errors.js";
import type { ResponseInternal } from "../../types.js";
import { supportsSessionListing } from "../config/adapter.js";
import type { AuthContext } from "../config/internal.js";
import { json, NO_CACHE_HEADERS } from "../http/response.js";
import { listUserSessions, type RevocationTarget, revokeUserSessions } from "../session/devices.js";

/** Longest handle accepted: real ones are 22 characters. */
const MAX_ID_LENGTH = 128;

function answer(body: unknown, status = 200): ResponseInternal {
  return json(body, status, NO_CACHE_HEADERS);
}

/** The revocation a POST body asks for, or null when it asks for none (or two at once). */
function revocationTarget(body: Record<string, unknown> | undefined): RevocationTarget | null {
  const others = body?.others === true || body?.others === "true";
  const id = body?.id;
  const hasId = typeof id === "string" && id !== "" && id.length <= MAX_ID_LENGTH;
  if (others === hasId) return null;
  return others ? { others: true } : { id: id as string };
}

/** Handles `GET /sessions` and `POST /sessions/revoke`. */
export async function sessions(ctx: AuthContext): Promise<ResponseInternal> {
  const { config, request } = ctx;
  const isRevoke = request.method === "POST";
  // POST /sessions and GET /sessions/revoke name no operation.
  if (isRevoke !== (request.subAction === "revoke"))
    return answer({ message: "Bad request." }, 400);
  if (!supportsSessionListing(config)) {
    ctx.logger.debug(
      "The sessions action needs the database session strategy and an adapter with listSessionsByUserId.",
    );
    return answer({ message: "Session listing is not available." }, 404);
  }
  // CSRF: a foreign page must not be able to sign the user out of their devices.
  if (isRevoke && !ctx.csrfTokenVerified)
    return answer({ message: "A valid csrfToken is needed in the body." }, 403);
  const target = isRevoke ? revocationTarget(request.body) : null;
  if (isRevoke && !target)
    return answer({ message: "Send either `id` (a session's id) or `others=true`." }, 400);
  try {
    if (!target) {
      const listed = await listUserSessions(ctx);
      return listed ? answer(listed) : answer({ message: "Not signed in." }, 401);
    }
    const revocation = await revokeUserSessions(ctx, target);
    if (!revocation) return answer({ message: "Not signed in." }, 401);
    return { ...answer({ revoked: revocation.revoked }), cookies: revocation.cookies };
  } catch (error) {
    ctx.logger.error(error instanceof AdapterError ? error : new AdapterError(error as Error));
    return answer(
      { message: "The sessions could not be read; the server log names the cause." },
      500,
    );
  }
}
