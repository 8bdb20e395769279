/**
 * What an action answers: `ResponseInternal` data (status, headers, body, redirect and cookies),
 * built with {@link json} or as a literal. The pipeline writes it out as a `Response` (or to a
 * Node response, node.ts) in its last step.
 */
import type { ResponseInternal } from "../../types.js";

/** The answer when no response can be built: the generic configuration error (no internals). */
export const CONFIGURATION_MESSAGE =
  "There was a problem with the server configuration. Check the server logs for more information.";

/**
 * Headers of answers that must never be cached by a browser or a proxy (session, CSRF token,
 * WebAuthn options): `Expires` and `Pragma` for HTTP/1.0 caches, as @auth/core sends them.
 */
export const NO_CACHE_HEADERS: Readonly<Record<string, string>> = {
  "Cache-Control": "private, no-cache, no-store",
  Expires: "0",
  Pragma: "no-cache",
};

/**
 * A JSON response as data.
 *
 * @example
 * ```ts
 * return json({ url: "https://app.test/" }, 200, NO_CACHE_HEADERS)
 * ```
 */
export function json<T>(
  body: T,
  status = 200,
  headers: Record<string, string> = {},
): ResponseInternal<T> {
  return { status, body, headers: { "Content-Type": "application/json", ...headers } };
}
