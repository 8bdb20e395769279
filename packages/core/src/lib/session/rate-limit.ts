/**
 * Sign-in rate limits: a sliding window per identifier (the e-mail address, or the account field a
 * credentials provider declares; canonical, hashed) and, where the integration knows it, per
 * client IP address, for the credentials and WebAuthn callbacks, e-mail sign-in (sending the
 * link) and the e-mail callback. On by default
 * (`rateLimit: false` turns them off); counted in `rateLimit.storage`, else in one memory store
 * shared by every config of the app in this process.
 *
 * Over the limit the attempt is refused with {@link RateLimited} before anything else happens, so
 * the answer reveals nothing about the account. A successful sign-in forgets its identifier's
 * count (a user who mistyped a few times starts afresh); the IP address count is never reset
 * that way, or an attacker could clear it with sign-ins of their own.
 */
import { RateLimited } from "../../errors.js";
import type { AuthContext, ResolvedConfig } from "../config/internal.js";
import { sha256Hex } from "../crypto/encoding.js";
import { memoryStore } from "../store/memory.js";
import type { SharedStore } from "../store/shared-store.js";

/** The defaults: a person mistyping a password does not come near them. */
export const DEFAULT_RATE_LIMIT = { window: 60, max: 10, ipFactor: 5 } as const;

/** What is being attempted; each has its own windows. */
export type SignInAttempt =
  | "credentials"
  | "email-signin"
  | "email-callback"
  | "webauthn"
  /** A second-factor code (TOTP or backup code), counted per user. */
  | "two-factor";

interface ResolvedRateLimit {
  window: number;
  max: number;
  maxPerIp: number;
  storage: SharedStore;
}

/**
 * The default store: the app's in this process (config/app-state.ts), not the config object's. A
 * lazy config (a function called per request) builds a new object each time, and Next.js and
 * SvelteKit derive several objects from one config; a store per object would let every request
 * start from zero.
 */
function defaultStore(config: ResolvedConfig): SharedStore {
  config.state.rateLimitStore ??= memoryStore();
  return config.state.rateLimitStore;
}

/**
 * The shared store of `config`: `rateLimit.storage`, else the app's in this process. Extensions
 * keep their small shared state there (markers, epochs), so it is shared by the instances that
 * share the limits.
 *
 * @example
 * ```ts
 * await sharedStoreOf(ctx.config).add(key, "1", 60)
 * ```
 */
export function sharedStoreOf(config: ResolvedConfig): SharedStore {
  const option = config.source.rateLimit;
  return (option !== false && option?.storage) || defaultStore(config);
}

/** The limits for `config`, or undefined when `rateLimit: false` turns them off. */
function resolve(config: ResolvedConfig): ResolvedRateLimit | undefined {
  const option = config.source.rateLimit;
  if (option === false) return undefined;
  const max = option?.max ?? DEFAULT_RATE_LIMIT.max;
  return {
    window: option?.window ?? DEFAULT_RATE_LIMIT.window,
    max,
    maxPerIp: option?.maxPerIp ?? max * DEFAULT_RATE_LIMIT.ipFactor,
    storage: option?.storage ?? defaultStore(config),
  };
}

const IPV4 = /^(?:\d{1,3}\.){3}\d{1,3}$/;
const HEXTET = /^[0-9a-f]{1,4}$/;

/** The eight 16-bit groups of an IPv6 address, or undefined when `address` is not one. */
function ipv6Groups(address: string): number[] | undefined {
  const halves = address.split("::");
  if (halves.length > 2) return undefined;
  const parse = (part: string | undefined) => (part ? part.split(":") : []);
  const head = parse(halves[0]);
  const tail = parse(halves[1]);
  // A trailing dotted quad (::ffff:192.0.2.1, 64:ff9b::192.0.2.1) stands for two groups.
  const last = halves.length === 2 ? tail : head;
  const quad = last.at(-1);
  if (quad !== undefined && IPV4.test(quad)) {
    const bytes = quad.split(".").map(Number);
    if (bytes.some((byte) => byte > 255)) return undefined;
    const [a = 0, b = 0, c = 0, d = 0] = bytes;
    last.splice(-1, 1, ((a << 8) | b).toString(16), ((c << 8) | d).toString(16));
  }
  if (![...head, ...tail].every((group) => HEXTET.test(group))) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const zeros: string[] = Array(halves.length === 1 ? 0 : missing).fill("0");
  return [...head, ...zeros, ...tail].map((group) => Number.parseInt(group, 16));
}

/**
 * The network an address is counted under: an IPv4 address as it is; an IPv6 address by its /64
 * prefix, since one subscriber or host usually holds a whole /64 and could step through it to
 * get a fresh budget per address (an IPv4-mapped IPv6 address counts as its IPv4 address). A
 * zone (`%eth0`) is dropped; anything unparsable is counted as written.
 *
 * @example
 * ```ts
 * ipNetwork("2001:db8:4:6::1")     // "2001:db8:4:6::/64"
 * ipNetwork("::ffff:192.0.2.1")    // "192.0.2.1"
 * ```
 */
