/**
 * Authorization server metadata for a provider: discovered from `issuer` or `wellKnown` (OpenID
 * Connect Discovery 1.0 §4, RFC 8414 §3), overlaid with endpoints configured explicitly, and cached
 * for an hour so that a sign-in does not pay for discovery (and the JWKS cache, keyed on the
 * metadata object, survives between sign-ins). An ID token signed with a key the cached JWKS lacks
 * renews both once (see `refreshedServerMetadata`).
 */
import * as o from "oauth4webapi";
import type { InternalOAuthProvider } from "../provider-types.js";
import type { customFetch } from "../symbols.js";
import { fetchOf, httpOptions } from "./client.js";

/** The metadata a flow runs against. */
export interface ServerMetadata {
  as: o.AuthorizationServer;
  /** Whether `as.issuer` is known (configured or discovered) rather than a placeholder. */
  issuerKnown: boolean;
  /**
   * A multi-tenant issuer such as `https://login.microsoftonline.com/{tenantid}/v2.0`: the real
   * issuer of each ID token follows from its `tid` claim.
   */
  issuerTemplate?: string;
}

/** Issuer used when a plain OAuth 2 provider configures none (it is compared with nothing). */
const PLACEHOLDER_ISSUER = "https://issuer.invalid";
const CACHE_SECONDS = 60 * 60;
const TENANT_PLACEHOLDER = "{tenantid}";

type Discovered = { as: o.AuthorizationServer; issuerTemplate?: string };
type CacheEntry = { promise: Promise<Discovered>; expires: number };

/** Cache per fetch implementation, then per discovery URL. */
const caches = new WeakMap<typeof fetch, Map<string, CacheEntry>>();
const MAX_ENTRIES = 64;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Whether `issuer` is `template` with its `{tenantid}` filled by one path segment. */
export function matchesIssuerTemplate(template: string, issuer: string): boolean {
  if (!template.includes(TENANT_PLACEHOLDER)) return false;
  const pattern = escapeRegExp(template).replace(escapeRegExp(TENANT_PLACEHOLDER), "[^/]+");
  return new RegExp(`^${pattern}$`).test(issuer);
}

async function discover(
  provider: InternalOAuthProvider,
  discoveryUrl: URL,
  expectedIssuer: URL | undefined,
): Promise<Discovered> {
  const response = await fetchOf(provider)(discoveryUrl.href, {
    headers: { accept: "application/json" },
    method: "GET",
    redirect: "manual",
    signal: httpOptions(provider).signal(),
  });
  let json: Record<string, unknown>;
  try {
    json = (await response.clone().json()) as Record<string, unknown>;
  } catch (error) {
    throw new TypeError(`The discovery document at ${discoveryUrl.href} is not JSON.`, {
      cause: error,
    });
  }
  const published = typeof json.issuer === "string" ? json.issuer : undefined;
  const expected = expectedIssuer ?? (published ? new URL(published) : undefined);
  if (!expected) return { as: await o.processDiscoveryResponse(discoveryUrl, response) };
  if (published?.includes(TENANT_PLACEHOLDER) && matchesIssuerTemplate(published, expected.href)) {
    // Multi-tenant issuers publish a template; each ID token names its tenant (`tid`).
    const as = { ...json, issuer: expected.href.replace(/\/$/, "") } as o.AuthorizationServer;
    return { as, issuerTemplate: published };
  }
  // Mix-up defence (RFC 8414 §3.3): the document must name the issuer it was fetched for.
  return { as: await o.processDiscoveryResponse(expected, response) };
}

function discoveryTarget(provider: InternalOAuthProvider): {
  url: URL;
  issuer?: URL;
} {
  const issuer = provider.issuer ? new URL(provider.issuer) : undefined;
  if (provider.wellKnown) return { url: new URL(provider.wellKnown), ...(issuer && { issuer }) };
  if (!issuer) throw new TypeError("No issuer or wellKnown to discover from.");
  const url = new URL(issuer.href);
  // OpenID Connect Discovery 1.0 §4: the issuer path, then `/.well-known/openid-configuration`.
  url.pathname = `${url.pathname.replace(/\/$/, "")}/.well-known/openid-configuration`;
  return { url, issuer };
}

