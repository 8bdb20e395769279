/**
 * `getAccessToken` for server components, route handlers and server actions: the core's
 * `getAccessToken`, run in-process with the incoming request's headers. A JWT session refreshed
 * by the call has its cookie re-issued where Next.js lets code set cookies (route handlers and
 * server actions; server components cannot, and the next session read refreshes instead).
 */
import { type AccessToken, type Cookie, getAccessToken } from "@tessera/core";
import { headers as nextHeaders } from "next/headers";
import type { ConfigVariants } from "./config.js";
import { writeCookies } from "./cookies.js";
import { actionUrl } from "./session.js";

/** The signed-in user's access token at `providerId`, refreshed when due; `null` without one. */
export async function getAccessTokenAction(
  variants: ConfigVariants,
  providerId: string,
): Promise<AccessToken | null> {
  const headers = new Headers(await nextHeaders());
  const url = actionUrl("session", headers, variants).href;
  const issued: Cookie[] = [];
  const token = await getAccessToken({ url, headers }, variants.routes, providerId, {
    onCookies: (cookies) => issued.push(...cookies),
  });
  await writeCookies(issued, true);
  return token;
}
