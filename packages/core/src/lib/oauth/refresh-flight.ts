/**
 * One refresh per refresh token, however many requests need it at once. A provider that rotates
 * refresh tokens accepts each one once and treats a second use as theft (RFC 9700 §4.14.2: it
 * revokes the grant), so two parallel refreshes with the same token sign the user out. Within a
 * process the callers of one token share one promise; with `oauth.store` the instances share a
 * lock (`SharedStore.add`) and the outcome, sealed with the secret, for a minute.
 */
import { RefreshTokenError } from "../../errors.js";
import { firstTime } from "../config/app-state.js";
import type { ResolvedConfig } from "../config/internal.js";
import { isDue } from "../config/oauth-defaults.js";
import { decodeSessionToken, encodeSessionToken, sharedSessionTokenCache } from "../crypto/jwe.js";
import { sha256Base64url } from "../crypto/sha256.js";
import type { InternalOAuthProvider } from "../provider-types.js";
import type { SharedStore } from "../store/shared-store.js";
import type { RefreshedTokens } from "./refresh.js";
import { PROVIDER_TIMEOUT_SECONDS } from "./timeout.js";

/**
 * Seconds a refresh may hold the lock; a crashed holder's lock expires after it. Above the longest
 * refresh (discovery, token grant and key set, each up to the provider timeout), so that a slow
 * refresh keeps its lock to the end; the holder releases only its own lock anyway.
 */
const LOCK_SECONDS = 4 * PROVIDER_TIMEOUT_SECONDS;
/** Seconds the outcome stays readable for the instances that waited (and late requests). */
const RESULT_SECONDS = 60;
const POLL_MS = 50;
/** Key derivation salt of the sealed outcome (never a cookie name). */
const RESULT_SALT = "tessera.refresh-outcome";

/**
 * What the instance that refreshed tells the others, sealed with the flight key it answers
 * (`for`): the store is not trusted to keep outcomes under their own keys.
 */
type Outcome = { for: string } & ({ tokens: RefreshedTokens } | { refused: string });

/** A store key for `refreshToken`: its hash, so the store never holds the token itself. */
function flightKey(provider: InternalOAuthProvider, refreshToken: string): string {
  return sha256Base64url(`${provider.id}\n${refreshToken}`);
}

async function seal(config: ResolvedConfig, outcome: Outcome): Promise<string> {
  return encodeSessionToken(
    { token: outcome, secret: config.secrets, salt: RESULT_SALT, maxAge: RESULT_SECONDS },
    sharedSessionTokenCache,
  );
}

async function open(config: ResolvedConfig, key: string, sealed: string): Promise<RefreshedTokens> {
  const outcome = await decodeSessionToken<Outcome>(
    { token: sealed, secret: config.secrets, salt: RESULT_SALT },
    sharedSessionTokenCache,
  );
  // Token substitution: an outcome moved from another refresh token's key (by someone who can
  // write the store but not seal) would hand this user another account's tokens.
  if (outcome?.for !== key)
    throw new Error(
      "The shared refresh outcome in oauth.store was sealed for another refresh token; it was ignored. Check who can write to the store.",
    );
  if ("tokens" in outcome) return outcome.tokens;
  throw new RefreshTokenError(
    outcome.refused || "Another instance's refresh with this refresh token was refused.",
  );
}

/** Runs `refresh` in one instance of all those sharing `store`; the others get its outcome. */
async function acrossInstances(
  config: ResolvedConfig,
  store: SharedStore,
  key: string,
  refresh: () => Promise<RefreshedTokens>,
): Promise<RefreshedTokens> {
  const lockKey = `tessera:refresh:lock:${key}`;
  const resultKey = `tessera:refresh:outcome:${key}`;
  const deadline = Date.now() + LOCK_SECONDS * 1000;
  for (;;) {
    const shared = await store.get(resultKey);
    if (shared) return open(config, key, shared);
    const owner = crypto.randomUUID();
    if (await store.add(lockKey, owner, LOCK_SECONDS)) {
      try {
        // The previous holder may have published its outcome between the read and the lock.
        const late = await store.get(resultKey);
        if (late) return open(config, key, late);
        let outcome: Outcome;
        let refusal: RefreshTokenError | undefined;
        try {
          outcome = { for: key, tokens: await refresh() };
        } catch (error) {
          if (!(error instanceof RefreshTokenError)) throw error;
          refusal = error;
          outcome = { for: key, refused: error.message };
        }
        await store.add(resultKey, await seal(config, outcome), RESULT_SECONDS);
        if (refusal) throw refusal;
        return (outcome as { tokens: RefreshedTokens }).tokens;
      } finally {
        // Compare-and-delete: had this refresh outlived its lock, the lock may now be another
        // instance's, and removing it would let a third refresh with the same token (a rotated
        // refresh token used twice makes the provider revoke the grant, RFC 9700 §4.14.2).
        await store.deleteIf(lockKey, owner);
      }
    }
    if (Date.now() > deadline)
      throw new Error(
        `Waited ${LOCK_SECONDS} s for another instance to refresh an access token; its lock expired without an outcome.`,
      );
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/**
 * Refreshes with `refreshToken` once for every concurrent caller: in this process always, and
 * across the instances sharing `config.source.oauth.store` when one is configured. `refresh`
 * performs the grant and stores its result (the adapter row) before the outcome is shared;
 * failures other than {@link RefreshTokenError} are not shared, so the next caller tries again.
 *
 * @example
 * ```ts
 * const tokens = await refreshOnce(config, provider, account.refresh_token, async () => {
 *   const tokens = await refreshTokens(provider, account.refresh_token)
 *   await adapter.updateAccount({ ...key, ...tokens })
 *   return tokens
 * })
 * ```
 */
export function refreshOnce(
  config: ResolvedConfig,
  provider: InternalOAuthProvider,
  refreshToken: string,
  refresh: () => Promise<RefreshedTokens>,
): Promise<RefreshedTokens> {
  const key = flightKey(provider, refreshToken);
  // The app's map, not the config object's: a lazy configuration (a new object per request)
  // still refreshes once.
  const running = config.state.refreshes;
  const pending = running.get(key);
  if (pending) return pending;
  const store = config.source.oauth?.store;
  const flight = store ? acrossInstances(config, store, key, refresh) : refresh();
  running.set(key, flight);
  const forget = () => {
    if (running.get(key) === flight) running.delete(key);
  };
  flight.then((tokens) => {
    forget();
    warnIfDueOnArrival(config, provider, tokens);
  }, forget);
  return flight;
}

/**
 * A token that is already due when it arrives means the provider's access tokens live no longer
 * than `oauth.refreshMargin`: every later read would refresh again (one token request per read,
 * and a rotated refresh token per read). Said once per provider and app, since a lazy
 * configuration is resolved on every request.
 */
function warnIfDueOnArrival(
  config: ResolvedConfig,
  provider: InternalOAuthProvider,
  tokens: RefreshedTokens,
): void {
  if (!isDue(config, tokens.expires_at)) return;
  if (!firstTime(config.state, `refresh-margin-exceeds-lifetime\0${provider.id}`)) return;
  config.logger.warn("refresh-margin-exceeds-lifetime");
}
