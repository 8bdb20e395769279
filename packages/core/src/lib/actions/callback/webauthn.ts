/** WebAuthn callback: registration or assertion verification, then the session. */
import { WebAuthnVerificationError } from "../../../errors.js";
import type { ResponseInternal } from "../../../types.js";
import type { AuthContext, InternalWebAuthnProvider } from "../../config/internal.js";

/** Completes a WebAuthn sign-in or registration. */
export async function callbackWithWebAuthn(
  _ctx: AuthContext,
  provider: InternalWebAuthnProvider,
): Promise<ResponseInternal> {
  throw new WebAuthnVerificationError(
    `WebAuthn for "${provider.id}" is not available in this build.`,
  );
}
