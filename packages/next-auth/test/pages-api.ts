/**
 * A Pages Router API server for tests: Next.js's own API resolver (`apiResolver`, which parses
 * `req.query`, `req.cookies` and the body and adds `res.status`/`json`/`send`, as `next start`
 * does for `pages/api/*`) serving `/api/auth/[...nextauth]` with next-auth v4's handler or
 * Tessera's, picked per request by the `x-impl` header. One origin for both, so that cookies and
 * redirects compare as they are.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { HttpClient } from "../../express/test/http-client.js";

/**
 * Next.js's API resolver, loaded at run time: its type declarations pull in Next.js's global
 * types (which make `NODE_ENV` a required variable for the whole type-check).
 */
const { apiResolver } = createRequire(import.meta.url)(
  "next/dist/server/api-utils/node/api-resolver.js",
) as {
  apiResolver(
    req: IncomingMessage,
    res: ServerResponse,
    query: Record<string, string | string[]>,
    resolverModule: { default: ApiHandler },
    apiContext: Record<string, unknown>,
    propagateError: boolean,
  ): Promise<void>;
};

/** A Pages Router API route handler. */
export type ApiHandler = (req: IncomingMessage, res: ServerResponse) => unknown;

/** The two implementations a request may pick. */
export type Impl = "v4" | "tessera";

const previewProps = {
  previewModeId: "test",
  previewModeEncryptionKey: "test",
  previewModeSigningKey: "test",
};

/**
 * Starts the server: `handlers` answer `/api/auth/*` for each implementation, `routes` other
 * API paths (`/api/me`).
 */
export async function startPagesApi(
  handlers: Record<Impl, ApiHandler>,
  routes: Record<string, Record<Impl, ApiHandler>> = {},
): Promise<{ origin: string; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const impl: Impl = req.headers["x-impl"] === "v4" ? "v4" : "tessera";
    const apiContext = { ...previewProps, dev: false };
    const query: Record<string, string | string[]> = Object.fromEntries(url.searchParams);
    const route = routes[url.pathname];
    if (route) {
      void apiResolver(req, res, query, { default: route[impl] }, apiContext, false);
      return;
    }
    if (!url.pathname.startsWith("/api/auth/")) {
      res.statusCode = 404;
      res.end();
      return;
    }
    query.nextauth = url.pathname.slice("/api/auth/".length).split("/").filter(Boolean);
    void apiResolver(req, res, query, { default: handlers[impl] }, apiContext, false);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** An {@link HttpClient} whose every request goes to one implementation. */
export class ImplClient extends HttpClient {
  constructor(
    origin: string,
    readonly impl: Impl,
  ) {
    super(origin);
  }

  override fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set("x-impl", this.impl);
    return super.fetch(path, { ...init, headers });
  }
}
