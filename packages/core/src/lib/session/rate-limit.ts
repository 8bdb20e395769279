/**
 * Sign-in rate limits: a sliding window per identifier (the e-mail address or username, hashed)
 * and, where the integration knows it, per client IP address, for the credentials and WebAuthn
 * callbacks, e-mail sign-in (sending the link) and the e-mail callback. On by default
 * (`rateLimit: false` turns them off); counted in `rateLimit.storage`, else in one memory store
 * shared by every config of this process.
 *
 * Over the limit the attempt is refused with {@link RateLimited} before anything else happens, so
 * the answer reveals nothing about the account. A successful sign-in forgets its identifier's
 * count (a user who mistyped a few times starts afresh); the IP address count is never reset
 * that way, or an attacker could clear it with sign-ins of their own.
 */
import { RateLimited } from "../../errors.js";
import type { AuthConfig, RateLimitOptions } from "../../types.js";
import type { AuthContext } from "../config/internal.js";
import { sha256Hex } from "../crypto/encoding.js";
import { memoryStore } from "../store/memory.js";
import type { SharedStore } from "../store/shared-store.js";
import { windowProblem } from "../store/sliding-window.js";

/** The defaults: a person mistyping a password does not come near them. */
export const DEFAULT_RATE_LIMIT = { window: 60, max: 10, ipFactor: 5 } as const;

/** What is being attempted; each has its own windows. */
export type SignInAttempt = "credentials" | "email-signin" | "email-callback" | "webauthn";

interface ResolvedRateLimit {
  window: number;
  max: number;
  maxPerIp: number;
  storage: SharedStore;
}

/**
 * The default store: one per process, whatever config object asks. A lazy config (a function
 * called per request) builds a new object each time, and Next.js and SvelteKit derive several
 * objects from one config; a store per object would let every request start from zero. Keys hold
 * a hash of the app's secret, so apps sharing this process never share counts.
 */
const processStore: SharedStore = memoryStore();

/** The limits for `config`, or undefined when `rateLimit: false` turns them off. */
function resolve(config: AuthConfig): ResolvedRateLimit | undefined {
  const option = config.rateLimit;
  if (option === false) return undefined;
  const max = option?.max ?? DEFAULT_RATE_LIMIT.max;
  return {
    window: option?.window ?? DEFAULT_RATE_LIMIT.window,
    max,
    maxPerIp: option?.maxPerIp ?? max * DEFAULT_RATE_LIMIT.ipFactor,
    storage: option?.storage ?? processStore,
  };
}

/**
 * Why `rateLimit` is unusable, or undefined when it is fine (checked once per config).
 *
 * @example
 * ```ts
 * rateLimitProblem({ max: 0 }) // "rateLimit: max is 0: it must be a positive integer."
 * ```
 */
export function rateLimitProblem(option: unknown): string | undefined {
  if (option === undefined || option === false) return undefined;
  if (typeof option !== "object" || option === null)
    return "rateLimit must be an object ({ window, max, maxPerIp, storage }) or false.";
  const { window, max, maxPerIp, storage } = option as RateLimitOptions;
  const problem =
    windowProblem(window ?? DEFAULT_RATE_LIMIT.window, max ?? DEFAULT_RATE_LIMIT.max) ??
    (maxPerIp === undefined ? undefined : windowProblem(1, maxPerIp));
  if (problem) return `rateLimit: ${problem}`;
  if (storage !== undefined && typeof (storage as SharedStore).consume !== "function")
    return "rateLimit: storage must be a SharedStore (memoryStore(), redisStore(redis), sqlStore(db)).";
  return undefined;
}

/** The store key of an identifier or address: hashed with the secret, so the store never holds them. */
async function limitKey(
  ctx: AuthContext,
  attempt: SignInAttempt,
  kind: "id" | "ip",
  value: string,
): Promise<string> {
  const digest = await sha256Hex(`${ctx.config.secrets[0] ?? ""}\0${kind}\0${value}`);
  return `tessera:rate-limit:${attempt}:${kind}:${digest.slice(0, 40)}`;
}

function normalized(identifier: string | undefined): string | undefined {
  const trimmed = identifier?.trim().toLowerCase();
  return trimmed ? trimmed : undefined;
}

/**
 * Counts one `attempt` for `identifier` (and the client IP, when known); throws
 * {@link RateLimited} when either is over its limit.
 *
 * @example
 * ```ts
 * await limitSignInAttempt(ctx, "credentials", "ada@example.com")
 * ```
 */
export async function limitSignInAttempt(
  ctx: AuthContext,
  attempt: SignInAttempt,
  identifier: string | undefined,
): Promise<void> {
  const limits = resolve(ctx.config.source);
  if (!limits) return;
  const { storage, window } = limits;
  const checks: Promise<{ allowed: boolean; retryAfter: number }>[] = [];
  const ip = ctx.request.clientIp;
  if (ip)
    checks.push(
      limitKey(ctx, attempt, "ip", ip).then((key) => storage.consume(key, window, limits.maxPerIp)),
    );
  const id = normalized(identifier);
  if (id)
    checks.push(
      limitKey(ctx, attempt, "id", id).then((key) => storage.consume(key, window, limits.max)),
    );
  const results = await Promise.all(checks);
  const refused = results.filter((result) => !result.allowed);
  if (refused.length === 0) return;
  const error = new RateLimited(
    `Too many ${attempt} attempts ${id ? "for one identifier" : "from one address"} within ${window} s; the client was told to retry later. Raise rateLimit.max (or maxPerIp) if real users hit this.`,
  );
  error.retryAfter = Math.max(...refused.map((result) => result.retryAfter));
  throw error;
}

/**
 * Forgets the count of `identifier` after a successful sign-in (the IP count stays).
 *
 * @example
 * ```ts
 * await clearSignInLimit(ctx, "credentials", "ada@example.com")
 * ```
 */
export async function clearSignInLimit(
  ctx: AuthContext,
  attempt: SignInAttempt,
  identifier: string | undefined,
): Promise<void> {
  const limits = resolve(ctx.config.source);
  const id = normalized(identifier);
  if (!limits || !id) return;
  await limits.storage.resetLimit(await limitKey(ctx, attempt, "id", id));
}

/**
 * The identifier a credentials form names: `email`, else `username`, else the first field the
 * provider declares that was sent as a non-empty string (never a password-typed field).
 *
 * @example
 * ```ts
 * credentialsIdentifier({ username: {}, password: { type: "password" } }, { username: "ada" }) // "ada"
 * ```
 */
export function credentialsIdentifier(
  declared: Record<string, { type?: string } | undefined> | undefined,
  body: Record<string, unknown>,
): string | undefined {
  for (const name of ["email", "username"])
    if (typeof body[name] === "string" && body[name] !== "") return body[name] as string;
  for (const [name, field] of Object.entries(declared ?? {})) {
    if (field?.type === "password" || name === "password") continue;
    const value = body[name];
    if (typeof value === "string" && value !== "") return value;
  }
  return undefined;
}