/** The discovery cache of `provider`'s fetch implementation, and the provider's key in it. */
function discoveryCacheEntry(provider: InternalOAuthProvider) {
  const target = discoveryTarget(provider);
  const fetcher = fetchOf(provider as Pick<InternalOAuthProvider, typeof customFetch>);
  let cache = caches.get(fetcher);
  if (!cache) {
    cache = new Map();
    caches.set(fetcher, cache);
  }
  return { target, cache, key: `${target.url.href} ${target.issuer?.href ?? ""}` };
}

/** Discovered metadata for `provider`, cached; failures are not cached. */
async function discovered(provider: InternalOAuthProvider): Promise<Discovered> {
  const { target, cache, key } = discoveryCacheEntry(provider);
  const hit = cache.get(key);
  if (hit && hit.expires > Date.now()) return hit.promise;
  if (cache.size >= MAX_ENTRIES) cache.clear();
  const promise = discover(provider, target.url, target.issuer);
  cache.set(key, { promise, expires: Date.now() + CACHE_SECONDS * 1000 });
  promise.catch(() => {
    if (cache.get(key)?.promise === promise) cache.delete(key);
  });
  return promise;
}

/**
 * What a step of the flow needs from the metadata. `logout` needs the discovery document itself
 * (its `end_session_endpoint`, OpenID Connect RP-Initiated Logout 1.0 §2.1).
 */
export type MetadataPurpose = "authorization" | "callback" | "logout";

function needsDiscovery(provider: InternalOAuthProvider, purpose: MetadataPurpose): boolean {
  if (!provider.issuer && !provider.wellKnown) return false;
  if (purpose === "logout") return true;
  if (purpose === "authorization") return !provider.authorization?.url;
  if (!provider.token?.url && !provider.token?.request) return true;
  const profileFromUserinfo = !provider.idToken;
  if (profileFromUserinfo && !provider.userinfo?.url && !provider.userinfo?.request) return true;
  return false;
}

/**
 * The metadata of `provider` for `purpose`. Explicitly configured endpoints win over discovered
 * ones. For OIDC providers configured with explicit endpoints, discovery is still attempted to
 * learn the JWKS URI; if it fails, ID token signatures cannot be checked and only the TLS
 * connection to the token endpoint vouches for the ID token (OIDC Core 1.0 §3.1.3.7 item 6).
 *
 * @example
 * ```ts
 * const { as } = await serverMetadata(provider, "authorization")
 * as.authorization_endpoint // "https://accounts.google.com/o/oauth2/v2/auth"
 * ```
 */
export async function serverMetadata(
  provider: InternalOAuthProvider,
  purpose: MetadataPurpose,
  onOptionalDiscoveryFailure?: (error: unknown) => void,
): Promise<ServerMetadata> {
  let base: Discovered | undefined;
  if (needsDiscovery(provider, purpose)) {
    base = await discovered(provider);
  } else if (
    purpose === "callback" &&
    provider.type === "oidc" &&
    !provider.jwks_endpoint &&
    (provider.issuer || provider.wellKnown)
  ) {
    base = await discovered(provider).catch((error: unknown) => {
      onOptionalDiscoveryFailure?.(error);
      return undefined;
    });
  }
  const issuer = base?.as.issuer ?? provider.issuer;
  const explicit: [string, string][] = [];
  const add = (key: string, value: string | undefined) => value && explicit.push([key, value]);
  add("authorization_endpoint", provider.authorization?.url?.href);
  add("token_endpoint", provider.token?.url?.href);
  add("userinfo_endpoint", provider.userinfo?.url?.href);
  add("jwks_uri", typeof provider.jwks_endpoint === "string" ? provider.jwks_endpoint : undefined);
  const anchor: object = base?.as ?? provider;
  const as = memoized(anchor, JSON.stringify([issuer, explicit]), () => {
    const built: Record<string, unknown> = { ...base?.as, issuer: issuer ?? PLACEHOLDER_ISSUER };
    for (const [key, value] of explicit) built[key] = value;
    return built as unknown as o.AuthorizationServer;
  });
  return {
    as,
    issuerKnown: issuer !== undefined,
    ...(base?.issuerTemplate && { issuerTemplate: base.issuerTemplate }),
  };
}

