/**
 * OAuth 1.0a ([RFC 5849](https://www.rfc-editor.org/rfc/rfc5849)) with HMAC-SHA1 signatures:
 * the request token (§2.1), the authorization redirect (§2.2), the access token (§2.3) and
 * signed resource requests (§3), for providers configured with `version: "1.0A"` (X/Twitter's
 * v1.1 API, as next-auth v4's Twitter provider uses it). Signing runs on Web Crypto, so it works
 * on every runtime the core does. Loaded only when such a provider signs someone in.
 */
import { OAuthCallbackError, OAuthSignInError } from "../../errors.js";

/** Sends a request to the provider (its `customFetch`, timeout and defaults). */
export type OAuth1Send = (url: URL, init: RequestInit) => Promise<Response>;

/** The credentials a request is signed with: the client's, and a token's once there is one. */
export interface OAuth1Credentials {
  consumerKey: string;
  consumerSecret: string;
  token?: string;
  tokenSecret?: string;
}

/**
 * Percent-encodes as RFC 5849 §3.6 requires: every byte but the unreserved characters
 * `A-Z a-z 0-9 - . _ ~`, in upper-case hex (`encodeURIComponent` leaves `!*'()` alone).
 */
export function percentEncode(value: string): string {
  return encodeURIComponent(value).replace(
    /[!*'()]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/**
 * The base string URI of RFC 5849 §3.4.1.2: scheme and host in lower case, the default port
 * left out, no query or fragment.
 */
function baseStringUri(url: URL): string {
  // URL already lower-cases scheme and host and drops a default port.
  return `${url.protocol}//${url.host}${url.pathname}`;
}

/**
 * The signature base string of RFC 5849 §3.4.1: method, base string URI and the normalized
 * parameters (§3.4.1.3.2: query, `application/x-www-form-urlencoded` body and `oauth_*`
 * parameters, each name and value encoded, sorted by name then value, `oauth_signature` left
 * out).
 *
 * @example
 * ```ts
 * signatureBaseString("GET", new URL("http://photos.example.net/photos?size=original"), [["oauth_nonce", "chapoH"]])
 * // "GET&http%3A%2F%2Fphotos.example.net%2Fphotos&oauth_nonce%3DchapoH%26size%3Doriginal"
 * ```
 */
export function signatureBaseString(
  method: string,
  url: URL,
  params: ReadonlyArray<readonly [string, string]>,
): string {
  const all: [string, string][] = [];
  for (const [name, value] of url.searchParams) all.push([name, value]);
  for (const [name, value] of params) if (name !== "oauth_signature") all.push([name, value]);
  const normalized = all
    .map(([name, value]) => [percentEncode(name), percentEncode(value)] as const)
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join("&");
  return [method.toUpperCase(), percentEncode(baseStringUri(url)), percentEncode(normalized)].join(
    "&",
  );
}

const encoder = new TextEncoder();

/**
 * The HMAC-SHA1 signature of RFC 5849 §3.4.2: the base string signed with the key
 * `consumerSecret&tokenSecret` (each percent-encoded), base64.
 */
export async function hmacSha1Signature(
  baseString: string,
  consumerSecret: string,
  tokenSecret = "",
): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    encoder.encode(`${percentEncode(consumerSecret)}&${percentEncode(tokenSecret)}`),
    { name: "HMAC", hash: "SHA-1" },
    false,
    ["sign"],
  );
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(baseString)));
  return btoa(String.fromCharCode(...mac));
}

/** A nonce of RFC 5849 §3.3: random, unique per timestamp. */
function nonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/**
 * The `Authorization: OAuth …` header (RFC 5849 §3.5.1) of a request with the protocol
 * parameters `extra` (`oauth_callback`, `oauth_verifier`), signed with HMAC-SHA1. `body` holds
 * the form parameters of a form-encoded body, which are signed too (§3.4.1.3.1).
 *
 * @example
 * ```ts
 * const header = await authorizationHeader("POST", new URL(requestTokenUrl), creds, { oauth_callback: callbackUrl })
 * ```
 */
