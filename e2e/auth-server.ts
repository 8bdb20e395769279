/**
 * A real HTTP server around `Auth()` for browser tests: `node:http` requests become standard
 * `Request`s, and `Response`s (every `Set-Cookie` kept) are written back. Paths under the auth
 * base path go to Tessera; anything else gets a small "app" page, so redirects after sign-in land
 * somewhere real.
 *
 * @example
 * ```ts
 * const server = await startAuthServer(config)
 * await page.goto(`${server.origin}/auth/signin`)
 * await server.close()
 * ```
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Auth, type AuthConfig } from "@tessera/core";

/** A running server. */
export interface AuthServer {
  /** `http://<host>:<port>`, with the host name the browser should use. */
  readonly origin: string;
  close(): Promise<void>;
}

/** Options of {@link startAuthServer}. */
export interface AuthServerOptions {
  /** Host name in `origin` (default `localhost`: a secure context, and a valid WebAuthn RP ID). */
  hostname?: string;
  /** Where Tessera is mounted (default `/auth`). */
  basePath?: string;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** `IncomingMessage` → `Request`. */
export async function toRequest(req: IncomingMessage): Promise<Request> {
  const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "localhost"}`);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  const method = req.method ?? "GET";
  const body = method === "GET" || method === "HEAD" ? undefined : await readBody(req);
  return new Request(url, { method, headers, ...(body && { body: new Uint8Array(body) }) });
}

/** `Response` → `ServerResponse`, each cookie in its own `Set-Cookie` header. */
export async function writeResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers["set-cookie"] = cookies;
  res.writeHead(response.status, headers);
  res.end(Buffer.from(await response.arrayBuffer()));
}

const APP_PAGE = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>App</title></head>
<body><main id="app"><h1>The application</h1><p><a href="/auth/signout">Sign out</a></p></main></body></html>`;

/** Starts the server on 127.0.0.1 with a random port. */
export async function startAuthServer(
  config: AuthConfig,
  options: AuthServerOptions = {},
): Promise<AuthServer> {
  const basePath = options.basePath ?? "/auth";
  const server = createServer((req, res) => {
    void (async () => {
      try {
        if ((req.url ?? "/").startsWith(`${basePath}/`)) {
          await writeResponse(await Auth(await toRequest(req), config), res);
          return;
        }
        res.writeHead(req.url === "/favicon.ico" ? 204 : 200, {
          "Content-Type": "text/html; charset=utf-8",
        });
        res.end(req.url === "/favicon.ico" ? undefined : APP_PAGE);
      } catch (error) {
        res.writeHead(500, { "Content-Type": "text/plain" });
        res.end(String(error));
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://${options.hostname ?? "localhost"}:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
