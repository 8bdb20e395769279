/** E-mail link callback: single-use token check, then the session. */
import { Verification } from "../../../errors.js";
import type { ResponseInternal } from "../../../types.js";
import type { AuthContext, InternalEmailProvider } from "../../config/internal.js";

/** Completes an e-mail sign-in. */
export async function callbackWithEmail(
  _ctx: AuthContext,
  provider: InternalEmailProvider,
): Promise<ResponseInternal> {
  throw new Verification(`E-mail callback for "${provider.id}" is not available in this build.`);
}
