/**
 * Which OpenID Provider a session came from and its ID token, for RP-initiated logout: JWT
 * sessions remember them in the session JWT, database sessions in the user's account row.
 */
import type { AdapterAccount } from "../../adapters.js";
import type { JWT } from "../../types.js";
import type { AuthContext } from "../config/internal.js";
import type { InternalOAuthProvider } from "../provider-types.js";
import { sessionAccountOf } from "./jwt-cookie.js";

/** The providers of this request that sign users out of themselves (`federatedLogout: true`). */
export function federatedLogoutProviders(ctx: AuthContext): InternalOAuthProvider[] {
  return ctx.providers.filter(
    (provider): provider is InternalOAuthProvider =>
      provider.type === "oidc" && provider.federatedLogout === true,
  );
}

/** The provider and ID token a JWT session was created with, if it needs a federated logout. */
export function jwtLogoutTarget(
  ctx: AuthContext,
  token: JWT | null,
): { provider: InternalOAuthProvider; idToken: string } | undefined {
  const account = sessionAccountOf(token);
  if (!account?.id_token) return undefined;
  const provider = federatedLogoutProviders(ctx).find(
    (candidate) => candidate.id === account.provider,
  );
  return provider ? { provider, idToken: account.id_token } : undefined;
}

/**
 * The provider and ID token of a database session's user: their account at a `federatedLogout`
 * provider (the first configured, when they have several) that holds an ID token.
 */
export function databaseLogoutTarget(
  ctx: AuthContext,
  accounts: AdapterAccount[],
): { provider: InternalOAuthProvider; idToken: string } | undefined {
  for (const provider of federatedLogoutProviders(ctx)) {
    const account = accounts.find((candidate) => candidate.provider === provider.id);
    if (typeof account?.id_token === "string") return { provider, idToken: account.id_token };
  }
  return undefined;
}

/**
 * Where the browser goes after the local sign-out: the OP's end-session endpoint (which returns
 * it to the callback URL), or `undefined` to go to the callback URL directly. A failure to reach
 * the OP's discovery document is logged and leaves the local sign-out as it is.
 */
export async function federatedLogoutRedirect(
  ctx: AuthContext,
  target: { provider: InternalOAuthProvider; idToken: string } | undefined,
): Promise<string | undefined> {
  if (!target) return undefined;
  try {
    // The OAuth client (discovery) loads with the first federated logout: the sign-out page and
    // every other sign-out never need it.
    const { endSessionUrl } = await import("../oauth/end-session.js");
    return await endSessionUrl(target.provider, target.idToken, ctx.callbackUrl);
  } catch (error) {
    ctx.logger.error(error as Error);
    return undefined;
  }
}