export function ipNetwork(address: string): string {
  const bare = address.trim().toLowerCase().replace(/%.*$/, "");
  if (!bare.includes(":")) return bare;
  const groups = ipv6Groups(bare);
  if (!groups) return bare;
  const isMapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
  if (isMapped) {
    const [high = 0, low = 0] = groups.slice(6);
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join(".");
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(":")}::/64`;
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

// Zero-width spaces, joiners, soft hyphens, BOMs, variation selectors, …: invisible, so an
// attacker could slip them into an identifier to count under a fresh key.
const DEFAULT_IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;

/**
 * The form an identifier is counted under: NFKC (fullwidth and other compatibility forms fold
 * into their plain letters), without default-ignorable code points, trimmed and lower-cased, so
 * no spelling an app may take for the same account gets a budget of its own. E-mail addresses
 * come here already in the e-mail provider's canonical form (trimmed, NFKC, lower-cased), which
 * this folds no further except for stripping invisible characters.
 *
 * @example
 * ```ts
 * canonicalIdentifier(" \u200BＡｄａ ") // "ada"
 * ```
 */
export function canonicalIdentifier(identifier: string | undefined): string | undefined {
  const canonical = identifier
    ?.normalize("NFKC")
    .toLowerCase()
    .normalize("NFKC")
    .replace(DEFAULT_IGNORABLE, "")
    .trim();
  return canonical ? canonical : undefined;
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
  const limits = resolve(ctx.config);
  if (!limits) return;
  const { storage, window } = limits;
  const checks: Promise<{ allowed: boolean; retryAfter: number }>[] = [];
  const ip = ctx.request.clientIp;
  if (ip)
    checks.push(
      limitKey(ctx, attempt, "ip", ipNetwork(ip)).then((key) =>
        storage.consume(key, window, limits.maxPerIp),
      ),
    );
  const id = canonicalIdentifier(identifier);
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
  const limits = resolve(ctx.config);
  const id = canonicalIdentifier(identifier);
  if (!limits || !id) return;
  await limits.storage.resetLimit(await limitKey(ctx, attempt, "id", id));
}

/** Fields the sign-in forms add to every post, which name no account. */
const FORM_FIELDS = new Set(["csrfToken", "callbackUrl"]);

const isSecretField = (name: string, field: { type?: string } | undefined) =>
  name === "password" || field?.type === "password";

function textOf(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return undefined;
}

/** The fields `authorize` may take an account from: the declared ones, else all but the form's own. */
function accountFields(
  declared: Record<string, unknown> | undefined,
  body: Record<string, unknown>,
): string[] {
  const names = Object.keys(declared ?? {});
  return names.length > 0 ? names : Object.keys(body).filter((name) => !FORM_FIELDS.has(name));
}

/**
 * The first credentials field whose value a form could not have posted (an array, a number, an
 * object, `null` — a JSON body can hold any of them), or undefined when every field `authorize`
 * may read is a string or absent. Such a post is refused before it is counted or reaches
 * `authorize`: the limiter counts strings, while `authorize` may read `String(["ada"])`, which is
 * `"ada"`, or hand the array to a driver that expands it.
 *
 * @example
 * ```ts
 * nonStringCredential({ username: {}, password: {} }, { username: ["ada"], password: "x" }) // "username"
 * ```
 */
export function nonStringCredential(
  declared: Record<string, { type?: string } | undefined> | undefined,
  body: Record<string, unknown>,
): string | undefined {
  return accountFields(declared, body).find(
    (name) => body[name] !== undefined && typeof body[name] !== "string",
  );
}

/**
 * The identifier a credentials form is counted under. `authorize` reads the fields the provider
 * declares, so only those name the account: the first declared field that is not a password,
 * in declaration order, whatever else the body holds. (Taking an undeclared `email` or
 * `username` first let an attacker add a fresh one to every guess and never reach the limit.)
 * With no field declared at all, `authorize` may read any: the submitted fields other than
 * `password`, `csrfToken` and `callbackUrl`, each canonical, sorted by name and joined, so the
 * same fields with another password count together. Extra fields still make a new key there,
 * which is why declaring the fields is the way to a per-account limit.
 *
 * @example
 * ```ts
 * credentialsIdentifier({ username: {}, password: { type: "password" } }, { username: "ada", email: "x@y" }) // "ada"
 * ```
 */
export function credentialsIdentifier(
  declared: Record<string, { type?: string } | undefined> | undefined,
  body: Record<string, unknown>,
): string | undefined {
  const fields = Object.entries(declared ?? {});
  if (fields.length > 0) {
    const named = fields.find(([name, field]) => !isSecretField(name, field));
    return named ? textOf(body[named[0]]) : undefined;
  }
  const submitted = Object.keys(body)
    .filter((name) => !FORM_FIELDS.has(name) && !isSecretField(name, undefined))
    .sort()
    .flatMap((name) => {
      const value = canonicalIdentifier(textOf(body[name]));
      return value === undefined ? [] : [[name, value]];
    });
  return submitted.length > 0 ? JSON.stringify(submitted) : undefined;
}
