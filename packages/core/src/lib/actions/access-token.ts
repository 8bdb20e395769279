/**
 * The `access-token` action (server code only): the signed-in user's access token at the provider
 * that follows the action, refreshed first when due. `getAccessToken` runs it in-process.
 */
import { InvalidProvider } from "../../errors.js";
import type { ResponseInternal } from "../../types.js";
import type { AuthContext } from "../config/internal.js";
import { type AccessToken, accessTokenFor } from "../session/access-token.js";

/**
 * What the action answers: the token, or the error `getAccessToken` throws. The error travels as
 * data so that the caller receives the very error that was thrown (with its `cause`), which the
 * pipeline would otherwise log and turn into a redirect to the error page.
 */
export type AccessTokenAnswer = { token: AccessToken | null } | { error: unknown };

/** Answers the token for the request's session (see {@link AccessTokenAnswer}). */
export async function accessToken(ctx: AuthContext): Promise<ResponseInternal<AccessTokenAnswer>> {
  try {
    const provider = ctx.provider;
    if (!provider || (provider.type !== "oauth" && provider.type !== "oidc"))
      throw new InvalidProvider(
        `getAccessToken: "${ctx.request.providerId}" is not an OAuth or OIDC provider of this configuration.`,
      );
    const session = { origin: ctx.request.url.origin, cookies: ctx.request.cookies };
    const { token, cookies } = await accessTokenFor(ctx.config, session, provider);
    return { status: 200, body: { token }, cookies };
  } catch (error) {
    return { status: 200, body: { error } };
  }
}
