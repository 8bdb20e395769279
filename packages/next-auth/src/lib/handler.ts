/**
 * `NextAuth(options)` as next-auth v4 serves it: a Pages Router API route `(req, res)` or an App
 * Router route handler `(request, context)`. The App Router path is `@tessera/next`'s route
 * handler; the Pages Router path answers the Node request natively through `@tessera/core/node`.
 *
 * v4's client asks for a redirect as JSON with the body field `json=true` (Tessera's client sends
 * the `X-Auth-Return-Redirect` header); both are honoured, so pages still running v4's client
 * keep working across the switch.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ResponseInternal } from "@tessera/core";
import { handleNodeRequest } from "@tessera/core/node";
import type { AuthOptions } from "../types.js";
import { preparedFor } from "./options.js";

/** The Pages Router request: a Node request with the body Next.js parsed. */
export interface ApiRequestLike extends IncomingMessage {
  body?: unknown;
}

function isFormOrJson(contentType: string | undefined): "form" | "json" | undefined {
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

/**
 * v4's answer shapes where the core's differ: a signed-out `GET /session` is `{}` in v4 (its
 * client reads an empty object as signed out and fails on `null`, which pages still running v4's
 * client would log as CLIENT_FETCH_ERROR).
 */
function v4Shape(action: string | undefined, method: string | undefined) {
  return (internal: ResponseInternal): ResponseInternal => {
    if (action === "session" && method === "GET" && internal.body === null)
      return { ...internal, body: {} };
    return internal;
  };
}

/** The action of a Pages Router request: Next.js put the path segments in `query.nextauth`. */
function pagesAction(req: ApiRequestLike): string | undefined {
  const segments = (req as { query?: { nextauth?: unknown } }).query?.nextauth;
  if (Array.isArray(segments)) return typeof segments[0] === "string" ? segments[0] : undefined;
  return typeof segments === "string" ? segments : undefined;
}

function asksForJson(body: string | undefined): boolean {
  if (body === undefined) return false;
  try {
    return new URLSearchParams(body).get("json") === "true";
  } catch {
    return false;
  }
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
  const { config } = preparedFor(options);
  const body = wireBody(req);
  // v4's client asks for `{ url }` with a body field; the core's way of asking is this header.
  if (asksForJson(body)) req.headers["x-auth-return-redirect"] = "1";
  const reshape = v4Shape(pagesAction(req), req.method);
  await handleNodeRequest(req, res, config, body === undefined ? {} : { body }, reshape);
}

/** The context Next.js hands an App Router route handler. */
export interface RouteHandlerContext {
  params: { nextauth?: string[] } | Promise<{ nextauth?: string[] }>;
}

async function formAsksForJson(request: Request): Promise<boolean> {
  if (request.method !== "POST") return false;
  if (!isFormOrJson(request.headers.get("content-type") ?? undefined)) return false;
  try {
    const text = await request.clone().text();
    if (request.headers.get("content-type")?.includes("json")) {
      const parsed = JSON.parse(text) as { json?: unknown } | null;
      return parsed?.json === true || parsed?.json === "true";
    }
    return asksForJson(text);
  } catch {
    // A malformed body is the core's to refuse (400), not this check's.
    return false;
  }
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
  const { instance } = preparedFor(options);
  const json = await formAsksForJson(request);
  const handle = request.method === "POST" ? instance.handlers.POST : instance.handlers.GET;
  const response = await handle(request as Parameters<typeof handle>[0]);
  if (
    request.method === "GET" &&
    new URL(request.url).pathname.endsWith("/session") &&
    response.status === 200
  ) {
    const text = await response.clone().text();
    if (text === "null") return new Response("{}", response);
  }
  const location = response.headers.get("location");
  if (!json || location === null || response.status < 300 || response.status >= 400)
    return response;
  const headers = new Headers(response.headers);
  headers.delete("location");
  headers.set("content-type", "application/json");
  return new Response(JSON.stringify({ url: location }), { status: 200, headers });
}
