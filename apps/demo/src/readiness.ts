/**
 * The demo's server listens before its app exists (the OpenID Provider must know the port for its
 * redirect URIs), so a request can arrive while the demo starts. Such a request waits for the app
 * instead of hanging forever; if the demo fails to start, or takes longer than the wait allows, it
 * is answered 503 with `Retry-After` (RFC 9110 §15.6.4), so that a script polling the demo with
 * `curl` gets an answer either way.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";

/** The server's request listener while the demo starts, and the switches that end the wait. */
export interface StartupGate {
  /** The listener to give `createServer`. */
  handle: RequestListener;
  /** The app is ready: waiting requests and every later one go to it. */
  open(app: RequestListener): void;
  /** The demo could not start: waiting requests are answered 503. */
  fail(): void;
}

/** Seconds a client is asked to wait before it tries again. */
const RETRY_AFTER_SECONDS = 1;

function unavailable(res: ServerResponse): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(503, {
    "Content-Type": "text/plain; charset=utf-8",
    "Retry-After": String(RETRY_AFTER_SECONDS),
    "Cache-Control": "no-store",
    Connection: "close",
  });
  res.end("The Tessera demo is starting. Try again in a second.\n");
}

/**
 * A request listener that holds requests until {@link StartupGate.open} hands it the app.
 *
 * @example
 * ```ts
 * const gate = startupGate()
 * const server = createServer(gate.handle)
 * // … start what the app needs …
 * gate.open(app)
 * ```
 */
export function startupGate(options: { maxWaitMs?: number } = {}): StartupGate {
  const maxWaitMs = options.maxWaitMs ?? 15_000;
  let app: RequestListener | undefined;
  let failed = false;
  const waiting = new Set<() => void>();
  const release = () => {
    for (const resume of [...waiting]) resume();
    waiting.clear();
  };
  return {
    handle(req: IncomingMessage, res: ServerResponse) {
      if (app) return app(req, res);
      if (failed) return unavailable(res);
      const resume = () => {
        clearTimeout(timer);
        waiting.delete(resume);
        if (app) app(req, res);
        else unavailable(res);
      };
      // A start that never finishes must not hold the request forever either.
      const timer = setTimeout(resume, maxWaitMs);
      waiting.add(resume);
      res.once("close", () => {
        clearTimeout(timer);
        waiting.delete(resume);
      });
    },
    open(next) {
      app = next;
      release();
    },
    fail() {
      failed = true;
      release();
    },
  };
}
