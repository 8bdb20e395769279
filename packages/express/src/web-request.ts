/**
 * Express request → Web `Request` for `toWebRequest` (the middleware reads the Node request
 * natively and needs none), built with no intermediate copies: the URL
 * from Express's proxy-aware `req.protocol`/`req.host`, headers from `req.rawHeaders`, and the
 * body from `req.body` when a body parser ran, else read from the stream (bounded).
 */
import type { Request as ExpressRequest } from "express";

/** Bodies beyond this are refused (memory exhaustion by oversized posts), as the core does. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** Why a request could not be turned into a Web `Request`. */
export type WebRequestFailure = "bad-request" | "too-large";

// Host header injection defence: only a host name, IPv4/IPv6 literal and port may reach the URL
// (a Host such as `evil.example/x?` would otherwise rewrite the path Tessera sees).
const HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * The origin of `req` (`http://localhost:3000`), honouring `app.set("trust proxy", …)`: only then
 * do `X-Forwarded-Proto`/`X-Forwarded-Host` count. `undefined` when the host is malformed.
 */
export function requestOrigin(req: ExpressRequest): string | undefined {
  const host = req.host ?? "localhost";
  if (!HOST.test(host)) return undefined;
  return `${req.protocol}://${host}`;
}

function isFormOrJson(contentType: string | undefined): "form" | "json" | undefined {
  if (!contentType) return undefined;
  if (contentType.includes("application/x-www-form-urlencoded")) return "form";
  if (contentType.includes("application/json")) return "json";
  return undefined;
}

/** Serialises a body a parser already consumed back into the wire form the core parses. */
function reserialize(body: unknown, kind: "form" | "json"): string | Uint8Array {
  if (typeof body === "string" || body instanceof Uint8Array) return body;
  if (kind === "json") return JSON.stringify(body);
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(body as Record<string, unknown>)) {
    if (value !== undefined && value !== null) form.append(name, String(value));
  }
  return form.toString();
}

/**
 * The body a parser before the middleware consumed (`express.json()`, `express.urlencoded()`), in
 * the wire form the core parses; `undefined` when the stream is still unread.
 */
export function parsedBody(req: ExpressRequest): string | undefined {
  if (req.method !== "POST" || req.body === undefined) return undefined;
  const kind = isFormOrJson(req.headers["content-type"]);
  if (!kind) return undefined;
  const body = reserialize(req.body, kind);
  return typeof body === "string" ? body : new TextDecoder().decode(body);
}

/** Reads the unparsed body, or `undefined` when it exceeds {@link MAX_BODY_BYTES}. */
function readStream(req: ExpressRequest): Promise<Uint8Array | undefined> {
  if (req.readableEnded) return Promise.resolve(new Uint8Array(0));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const cleanup = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
    };
    const onData = (chunk: Buffer) => {
      total += chunk.byteLength;
      if (total > MAX_BODY_BYTES) {
        cleanup();
        req.pause();
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
  });
}

/**
 * Builds the Web `Request` for `req`, or names why it cannot. `extraHeaders` are added to the
 * copied headers (used by the middleware; see index.ts).
 */
export async function buildWebRequest(
  req: ExpressRequest,
  extraHeaders?: Readonly<Record<string, string>>,
): Promise<Request | WebRequestFailure> {
  const origin = requestOrigin(req);
  if (!origin) return "bad-request";
  const method = req.method;
  let body: string | Uint8Array | undefined;
  if (method === "POST") {
    const kind = isFormOrJson(req.headers["content-type"]);
    if (req.body !== undefined && kind) {
      body = reserialize(req.body, kind);
    } else {
      const declared = Number(req.headers["content-length"] ?? 0);
      if (declared > MAX_BODY_BYTES) return "too-large";
      const read = await readStream(req);
      if (!read) return "too-large";
      body = read;
    }
  }
  const headers = new Headers();
  const raw = req.rawHeaders;
  try {
    for (let i = 0; i < raw.length; i += 2) {
      const name = raw[i]!;
      // HTTP/2 pseudo-headers are not headers; the body length is recomputed for the new body.
      if (name.charCodeAt(0) === 58 /* ":" */) continue;
      if (body !== undefined && isLengthHeader(name)) continue;
      headers.append(name, raw[i + 1]!);
    }
    if (extraHeaders) for (const name in extraHeaders) headers.set(name, extraHeaders[name]!);
    return new Request(`${origin}${req.originalUrl}`, {
      method,
      headers,
      // A Node Buffer is a Uint8Array, which undici accepts; its types demand an ArrayBuffer view.
      ...(body !== undefined && { body: body as BodyInit }),
    });
  } catch {
    // Node's parser is more lenient than the Fetch API (header values, URL characters).
    return "bad-request";
  }
}

function isLengthHeader(name: string): boolean {
  const lower = name.length === 14 || name.length === 17 ? name.toLowerCase() : "";
  return lower === "content-length" || lower === "transfer-encoding";
}

/**
 * Converts an Express request into a standard Web `Request` (same URL, method, headers and body),
 * for code that speaks the Fetch API. The origin honours `app.set("trust proxy", …)`.
 *
 * @example
 * ```ts
 * app.post("/api/hook", async (req, res) => {
 *   const request = await toWebRequest(req)
 *   res.json(await handle(request))
 * })
 * ```
 */
export async function toWebRequest(req: ExpressRequest): Promise<Request> {
  const built = await buildWebRequest(req);
  if (built === "bad-request")
    throw new TypeError(`Not a valid Fetch API request (host ${JSON.stringify(req.host)}).`);
  if (built === "too-large")
    throw new RangeError(`The request body exceeds ${MAX_BODY_BYTES} bytes.`);
  return built;
}
