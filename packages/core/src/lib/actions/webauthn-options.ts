/** `GET /webauthn-options/<id>`: registration or authentication options for the browser. */
import type { ResponseInternal } from "../../types.js";
import type { AuthContext } from "../config/internal.js";
import { json } from "../http/response.js";

/** Returns WebAuthn options for `?action=register|authenticate`. */
export async function webauthnOptions(ctx: AuthContext): Promise<ResponseInternal> {
  if (ctx.provider?.type !== "webauthn")
    return json({ message: "No WebAuthn provider with this id is configured." }, 400);
  return json({ message: "WebAuthn is not available in this build." }, 501);
}
