/**
 * The core hands back cookies as data; these put them where Next.js wants them: the `cookies()`
 * store of a server action or route handler, or the `Set-Cookie` headers of a middleware response.
 */
import { type Cookie, serializeCookies } from "@tessera/core";
import { cookies } from "next/headers";

type CookieStore = Awaited<ReturnType<typeof cookies>>;
type StoreOptions = NonNullable<Parameters<CookieStore["set"]>[2]>;

function storeOptions({ options }: Cookie): StoreOptions {
  const { encode: _encode, ...rest } = options;
  return rest as StoreOptions;
}

/**
 * Writes `list` through `cookies()`. Server components cannot set cookies (Next.js throws there);
 * `bestEffort` ignores that case, where a refreshed session cookie simply waits for the next
 * request that can carry it (middleware or an action).
 *
 * @example
 * ```ts
 * await writeCookies(result.cookies ?? [])
 * ```
 */
export async function writeCookies(list: readonly Cookie[], bestEffort = false): Promise<void> {
  if (list.length === 0) return;
  const store = await cookies();
  for (const cookie of list) {
    try {
      store.set(cookie.name, cookie.value, storeOptions(cookie));
    } catch (error) {
      if (!bestEffort) throw error;
      return;
    }
  }
}

/**
 * `Set-Cookie` header values for `list`, by the core's total serialiser: a cookie a header cannot
 * carry is dropped (and the rest still written) instead of throwing mid-response.
 */
export function setCookieHeaders(list: readonly Cookie[]): string[] {
  return serializeCookies(list);
}

/**
 * `response` with `list` appended as `Set-Cookie` headers. The response is copied first, because
 * responses made by `Response.redirect()` or `fetch()` have immutable headers.
 */
export function withCookies(response: Response, list: readonly Cookie[]): Response {
  if (list.length === 0) return response;
  const copy = new Response(response.body, response);
  for (const header of setCookieHeaders(list)) copy.headers.append("Set-Cookie", header);
  return copy;
}
