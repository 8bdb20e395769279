/**
 * What one app keeps in this process from one request to the next: the warnings it has logged
 * and its default in-memory stores (rate-limit counts, e-mail link tries, back-channel logout
 * markers, used WebAuthn challenges, refreshes in flight).
 *
 * Keyed by the app's first secret rather than by its config object: a lazy config is a new
 * object on every request, and Next.js and SvelteKit derive several objects from one config, so
 * state kept per object would start from zero on every request (no rate limit, no replay
 * refusal, a warning per request). Two apps in one process with different secrets never see each
 * other's state; configs that share a secret already accept each other's cookies, and are one
 * app to Tessera.
 */
import type { VerificationAttemptStore } from "../email/attempts.js";
import type { RefreshedTokens } from "../oauth/refresh.js";
import type { SharedStore } from "../store/shared-store.js";

/** One app's state in this process (see the module comment for what an app is). */
export interface AppState {
  /** What has been logged once: a warning code, followed by what it is about when it varies. */
  readonly warned: Set<string>;
  /** The store of `rateLimit` when it names no `storage`. */
  rateLimitStore?: SharedStore;
  /** The store of back-channel logout markers without `oauth.store` or `jwt.revocation`. */
  backchannelStore?: SharedStore;
  /** The store of wrong e-mail link tries for e-mail providers that name no `attemptStore`. */
  attemptStore?: VerificationAttemptStore;
  /** WebAuthn challenges already used, with the time (ms) at which each expires. */
  readonly consumedChallenges: Map<string, number>;
  /** Access-token refreshes running, by flight key (provider and refresh token, hashed). */
  readonly refreshes: Map<string, Promise<RefreshedTokens>>;
}

/**
 * Apps kept: a process runs few (one per secret). Past this many the oldest is forgotten rather
 * than the map growing, should a lazy config ever derive its secret from the request.
 */
const MAX_APPS = 64;

const states = new Map<string, AppState>();

/**
 * The state of the app whose secrets (newest first) are `secrets`, made on first use.
 *
 * @example
 * ```ts
 * const state = appStateFor(["new-secret", "old-secret"])
 * state.rateLimitStore ??= memoryStore()
 * ```
 */
export function appStateFor(secrets: readonly string[]): AppState {
  const key = secrets[0] ?? "";
  let state = states.get(key);
  if (state === undefined) {
    if (states.size >= MAX_APPS) {
      const oldest = states.keys().next();
      if (!oldest.done) states.delete(oldest.value);
    }
    state = { warned: new Set(), consumedChallenges: new Map(), refreshes: new Map() };
    states.set(key, state);
  }
  return state;
}

/**
 * True the first time `what` is asked about for this app, false afterwards: for warnings said
 * once per app, since a lazy config is resolved (and checked) on every request.
 *
 * @example
 * ```ts
 * if (firstTime(config.state, "backchannel-memory-store")) warnings.push("backchannel-memory-store")
 * ```
 */
export function firstTime(state: AppState, what: string): boolean {
  if (state.warned.has(what)) return false;
  state.warned.add(what);
  return true;
}
