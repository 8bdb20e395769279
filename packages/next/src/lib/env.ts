/**
 * Environment inference as `next-auth` v5 does it: the base path comes from the path of `AUTH_URL`
 * (default `/api/auth`), then the core fills `secret`, `trustHost` and `redirectProxyUrl` from
 * `AUTH_SECRET`, `AUTH_TRUST_HOST` and `AUTH_REDIRECT_PROXY_URL`.
 */
import { setEnvDefaults as setCoreEnvDefaults } from "@tessera/core";
import { NextRequest } from "next/server.js";
import type { NextAuthConfig } from "../types.js";

/** Where the route handlers live unless `basePath` or the path of `AUTH_URL` says otherwise. */
export const DEFAULT_BASE_PATH = "/api/auth";

/** The site URL from the environment (`AUTH_URL`, or the legacy `NEXTAUTH_URL`). */
export function envUrl(): URL | undefined {
  const value = process.env.AUTH_URL ?? process.env.NEXTAUTH_URL;
  if (!value) return undefined;
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
 * The request with its origin replaced by the one of `AUTH_URL`, when set: behind a reverse proxy
 * Next.js sees an internal host, while redirects and cookies must use the public one.
 */
export function withEnvOrigin(request: Request): NextRequest {
  const url = new URL(request.url);
  const env = envUrl();
  if (env && env.origin !== url.origin) {
    const href = `${env.origin}${url.pathname}${url.search}`;
    return new NextRequest(href, request);
  }
  return request instanceof NextRequest ? request : new NextRequest(request);
}
