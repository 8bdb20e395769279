/** `GET /csrf`: the CSRF token for the double-submit check (404 when checks are disabled). */
import type { ResponseInternal } from "../../types.js";
import type { AuthContext } from "../config/internal.js";
import { json, NO_CACHE_HEADERS } from "../http/response.js";

/** Returns `{ csrfToken }`; the hashed token is set as a cookie by the pipeline. */
export function csrf(ctx: AuthContext): ResponseInternal {
  if (ctx.config.csrfDisabled || !ctx.csrfToken) return json({ message: "CSRF is disabled" }, 404);
  return json({ csrfToken: ctx.csrfToken }, 200, NO_CACHE_HEADERS);
}
