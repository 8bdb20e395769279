/** OAuth 2 / OIDC callback: code exchange, checks, profile, user resolution. */
import { OAuthCallbackError } from "../../../errors.js";
import type { InternalOAuthProvider } from "../../../providers/index.js";
import type { ResponseInternal } from "../../../types.js";
import type { AuthContext } from "../../config/internal.js";

/** Completes an OAuth sign-in. */
export async function callbackWithOAuth(
  _ctx: AuthContext,
  provider: InternalOAuthProvider,
): Promise<ResponseInternal> {
  throw new OAuthCallbackError(
    `OAuth callback for "${provider.id}" is not available in this build.`,
  );
}
