/**
 * The PKCE, state and nonce checks of an OAuth sign-in. Each value travels to the provider in the
 * authorization request and waits for the callback in its own cookie, sealed as a JWE of
 * `{ value, provider }` (salt = the cookie's name, 15 minutes), exactly as Auth.js writes it, or
 * with the app's `jwt.checkCookieCodec` (a site taking over another system's sign-ins in flight).
 *
 * The redirect proxy (`redirectProxyUrl` / `AUTH_REDIRECT_PROXY_URL`) rides on the `state` check:
 * preview deployments whose URLs a provider does not know send the provider's redirect to one
 * stable deployment (the proxy), which forwards it to the originating deployment named in the
 * encrypted `state`. Both share the secret, so only they can mint or read that state.
 */
import * as o from "oauth4webapi";
import { InvalidCheck } from "../../errors.js";
import type { Cookie, CookieOption } from "../../types.js";
import type { AuthContext } from "../config/internal.js";
import { decodeJwt, encodeJwt } from "../crypto/jwe.js";
import { ownCallbackUrl } from "../http/callback-url.js";
import { CHECK_COOKIE_MAX_AGE } from "../http/cookies.js";
import type { InternalOAuthProvider, OAuthChecks } from "../provider-types.js";

/** The cookies that carry checks (keys of `ctx.cookies`). */
export type CheckCookie = "pkceCodeVerifier" | "state" | "nonce";

/** Salt of the `state` parameter's own JWE (Auth.js compatible). */
const STATE_SALT = "encodedState";

/** What the `state` parameter carries: a random value, and the origin for the redirect proxy. */
export interface StatePayload {
  random: string;
  /** The originating deployment's callback URL, when the sign-in went through a redirect proxy. */
  origin?: string;
}

/**
 * The checks a provider runs, with `state` added when a redirect proxy is in use (as Auth.js
 * does: the proxy finds the originating deployment in the encrypted state).
 */
export function effectiveChecks(
  ctx: AuthContext,
  provider: InternalOAuthProvider,
): Set<OAuthChecks> {
  const checks = new Set(provider.checks);
  if (checks.has("none")) checks.clear();
  if (isProxyActive(ctx, provider)) checks.add("state");
  return checks;
}

/**
 * Cookie options for the check cookies. A `form_post` response arrives as a cross-site POST, in
 * which browsers only send `SameSite=None; Secure` cookies.
 */
function cookieOption(
  ctx: AuthContext,
  name: CheckCookie,
  provider: InternalOAuthProvider,
): CookieOption {
  const option = ctx.cookies[name];
  if (provider.authorization?.params.response_mode !== "form_post") return option;
  return { name: option.name, options: { ...option.options, sameSite: "none", secure: true } };
}

/**
 * A check cookie holding `value` for `provider` (15 minutes). Also carries an OAuth 1.0a request
 * token between the sign-in and its callback.
 */
export async function sealCheck(
  ctx: AuthContext,
  name: CheckCookie,
  provider: InternalOAuthProvider,
  value: string,
): Promise<Cookie> {
  const option = cookieOption(ctx, name, provider);
  const token = { value, provider: provider.id };
  const codec = ctx.config.jwt.checkCookieCodec;
  const sealed = codec
    ? await codec.encode({ token, salt: option.name, maxAge: CHECK_COOKIE_MAX_AGE })
    : await encodeJwt({
        token,
        secret: ctx.config.secrets,
        salt: option.name,
        maxAge: CHECK_COOKIE_MAX_AGE,
      });
  return {
    name: option.name,
    value: sealed,
    options: { ...option.options, expires: new Date(Date.now() + CHECK_COOKIE_MAX_AGE * 1000) },
  };
}

/** Values and cookies of a new authorization request's checks. */
export interface CreatedChecks {
  cookies: Cookie[];
  state?: string;
  codeChallenge?: string;
  nonce?: string;
}

/**
 * Creates the checks for an authorization request (RFC 6749 §10.12 state, RFC 7636 PKCE with
 * S256, OIDC Core §3.1.2.1 nonce). `origin` goes into the state for the redirect proxy.
 */
export async function createChecks(
  ctx: AuthContext,
  provider: InternalOAuthProvider,
  checks: ReadonlySet<OAuthChecks>,
  origin?: string,
): Promise<CreatedChecks> {
  const created: CreatedChecks = { cookies: [] };
  if (checks.has("state")) {
    const payload: StatePayload = {
      ...(origin !== undefined && { origin }),
      random: o.generateRandomState(),
    };
    created.state = await encodeJwt({
      token: payload,
      secret: ctx.config.secrets,
      salt: STATE_SALT,
      maxAge: CHECK_COOKIE_MAX_AGE,
    });
    created.cookies.push(await sealCheck(ctx, "state", provider, created.state));
  }
  if (checks.has("pkce")) {
    const verifier = o.generateRandomCodeVerifier();
    created.codeChallenge = await o.calculatePKCECodeChallenge(verifier);
    created.cookies.push(await sealCheck(ctx, "pkceCodeVerifier", provider, verifier));
  }
  if (checks.has("nonce")) {
    created.nonce = o.generateRandomNonce();
    created.cookies.push(await sealCheck(ctx, "nonce", provider, created.nonce));
  }
  return created;
}

