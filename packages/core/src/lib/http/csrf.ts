/**
 * CSRF protection by the double-submit cookie technique: the `csrf` action hands out a random
 * token and stores `token|sha256(token + secret)` in an HttpOnly cookie; state-changing POSTs must
 * send the same token in their body. The hash stops an attacker who can plant cookies (e.g. from a
 * sibling subdomain) from choosing a token, since they cannot compute the hash without the secret.
 *
 * It does not stop them from planting a whole pair the app minted for them (any visitor can get
 * one from `GET /csrf`): the format, which Auth.js reads and writes too, binds the token to the
 * secret only, not to a browser or session. Over https the `__Host-` prefix keeps other hosts
 * from setting the cookie at all. A cookie without it can be planted, so there the browser's own
 * account of where a post comes from (`Origin`, else `Sec-Fetch-Site`) is checked as well.
 */
import type { Cookie, CookieOption } from "../../types.js";
import type { AuthContext } from "../config/internal.js";
import { randomHex, sha256Hex, timingSafeEqual } from "../crypto/encoding.js";

/** The outcome of reading the CSRF cookie for one request. */
export interface CsrfState {
  token: string;
  /**
   * True when the POSTed token equals the cookie's and, for a cookie without the `__Host-`
   * prefix, the browser does not say the post comes from another host (never true for GET).
   */
  verified: boolean;
  /** Set when a new token was minted and must be stored. */
  cookie?: Cookie;
  /** Why a POST whose token matched was refused anyway, for the debug log. */
  refusal?: string;
}

/**
 * Where a browser says a request comes from, when that is another host: an `Origin` whose host
 * name is not the app's, or `Origin: null` (a sandboxed frame, a redirect from elsewhere); from a
 * browser that sends no `Origin`, a `Sec-Fetch-Site` of `same-site` or `cross-site`. Undefined
 * when the request comes from the app's host, or carries neither header (a server-side client).
 * Ports and schemes are not compared: cookies ignore both, so a page on another port of the host
 * could read the cookies anyway, and a proxy that ends TLS may leave the app believing it is on
 * http. See [RFC 6454 §7](https://www.rfc-editor.org/rfc/rfc6454#section-7) and
 * [Fetch Metadata](https://www.w3.org/TR/fetch-metadata/#sec-fetch-site-header).
 *
 * @example
 * ```ts
 * foreignOrigin(new Headers({ origin: "http://evil.example.com" }), new URL("http://app.example.com/auth"))
 * // "Origin: http://evil.example.com"
 * ```
 */
export function foreignOrigin(headers: Headers, appUrl: URL): string | undefined {
  const origin = headers.get("origin");
  if (origin !== null) {
    let hostname: string | undefined;
    try {
      hostname = new URL(origin).hostname;
    } catch {
      hostname = undefined; // "null", an opaque origin
    }
    return hostname === appUrl.hostname ? undefined : `Origin: ${origin}`;
  }
  const site = headers.get("sec-fetch-site");
  return site === "same-site" || site === "cross-site" ? `Sec-Fetch-Site: ${site}` : undefined;
}

async function hashMatches(token: string, hash: string, secrets: readonly string[]) {
  // Each secret alone (rotation keeps old cookies valid), and the comma-joined list, which is how
  // Auth.js hashes when configured with an array — so its cookies stay valid after a switch.
  const candidates = secrets.length > 1 ? [...secrets, secrets.join(",")] : secrets;
  let matched = false;
  for (const secret of candidates) {
    // No early exit: the time taken does not tell which secret matched.
    if (timingSafeEqual(await sha256Hex(`${token}${secret}`), hash)) matched = true;
  }
  return matched;
}

/**
 * Reads the CSRF cookie and compares it with the POSTed token, minting a new token when the
 * cookie is missing or was not made with our secret.
 *
 * @example
 * ```ts
 * const csrf = await verifyCsrfToken({ cookieValue, bodyValue: body.csrfToken, isPost: true, secrets, cookie, from: request })
 * if (!csrf.verified) throw new MissingCSRF("CSRF token missing or invalid")
 * ```
 */
export async function verifyCsrfToken(params: {
  cookieValue: string | undefined;
  bodyValue: unknown;
  isPost: boolean;
  secrets: readonly string[];
  cookie: CookieOption;
  /** The request, whose `Sec-Fetch-Site` / `Origin` headers are checked on a POST. */
  from: { headers: Headers; url: URL };
}): Promise<CsrfState> {
  const { cookieValue, bodyValue, isPost, secrets, cookie, from } = params;
  if (cookieValue) {
    const separator = cookieValue.indexOf("|");
    const token = cookieValue.slice(0, separator);
    const hash = cookieValue.slice(separator + 1);
    if (separator > 0 && (await hashMatches(token, hash, secrets))) {
      const matches = isPost && typeof bodyValue === "string" && timingSafeEqual(bodyValue, token);
      // Planted pair: a sibling subdomain can set an unprefixed cookie the app minted for the
      // attacker and post its token from a same-site page; the browser still says where the
      // post came from. A `__Host-` cookie cannot be planted, so posts from other hosts (a front
      // end on another sub-domain) keep working there, as with Auth.js.
      const plantable = !cookie.name.startsWith("__Host-");
      const foreign = matches && plantable ? foreignOrigin(from.headers, from.url) : undefined;
      if (foreign === undefined) return { token, verified: matches };
      return {
        token,
        verified: false,
        refusal: `The CSRF token matched, but the browser sent the post from another origin (${foreign}); it was refused as cross-site request forgery.`,
      };
    }
  }
  return { ...(await mintCsrfToken(secrets, cookie)), verified: false };
}

/** A new random token and the cookie that stores it as `token|sha256hex(token + secret)`. */
async function mintCsrfToken(
  secrets: readonly string[],
  cookie: CookieOption,
): Promise<{ token: string; cookie: Cookie }> {
  const token = randomHex(32);
  const hash = await sha256Hex(`${token}${secrets[0] ?? ""}`);
  return {
    token,
    cookie: { name: cookie.name, value: `${token}|${hash}`, options: cookie.options },
  };
}

/**
 * Replaces the browser's CSRF token after a sign-in or a sign-out: a token planted or read before
 * (login CSRF, fixation of the double-submit token) is refused afterwards. Same cookie name,
 * options and format, so Auth.js reads it too. Returns the cookie to set; nothing when no token was
 * asked for (CSRF checks off, or an in-process call from server code) and the browser holds no
 * CSRF cookie (server actions that never used one).
 *
 * @example
 * ```ts
 * return { redirect: ctx.callbackUrl, cookies: [...sessionCookies, ...(await rotateCsrfToken(ctx))] }
 * ```
 */
export async function rotateCsrfToken(ctx: AuthContext): Promise<Cookie[]> {
  const option = ctx.cookies.csrfToken;
  const tokenInUse = !ctx.config.csrfDisabled && ctx.request.inProcess !== true;
  if (!tokenInUse && ctx.request.cookies[option.name] === undefined) return [];
  const { token, cookie } = await mintCsrfToken(ctx.config.secrets, option);
  // A token minted earlier in this request is superseded: the browser keeps only the new one.
  const queued = ctx.responseCookies.findIndex((c) => c.name === option.name);
  if (queued !== -1) ctx.responseCookies.splice(queued, 1);
  ctx.csrfToken = token;
  return [cookie];
}
