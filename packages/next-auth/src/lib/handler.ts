/**
 * `NextAuth(options)` as next-auth v4 serves it: a Pages Router API route `(req, res)` or an App
 * Router route handler `(request, context)`. Both run the core's pipeline (the Node request
 * natively through `@tessera/core/node`, the Fetch request through `Auth()`), with the answers
 * reshaped where v4's differ (see `v4-answers.ts`).
 *
 * v4's client asks for a redirect as JSON with the body field `json=true` (Tessera's client sends
 * the `X-Auth-Return-Redirect` header); both are honoured, so pages still running v4's client
 * keep working across the switch.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { Auth, type ResponseInternal, siteUrlFromEnv } from "@tessera/core";
import { handleNodeRequest } from "@tessera/core/node";
import type { AuthOptions } from "../types.js";
import { configFor } from "./config.js";
import { type AnswerContext, v4Answer } from "./v4-answers.js";

/** The Pages Router request: a Node request with the query and body Next.js parsed. */
export interface ApiRequestLike extends IncomingMessage {
  body?: unknown;
  query?: Record<string, string | string[] | undefined>;
}

function isFormOrJson(contentType: string | undefined | null): "form" | "json" | undefined {
  if (contentType?.includes("application/x-www-form-urlencoded")) return "form";
  if (contentType?.includes("application/json")) return "json";
  return undefined;
}

/** The body Next.js's parser consumed, back in the wire form the core parses. */
function wireBody(req: ApiRequestLike): string | undefined {
  if (req.method !== "POST" || req.body === undefined || req.body === null) return undefined;
  if (typeof req.body === "string") return req.body;
  const kind = isFormOrJson(req.headers["content-type"]);
  if (kind === "json") return JSON.stringify(req.body);
  if (kind !== "form" || typeof req.body !== "object") return undefined;
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(req.body as Record<string, unknown>)) {
    if (Array.isArray(value)) for (const each of value) form.append(name, String(each));
    else if (value !== undefined && value !== null) form.append(name, String(value));
  }
  return form.toString();
}

/** Whether a body asks for `{ url }` instead of a redirect, as v4's client does. */
function asksForJson(body: string | undefined, contentType: string | undefined | null): boolean {
  if (body === undefined) return false;
  try {
    if (isFormOrJson(contentType) === "json") {
      const parsed = JSON.parse(body) as { json?: unknown } | null;
      return parsed?.json === true || parsed?.json === "true";
    }
    return new URLSearchParams(body).get("json") === "true";
  } catch {
    // A malformed body is the core's to refuse (400), not this check's.
    return false;
  }
}

/** The origin and base path of the auth routes (`http://app.test/api/auth`). */
function authUrl(fallbackOrigin: string, basePath: string): string {
  const site = siteUrlFromEnv(process.env);
  let origin = fallbackOrigin;
  if (site) {
    try {
      origin = new URL(site).origin;
    } catch {
      // A malformed NEXTAUTH_URL is the core's configuration error to report.
    }
  }
  return `${origin}${basePath}`;
}

/** The action and provider id of a path under `basePath` (`/api/auth/callback/op`). */
function actionOf(pathname: string, basePath: string): { action?: string; providerId?: string } {
  if (!pathname.startsWith(`${basePath}/`)) return {};
  const [action, providerId] = pathname.slice(basePath.length + 1).split("/");
  return { ...(action && { action }), ...(providerId && { providerId }) };
}

/**
 * v4's client reports its errors to `POST /_log`; they go to the configured logger (as v4 does)
 * instead of being refused as an unknown action.
 */
function logClientError(options: AuthOptions, body: string | undefined): void {
  if (body === undefined) return;
  let fields: Record<string, string>;
  try {
    fields = Object.fromEntries(new URLSearchParams(body));
  } catch {
    return;
  }
  const { level, code = "CLIENT_ERROR", ...metadata } = fields;
  // Log injection: the client chooses the text, so it goes out as data, never as a format.
  if (level === "error") (options.logger?.error ?? console.error)(new Error(String(code)));
  else if (level === "warn") (options.logger?.warn ?? console.warn)(String(code));
  else if (options.debug) (options.logger?.debug ?? console.debug)(String(code), metadata);
}

function contextFor(
  url: URL,
  method: string | undefined,
  basePath: string,
  options: AuthOptions,
): AnswerContext {
  const { action, providerId } = actionOf(url.pathname, basePath);
  return {
    action,
    providerId,
    method,
    query: url.searchParams,
    authUrl: authUrl(url.origin, basePath),
    pages: { signIn: options.pages?.signIn, error: options.pages?.error },
  };
}

/**
 * Answers a Pages Router API route request (`pages/api/auth/[...nextauth].ts`).
 *
 * @example
 * ```ts
 * export default (req: NextApiRequest, res: NextApiResponse) => handlePagesRequest(req, res, authOptions)
 * ```
 */
export async function handlePagesRequest(
  req: ApiRequestLike,
  res: ServerResponse,
  options: AuthOptions,
): Promise<void> {
  const config = configFor(options);
  const basePath = config.basePath ?? "/api/auth";
  const body = wireBody(req);
  // Host header injection: the URL is only parsed for its path and query here; the core decides
  // the origin (NEXTAUTH_URL, or the Host header when trusted).
  const url = new URL(req.url ?? "/", "http://localhost");
  const ctx = contextFor(url, req.method, basePath, options);
  if (ctx.action === "_log" && req.method === "POST") {
    logClientError(options, body);
    res.statusCode = 200;
    res.end();
    return;
  }
  // v4's client asks for `{ url }` with a body field; the core's way of asking is this header.
  if (asksForJson(body, req.headers["content-type"])) req.headers["x-auth-return-redirect"] = "1";
  const reshape = (internal: ResponseInternal) => v4Answer(internal, ctx);
  await handleNodeRequest(req, res, config, body === undefined ? {} : { body }, reshape);
}

/** The context Next.js hands an App Router route handler. */
export interface RouteHandlerContext {
  params: { nextauth?: string[] } | Promise<{ nextauth?: string[] }>;
}

/**
 * Answers an App Router route handler request (`app/api/auth/[...nextauth]/route.ts`).
 *
 * @example
 * ```ts
 * export const GET = (request: NextRequest) => handleRouteRequest(request, authOptions)
 * ```
 */
export async function handleRouteRequest(
  request: Request,
  options: AuthOptions,
): Promise<Response> {
  const config = configFor(options);
  const basePath = config.basePath ?? "/api/auth";
  const url = new URL(request.url);
  const ctx = contextFor(url, request.method, basePath, options);
  let body: string | undefined;
  if (
    request.method === "POST" &&
    (ctx.action === "_log" || isFormOrJson(request.headers.get("content-type")))
  )
    body = await request.clone().text();
  if (ctx.action === "_log" && request.method === "POST") {
    logClientError(options, body);
    return new Response(null, { status: 200 });
  }
  const response = await Auth(request, config, {
    reshape: (internal) => v4Answer(internal, ctx),
  });
  const location = response.headers.get("location");
  if (!asksForJson(body, request.headers.get("content-type")) || location === null) return response;
  if (response.status < 300 || response.status >= 400) return response;
  // v4 answers `{ url }` with the redirect's cookies when the body asked for JSON.
  const headers = new Headers(response.headers);
  headers.delete("location");
  headers.set("content-type", "application/json");
  return new Response(JSON.stringify({ url: location }), { status: 200, headers });
}
