/**
 * CSRF protection by the double-submit cookie technique: the `csrf` action hands out a random
 * token and stores `token|sha256(token + secret)` in an HttpOnly cookie; state-changing POSTs must
 * send the same token in their body. The hash stops an attacker who can plant cookies (e.g. from a
 * sibling subdomain) from choosing a token, since they cannot compute the hash without the secret.
 */
import type { Cookie, CookieOption } from "../../types.js";
import type { AuthContext } from "../config/internal.js";
import { randomHex, sha256Hex, timingSafeEqual } from "../crypto/encoding.js";

/** The outcome of reading the CSRF cookie for one request. */
export interface CsrfState {
  token: string;
  /** True when the POSTed token equals the cookie's (never true for GET). */
  verified: boolean;
  /** Set when a new token was minted and must be stored. */
  cookie?: Cookie;
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
 * const csrf = await verifyCsrfToken({ cookieValue, bodyValue: body.csrfToken, isPost: true, secrets, cookie })
 * if (!csrf.verified) throw new MissingCSRF("CSRF token missing or invalid")
 * ```
 */
export async function verifyCsrfToken(params: {
  cookieValue: string | undefined;
  bodyValue: unknown;
  isPost: boolean;
  secrets: readonly string[];
  cookie: CookieOption;
}): Promise<CsrfState> {
  const { cookieValue, bodyValue, isPost, secrets, cookie } = params;
  if (cookieValue) {
    const separator = cookieValue.indexOf("|");
    const token = cookieValue.slice(0, separator);
    const hash = cookieValue.slice(separator + 1);
    if (separator > 0 && (await hashMatches(token, hash, secrets))) {
      const verified = isPost && typeof bodyValue === "string" && timingSafeEqual(bodyValue, token);
      return { token, verified };
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