/**
 * One metadata object per (discovered metadata or provider, overlay): oauth4webapi caches the
 * JWKS per metadata object, so a fresh object per sign-in would download the keys every time.
 */
const overlays = new WeakMap<object, Map<string, o.AuthorizationServer>>();
/** Where each memoized metadata object is held, so that a key refresh can replace it. */
const memoSlots = new WeakMap<
  o.AuthorizationServer,
  { byKey: Map<string, unknown>; key: string }
>();

function memoized(
  anchor: object,
  key: string,
  build: () => o.AuthorizationServer,
): o.AuthorizationServer {
  let byKey = overlays.get(anchor);
  if (!byKey) {
    byKey = new Map();
    overlays.set(anchor, byKey);
  }
  let as = byKey.get(key);
  if (!as) {
    as = build();
    byKey.set(key, as);
    memoSlots.set(as, { byKey, key });
  }
  return as;
}

/** Drops `as` from the memo, so that the next lookup builds a new object (with no cached JWKS). */
function forget(as: o.AuthorizationServer): void {
  const slot = memoSlots.get(as);
  if (slot?.byKey.get(slot.key) === as) slot.byKey.delete(slot.key);
}

/**
 * Milliseconds after a key refresh during which an ID token whose key is still unknown fails at
 * once: a token naming a key the OP never published must not make every sign-in download the
 * keys (load on the OP, slow sign-ins).
 */
const KEY_REFRESH_COOLDOWN_MS = 30_000;
/** When each metadata object was created by a key refresh. */
const refreshedAt = new WeakMap<o.AuthorizationServer, number>();
/** The refresh of each stale metadata object: concurrent sign-ins share one. */
const refreshes = new WeakMap<o.AuthorizationServer, Promise<ServerMetadata>>();

/**
 * The metadata for a callback again, with the signing keys (JWKS) downloaded anew, after an ID
 * token named a key (`kid`) the cached JWKS lacks: the OP has rotated its keys (OIDC Core 1.0
 * §10.1.1). The discovery document is fetched again too when the metadata comes from it, as a
 * rotation may move `jwks_uri`. Resolves to `undefined` when `meta` is itself the result of a
 * refresh less than 30 s old, and rejects when discovery fails.
 *
 * @example
 * ```ts
 * const fresh = await refreshedServerMetadata(provider, meta)
 * if (fresh) await o.validateApplicationLevelSignature(fresh.as, response)
 * ```
 */
export function refreshedServerMetadata(
  provider: InternalOAuthProvider,
  meta: ServerMetadata,
): Promise<ServerMetadata | undefined> {
  const stale = meta.as;
  const pending = refreshes.get(stale);
  if (pending) return pending;
  const at = refreshedAt.get(stale);
  if (at !== undefined && Date.now() - at < KEY_REFRESH_COOLDOWN_MS)
    return Promise.resolve(undefined);
  forget(stale);
  if (provider.issuer || provider.wellKnown) {
    const { cache, key } = discoveryCacheEntry(provider);
    cache.delete(key);
  }
  // A new metadata object, so oauth4webapi has no JWKS cached for it and downloads the keys.
  const promise = serverMetadata(provider, "callback");
  refreshes.set(stale, promise);
  promise.then(
    (fresh) => refreshedAt.set(fresh.as, Date.now()),
    () => refreshes.delete(stale),
  );
  return promise;
}

/** Drops every cached discovery result (tests, key rotation drills). */
export function clearDiscoveryCache(fetcher: typeof fetch = fetch): void {
  caches.delete(fetcher);
}

/**
 * The metadata with another issuer (a tenant's, for a multi-tenant template), memoized so the
 * JWKS cache is shared between sign-ins of that tenant.
 */
export function withIssuer(as: o.AuthorizationServer, issuer: string): o.AuthorizationServer {
  if (as.issuer === issuer) return as;
  return memoized(as, `issuer ${issuer}`, () => ({ ...as, issuer }));
}
