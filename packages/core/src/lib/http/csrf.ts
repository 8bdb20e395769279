/**
 * CSRF protection by the double-submit cookie technique: the `csrf` action hands out a random
 * token and stores `token|sha256(token + secret)` in an HttpOnly cookie; state-changing POSTs must
 * send the same token in their body. The hash stops an attacker who can plant cookies (e.g. from a
 * sibling subdomain) from choosing a token, since they cannot compute the hash without the secret.
 *
 * It does not stop them from planting a whole pair the app minted for them (any visitor can get
 * one from `GET /csrf`): the format, which Auth.js reads and writes too, binds the token to the
 * secret only, not to a browser or session. Over https the `__Host-` prefix keeps sibling
 * subdomains from setting the cookie at all; over http, and against a same-site page, the
 * browser's own account of where a post comes from (`Sec-Fetch-Site`, else `Origin`) is checked
 * as well, wherever the browser sends it.
 */
import type { Cookie, CookieOption } from "../../types.js";
import type { AuthContext } from "../config/internal.js";
import { randomHex, sha256Hex, timingSafeEqual } from "../crypto/encoding.js";

/** The outcome of reading the CSRF cookie for one request. */
export interface CsrfState {
  token: string;
  /**
   * True when the POSTed token equals the cookie's and the browser does not say the post comes
   * from another origin (never true for GET).
   */
  verified: boolean;
  /** Set when a new token was minted and must be stored. */
  cookie?: Cookie;
  /** Why a POST whose token matched was refused anyway, for the debug log. */
  refusal?: string;
}

/**
 * Where a browser says a request comes from, when that is not this app's origin: a
 * `Sec-Fetch-Site` other than `same-origin` (or `none`, a request the user made by hand), or, from
 * a browser that sends no `Sec-Fetch-Site`, an `Origin` on another host. Undefined when the
 * request is same-origin or carries neither header (a server-side client). `same-site` counts as
 * foreign: a sibling subdomain is same-site, and it is the one that can plant cookies.
 * See [Fetch Metadata](https://www.w3.org/TR/fetch-metadata/#sec-fetch-site-header) and
 * [RFC 6454 §7](https://www.rfc-editor.org/rfc/rfc6454#section-7).
 *
 * @example
 * ```ts
 * foreignOrigin(new Headers({ "sec-fetch-site": "same-site" }), new URL("http://app.example.com/auth"))
 * // "Sec-Fetch-Site: same-site"
 * ```
 */
export function foreignOrigin(headers: Headers, appUrl: URL): string | undefined {
  const site = headers.get("sec-fetch-site");
  if (site !== null)
    return site === "same-origin" || site === "none" ? undefined : `Sec-Fetch-Site: ${site}`;
  const origin = headers.get("origin");
  if (origin === null) return undefined;
  // The host only: a proxy that ends TLS may leave the app believing it is served over http.
  let host: string | undefined;
  try {
    host = new URL(origin).host;
  } catch {
    host = undefined; // "null" (an opaque origin: a sandboxed frame, a cross-origin redirect)
  }
  return host === appUrl.host ? undefined : `Origin: ${origin}`;
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
      // Planted pair: a sibling subdomain can set a cookie the app minted for the attacker, and
      // post its token from a same-site page; the browser still says where the post came from.
      const foreign = matches ? foreignOrigin(from.headers, from.url) : undefined;
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
 * options and format, so Auth.js reads it too. Returns the cookie to set; nothing when CSRF checks
 * are off and the browser holds no CSRF cookie (server actions that never used one).
 *
 * @example
 * ```ts
 * return { redirect: ctx.callbackUrl, cookies: [...sessionCookies, ...(await rotateCsrfToken(ctx))] }
 * ```
 */
export async function rotateCsrfToken(ctx: AuthContext): Promise<Cookie[]> {
  const option = ctx.cookies.csrfToken;
  if (ctx.config.csrfDisabled && ctx.request.cookies[option.name] === undefined) return [];
  const { token, cookie } = await mintCsrfToken(ctx.config.secrets, option);
  // A token minted earlier in this request is superseded: the browser keeps only the new one.
  const queued = ctx.responseCookies.findIndex((c) => c.name === option.name);
  if (queued !== -1) ctx.responseCookies.splice(queued, 1);
  ctx.csrfToken = token;
  return [cookie];
}
