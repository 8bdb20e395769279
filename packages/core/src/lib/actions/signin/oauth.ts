/** OAuth 2 / OIDC sign-in start: the authorization request (RFC 6749 §4.1.1). */
import { OAuthSignInError } from "../../../errors.js";
import type { InternalOAuthProvider } from "../../../providers/index.js";
import type { ResponseInternal } from "../../../types.js";
import type { AuthContext } from "../../config/internal.js";

/** Redirects to the provider's authorization endpoint. */
export async function signinWithOAuth(
  _ctx: AuthContext,
  provider: InternalOAuthProvider,
): Promise<ResponseInternal> {
  throw new OAuthSignInError(`OAuth sign-in for "${provider.id}" is not available in this build.`);
}
