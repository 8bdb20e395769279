/**
 * `getAccessToken`: the signed-in user's access token at a provider, refreshed first when it
 * has expired (or will within `oauth.refreshMargin` seconds). Database sessions read the account
 * row and write refreshed tokens back through `adapter.updateAccount`; JWT sessions read the
 * tokens a `refresh: true` provider keeps in the session JWT.
 */
import type { AdapterAccount } from "../../adapters.js";
import {
  AuthError,
  MissingAdapterMethods,
  RefreshTokenError,
  RefreshUnavailable,
} from "../../errors.js";
import type { Cookie } from "../../types.js";
import { requireAdapter } from "../config/adapter.js";
import type { ResolvedConfig } from "../config/internal.js";
import { isDue } from "../config/oauth-defaults.js";
import { readChunkedCookie } from "../http/cookies.js";
import { type RefreshedTokens, refreshTokens } from "../oauth/refresh.js";
import { refreshOnce } from "../oauth/refresh-flight.js";
import { subjectOf } from "../oauth/token.js";
import type { InternalOAuthProvider } from "../provider-types.js";
import { readJwtAccountTokens } from "./jwt-account-tokens.js";
import { type RequestCookies, sessionCookieOption } from "./jwt-cookie.js";

/** What {@link getAccessToken} answers. */
export interface AccessToken {
  accessToken: string;
  /** Seconds since the epoch; `undefined` when the provider gave no expiry. */
  expiresAt: number | undefined;
  /** Lower case (`bearer`, `dpop`, …). */
  tokenType: string | undefined;
  scope: string | undefined;
}

/**
 * What {@link getAccessToken} reads of a request: its URL (for the origin) and its headers (for
 * the session cookie). A `Request` has both; integrations without one pass these two.
 */
export interface RequestHead {
  url: string;
  headers: Headers;
}

/** Options of {@link getAccessToken}. */
export interface AccessTokenOptions {
  /**
   * Receives the re-issued session cookie when a JWT session's token was refreshed by this call;
   * an integration writes it to its response (without it, the next session read refreshes again).
   */
  onCookies?: (cookies: Cookie[]) => void;
}

function answer(tokens: {
  access_token?: unknown;
  expires_at?: unknown;
  token_type?: unknown;
  scope?: unknown;
}): AccessToken | null {
  if (typeof tokens.access_token !== "string" || tokens.access_token === "") return null;
  return {
    accessToken: tokens.access_token,
    expiresAt: typeof tokens.expires_at === "number" ? tokens.expires_at : undefined,
    tokenType: typeof tokens.token_type === "string" ? tokens.token_type : undefined,
    scope: typeof tokens.scope === "string" ? tokens.scope : undefined,
  };
}

/** The methods the database path needs beyond the session ones, or a clear error. */
function assertAccountMethods(config: ResolvedConfig, needsUpdate: boolean): void {
  const raw = config.rawAdapter;
  const missing = ["listAccountsByUserId", ...(needsUpdate ? ["updateAccount"] : [])].filter(
    (name) => typeof (raw as Record<string, unknown> | undefined)?.[name] !== "function",
  );
  if (missing.length)
    throw new MissingAdapterMethods(
      `getAccessToken with database sessions needs the adapter methods ${missing.join(", ")} (Tessera extensions: listAccountsByUserId finds the account, updateAccount stores refreshed tokens). Use @tessera/sql, @tessera/redis or @tessera/memory, or implement them.`,
    );
}

/** The account's stored tokens when another refresh has already replaced the due ones. */
async function storedTokensIfFresh(
  config: ResolvedConfig,
  adapter: ReturnType<typeof requireAdapter>,
  account: AdapterAccount,
): Promise<RefreshedTokens | null> {
  const current = (await adapter.listAccountsByUserId?.(account.userId))?.find(
    (candidate) =>
      candidate.provider === account.provider &&
      candidate.providerAccountId === account.providerAccountId,
  );
  if (
    !current ||
    typeof current.access_token !== "string" ||
    typeof current.refresh_token !== "string" ||
    current.access_token === account.access_token ||
    isDue(config, current.expires_at)
  )
    return null;
  return {
    access_token: current.access_token,
    token_type: typeof current.token_type === "string" ? current.token_type : "bearer",
    refresh_token: current.refresh_token,
    ...(typeof current.expires_at === "number" && { expires_at: current.expires_at }),
    ...(typeof current.scope === "string" && { scope: current.scope }),
  };
}

/**
 * Refreshes `account` (once, however many callers) and stores the new tokens. When the provider
 * refuses the refresh token, the account row is read again: another instance without a shared
 * store may have rotated it meanwhile, and then its tokens are the answer; otherwise the dead
 * refresh token is removed, so later calls fail at once instead of asking the provider again.
 */