export async function authorizationHeader(
  method: string,
  url: URL,
  credentials: OAuth1Credentials,
  extra: Record<string, string> = {},
  body: ReadonlyArray<readonly [string, string]> = [],
  now: { timestamp: string; nonce: string } = {
    timestamp: String(Math.floor(Date.now() / 1000)),
    nonce: nonce(),
  },
): Promise<string> {
  const oauth: Record<string, string> = {
    oauth_consumer_key: credentials.consumerKey,
    oauth_nonce: now.nonce,
    oauth_signature_method: "HMAC-SHA1",
    oauth_timestamp: now.timestamp,
    oauth_version: "1.0",
    ...(credentials.token !== undefined && { oauth_token: credentials.token }),
    ...extra,
  };
  const base = signatureBaseString(method, url, [...Object.entries(oauth), ...body]);
  oauth.oauth_signature = await hmacSha1Signature(
    base,
    credentials.consumerSecret,
    credentials.tokenSecret,
  );
  return `OAuth ${Object.entries(oauth)
    .map(([name, value]) => `${percentEncode(name)}="${percentEncode(value)}"`)
    .join(", ")}`;
}

/** A token and its secret, as the request token and access token endpoints answer them. */
export interface OAuth1Token {
  oauth_token: string;
  oauth_token_secret: string;
  /** Every other parameter of the answer (`user_id`, `screen_name`, `oauth_callback_confirmed`). */
  [name: string]: string;
}

/** POSTs a signed request to a token endpoint and reads its form-encoded answer (§2.1, §2.3). */
async function tokenRequest(
  send: OAuth1Send,
  url: string,
  credentials: OAuth1Credentials,
  extra: Record<string, string>,
  what: string,
  // The request token fails a sign-in start, the access token a callback.
  Failure: typeof OAuthSignInError | typeof OAuthCallbackError,
): Promise<OAuth1Token> {
  const target = new URL(url);
  const response = await send(target, {
    method: "POST",
    headers: { authorization: await authorizationHeader("POST", target, credentials, extra) },
  });
  const text = await response.text();
  if (!response.ok)
    throw new Failure(
      `The ${what} request to ${target.origin} failed with HTTP ${response.status}: check the provider's clientId and clientSecret and the callback URL registered there.`,
    );
  const answer = Object.fromEntries(new URLSearchParams(text)) as Record<string, string>;
  if (!answer.oauth_token || !answer.oauth_token_secret)
    throw new Failure(
      `The ${what} answer of ${target.origin} has no oauth_token and oauth_token_secret.`,
    );
  return answer as OAuth1Token;
}

/**
 * Obtains temporary credentials (RFC 5849 §2.1), announcing `callbackUrl`. Refuses an answer
 * without `oauth_callback_confirmed=true`: a server that ignored the callback is not OAuth 1.0a.
 */
export async function requestToken(
  send: OAuth1Send,
  url: string,
  credentials: OAuth1Credentials,
  callbackUrl: string,
): Promise<OAuth1Token> {
  const token = await tokenRequest(
    send,
    url,
    credentials,
    { oauth_callback: callbackUrl },
    "request token",
    OAuthSignInError,
  );
  if (token.oauth_callback_confirmed !== "true")
    throw new OAuthSignInError(
      "The request token answer lacks oauth_callback_confirmed=true (RFC 5849 §2.1).",
    );
  return token;
}

/** Exchanges the authorized request token and its verifier for token credentials (§2.3). */
export function accessToken(
  send: OAuth1Send,
  url: string,
  credentials: OAuth1Credentials & { token: string; tokenSecret: string },
  verifier: string,
): Promise<OAuth1Token> {
  return tokenRequest(
    send,
    url,
    credentials,
    { oauth_verifier: verifier },
    "access token",
    OAuthCallbackError,
  );
}

/** A signed GET of a protected resource (§3), answered as JSON. */
export async function signedGet(
  send: OAuth1Send,
  url: string,
  credentials: OAuth1Credentials,
): Promise<unknown> {
  const target = new URL(url);
  const response = await send(target, {
    headers: {
      authorization: await authorizationHeader("GET", target, credentials),
      accept: "application/json",
    },
  });
  if (!response.ok)
    throw new OAuthCallbackError(
      `The profile request to ${target.origin} failed with HTTP ${response.status}.`,
    );
  return response.json();
}
