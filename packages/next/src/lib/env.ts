/**
 * Environment inference as `next-auth` v5 does it: the base path comes from the path of `AUTH_URL`
 * (default `/api/auth`), then the core fills `secret`, `trustHost` and `redirectProxyUrl` from
 * `AUTH_SECRET`, `AUTH_TRUST_HOST` and `AUTH_REDIRECT_PROXY_URL`.
 */
import { setEnvDefaults as setCoreEnvDefaults, siteUrlFromEnv } from "@tessera/core";
import { NextRequest } from "next/server.js";
import type { NextAuthConfig } from "../types.js";

/** Where the route handlers live unless `basePath` or the path of `AUTH_URL` says otherwise. */
export const DEFAULT_BASE_PATH = "/api/auth";

/** The site URL from the environment (`AUTH_URL`, or the legacy `NEXTAUTH_URL`; empty is unset). */
export function envUrl(): URL | undefined {
  const value = siteUrlFromEnv(process.env);
  if (value === undefined) return undefined;
  try {
    return new URL(value);
  } catch {
    return undefined; // reported as a configuration error when the config is asserted
  }
}

/**
 * Fills unset options of `config` from `process.env` (mutating it, like `next-auth`).
 *
 * @example
 * ```ts
 * process.env.AUTH_URL = "https://app.example/custom/auth"
 * setEnvDefaults(config) // config.basePath === "/custom/auth"
 * ```
 */
export function setEnvDefaults(config: NextAuthConfig): void {
  if (!config.basePath) {
    const path = envUrl()?.pathname.replace(/\/+$/, "");
    config.basePath = path || DEFAULT_BASE_PATH;
  }
  setCoreEnvDefaults(process.env, config as Parameters<typeof setCoreEnvDefaults>[1], true);
}

/**
 * The URL the browser used: the request's, with the origin of `AUTH_URL` when set. Behind a
 * reverse proxy Next.js sees an internal host, and it reports every loopback address as
 * `localhost`; redirects and cookies must use the public origin.
 *
 * @example
 * ```ts
 * process.env.AUTH_URL = "https://app.example"
 * publicUrl(new Request("http://10.0.0.7:3000/a?b=1")).href // "https://app.example/a?b=1"
 * ```
 */
export function publicUrl(request: Request): URL {
  const url = new URL(request.url);
  const env = envUrl();
  return env ? new URL(`${url.pathname}${url.search}`, env.origin) : url;
}

/** `request` addressed to its {@link publicUrl} (a plain `Request`, which keeps its URL as is). */
export function withPublicOrigin(request: Request): Request {
  const url = publicUrl(request);
  return url.href === request.url ? request : new Request(url, request);
}

/** `request` as a `NextRequest` (middleware may be handed a plain `Request`). */
export function asNextRequest(request: Request): NextRequest {
  return request instanceof NextRequest ? request : new NextRequest(request);
}