async function refreshAccount(
  config: ResolvedConfig,
  provider: InternalOAuthProvider,
  account: AdapterAccount,
): Promise<AccessToken | null> {
  const adapter = requireAdapter(config, "getAccessToken with database sessions");
  const key = { provider: account.provider, providerAccountId: account.providerAccountId };
  const identity = { ...key, userId: account.userId };
  const refreshToken = account.refresh_token;
  try {
    if (typeof refreshToken !== "string" || refreshToken === "")
      throw new RefreshTokenError(
        `The ${provider.id} account has an expired access token and no refresh token. Ask the provider for one (often the offline_access scope) and sign in again.`,
      );
    const tokens = await refreshOnce(config, provider, refreshToken, async () => {
      // A caller that read the account before a concurrent refresh stored its tokens can reach
      // this point after that refresh has finished: the stored tokens are then the answer, and
      // asking the provider again would spend (or, with rotation, burn) the refresh token twice.
      const alreadyRefreshed = await storedTokensIfFresh(config, adapter, account);
      if (alreadyRefreshed) return alreadyRefreshed;
      const refreshed = await refreshTokens(provider, refreshToken, subjectOf(account.id_token));
      const stored = await adapter.updateAccount({ ...key, ...refreshed });
      await config.events.tokenRefreshed?.({ account: stored ?? { ...account, ...refreshed } });
      return refreshed;
    });
    return answer(tokens);
  } catch (error) {
    if (error instanceof AuthError && !(error instanceof RefreshTokenError)) throw error;
    if (!(error instanceof RefreshTokenError))
      throw new RefreshUnavailable(
        `The access token of the ${provider.id} account has expired and could not be refreshed now: ${(error as Error)?.message ?? error}. Try again later.`,
        { cause: error },
      );
    const current = (await adapter.listAccountsByUserId(account.userId)).find(
      (candidate) =>
        candidate.provider === account.provider &&
        candidate.providerAccountId === account.providerAccountId,
    );
    if (
      current &&
      typeof current.refresh_token === "string" &&
      current.refresh_token !== refreshToken &&
      !isDue(config, current.expires_at)
    )
      return answer(current);
    if (current?.refresh_token === refreshToken)
      await adapter.updateAccount({ ...key, refresh_token: null });
    await config.events.refreshTokenError?.({ account: identity, error });
    throw error;
  }
}

async function fromDatabase(
  config: ResolvedConfig,
  request: RequestCookies,
  provider: InternalOAuthProvider,
): Promise<AccessToken | null> {
  const adapter = requireAdapter(config, "getAccessToken with database sessions");
  const option = sessionCookieOption(config, request);
  const sessionToken = readChunkedCookie(request.cookies, option.name);
  if (!sessionToken) return null;
  const found = await adapter.getSessionAndUser(sessionToken);
  if (!found || found.session.expires.valueOf() < Date.now()) return null;
  assertAccountMethods(config, false);
  const accounts = await adapter.listAccountsByUserId(found.user.id);
  const account = accounts.find((candidate) => candidate.provider === provider.id);
  if (!account || typeof account.access_token !== "string") return null;
  if (!isDue(config, account.expires_at)) return answer(account);
  assertAccountMethods(config, true);
  return refreshAccount(config, provider, account);
}

/**
 * The access token of the signed-in user's account at `provider` for the request's session
 * cookies, refreshed first when due, and the session cookie the refresh re-issued (JWT sessions).
 * The `access-token` action runs it; `getAccessToken` (in-process.ts) is its public face.
 *
 * @example
 * ```ts
 * const { token, cookies } = await accessTokenFor(ctx.config, { origin, cookies }, provider)
 * ```
 */
export async function accessTokenFor(
  config: ResolvedConfig,
  request: RequestCookies,
  provider: InternalOAuthProvider,
): Promise<{ token: AccessToken | null; cookies: Cookie[] }> {
  if (config.session.strategy === "database")
    return { token: await fromDatabase(config, request, provider), cookies: [] };
  const read = await readJwtAccountTokens(config, request, provider);
  const expiresAt = read.tokens?.expires_at;
  // The session read logs a failed refresh and keeps the session; a caller asking for the token
  // must not get one that has expired (the provider or the network failed: try again later).
  if (provider.refresh === true && typeof expiresAt === "number" && expiresAt * 1000 <= Date.now())
    throw new RefreshUnavailable(
      `The access token of the ${provider.id} account has expired and could not be refreshed now (the provider or the network failed; the server log has the cause). Try again later.`,
    );
  return { token: read.tokens ? answer(read.tokens) : null, cookies: read.cookies };
}
