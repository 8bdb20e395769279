/**
 * The origin check of Tessera's Qwik form actions. The core asks no double-submit token of
 * in-process calls (server code answers for CSRF), so the actions check where a post comes from.
 */
import type { RequestEventCommon } from "@builder.io/qwik-city";

/** The content types a cross-site page can post without a CORS preflight (HTML forms, `no-cors`). */
const SIMPLE_CONTENT_TYPES = [
  "application/x-www-form-urlencoded",
  "multipart/form-data",
  "text/plain",
];

function isSimpleRequest(headers: Headers): boolean {
  const type = headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  return !type || SIMPLE_CONTENT_TYPES.includes(type);
}

function hostOf(origin: string): string | undefined {
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
}

/**
 * Login CSRF: another site's page must not post a visitor's browser into the attacker's account
 * (or out of their own). Browsers name the posting page's `Origin` on every POST; a post a
 * cross-site page can send without a preflight must name this site's host. Qwik City checks the
 * same for page routes (`checkOrigin`), but an app can turn that off, and the sign-in forms must
 * stay protected then too. The scheme is not compared, as Qwik's `"lax-proto"` mode does not,
 * because a TLS-terminating proxy makes the server see `http:`.
 *
 * @returns the reason to refuse the request, or `undefined` when it may proceed.
 */
export function crossSiteRefusal(event: RequestEventCommon): string | undefined {
  const { headers } = event.request;
  if (!isSimpleRequest(headers)) return undefined;
  const origin = headers.get("origin");
  if (origin !== null && origin !== "null" && hostOf(origin) === event.url.host) return undefined;
  return `Cross-site sign-in and sign-out posts are refused: the request's Origin (${origin ?? "none"}) is not ${event.url.origin}. Post the form from a page of this site; behind a proxy, make Qwik's adapter see the public host (the ORIGIN variable of the Node adapters).`;
}