/** A cookie that deletes the check cookie `name` (with the attributes it was written with). */
export function clearCheckCookie(
  ctx: AuthContext,
  name: CheckCookie,
  provider: InternalOAuthProvider,
): Cookie {
  const option = cookieOption(ctx, name, provider);
  return { name: option.name, value: "", options: { ...option.options, maxAge: 0 } };
}

/**
 * Reads the check `name` from its cookie. Throws `InvalidCheck` when the cookie is missing,
 * does not decrypt (tampered, foreign secret, expired), or was minted for another provider.
 */
export async function readCheck(
  ctx: AuthContext,
  name: CheckCookie,
  provider: InternalOAuthProvider,
): Promise<string> {
  const cookieName = ctx.cookies[name].name;
  const sealed = ctx.request.cookies[cookieName];
  if (!sealed)
    throw new InvalidCheck(
      `The ${name} cookie (${cookieName}) is missing: the sign-in was started in another browser, took longer than 15 minutes, or the cookie was blocked.`,
    );
  let payload: { value?: unknown; provider?: unknown } | null;
  const codec = ctx.config.jwt.checkCookieCodec;
  try {
    payload = codec
      ? await codec.decode({ token: sealed, salt: cookieName })
      : await decodeJwt<{ value?: unknown; provider?: unknown }>({
          token: sealed,
          secret: ctx.config.secrets,
          salt: cookieName,
        });
  } catch (error) {
    throw new InvalidCheck(`The ${name} cookie could not be decrypted (tampered or expired).`, {
      cause: error,
    });
  }
  if (typeof payload?.value !== "string" || payload.value === "")
    throw new InvalidCheck(`The ${name} cookie holds no value.`);
  // Mix-up defence: a check minted for one provider must not complete another provider's flow.
  if (payload.provider !== provider.id)
    throw new InvalidCheck(
      `The ${name} cookie was created for another provider than "${provider.id}".`,
    );
  return payload.value;
}

/**
 * Decodes the `state` parameter. Returns `null` when it is not a state Tessera (or a deployment
 * sharing its secret) minted.
 */
export async function decodeState(ctx: AuthContext, state: string): Promise<StatePayload | null> {
  try {
    const payload = await decodeJwt<Partial<StatePayload>>({
      token: state,
      secret: ctx.config.secrets,
      salt: STATE_SALT,
    });
    if (!payload || typeof payload.random !== "string") return null;
    return {
      random: payload.random,
      ...(typeof payload.origin === "string" && { origin: payload.origin }),
    };
  } catch {
    return null;
  }
}

/** Reads the check `name` and schedules its cookie's deletion (single use, success or not). */
export async function useCheck(
  ctx: AuthContext,
  name: CheckCookie,
  provider: InternalOAuthProvider,
): Promise<string> {
  if (ctx.request.cookies[ctx.cookies[name].name] !== undefined)
    ctx.responseCookies.push(clearCheckCookie(ctx, name, provider));
  return readCheck(ctx, name, provider);
}

/**
 * The proxy URL in effect for `provider`, if any. `form_post` responses cannot be forwarded by a
 * redirect (they are POST bodies), so the proxy is ignored for them.
 */
export function proxyUrlOf(ctx: AuthContext, provider: InternalOAuthProvider): string | undefined {
  if (provider.authorization?.params.response_mode === "form_post") return undefined;
  return provider.redirectProxyUrl ?? ctx.config.redirectProxyUrl;
}

/** Whether a redirect proxy is in use for `provider`. */
export function isProxyActive(ctx: AuthContext, provider: InternalOAuthProvider): boolean {
  return proxyUrlOf(ctx, provider) !== undefined;
}

/** Whether this request is served by the proxy deployment itself. */
export function isOnRedirectProxy(ctx: AuthContext, provider: InternalOAuthProvider): boolean {
  const proxy = proxyUrlOf(ctx, provider);
  if (!proxy) return false;
  try {
    return new URL(proxy).origin === ctx.url.origin;
  } catch {
    return false;
  }
}

/**
 * The `redirect_uri` of the authorization and token requests: the proxy's callback URL when a
 * proxy is in use (`provider.callbackUrl` already points there), else this deployment's own.
 */
export function redirectUriOf(ctx: AuthContext, provider: InternalOAuthProvider): string {
  return isProxyActive(ctx, provider) ? provider.callbackUrl : ownCallbackUrl(ctx, provider);
}

/**
 * Where the proxy forwards a callback: the originating deployment's callback URL with the
 * provider's parameters, or `undefined` when the callback belongs to this deployment.
 */
export function forwardTarget(
  ctx: AuthContext,
  origin: string | undefined,
  params: URLSearchParams,
): string | undefined {
  if (!origin) return undefined;
  let target: URL;
  try {
    target = new URL(origin);
  } catch {
    return undefined;
  }
  if (target.protocol !== "https:" && target.protocol !== "http:") return undefined;
  if (target.origin === ctx.url.origin) return undefined;
  target.search = params.toString();
  target.hash = "";
  return target.href;
}
