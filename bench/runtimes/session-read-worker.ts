/**
 * The runtime bench's worker: `GET /?library=tessera|authjs&reads=N` reads the JWT session N
 * times in process (`GET /auth/session` with the session cookie, body read, as the Node bench's
 * session-jwt scenario does) with Tessera or @auth/core, configured alike. Bundled once like the
 * runtime job's scenario and served by each runtime; bench/runtimes.mjs times the requests from
 * outside, since workerd's clock does not advance while a request computes.
 */
import { Auth as AuthjsAuth } from "@auth/core";
import AuthjsCredentials from "@auth/core/providers/credentials";
import { Auth } from "@tessera/core";
import Credentials from "@tessera/core/providers/credentials";

type Env = Record<string, string | undefined>;
type Handler = (request: Request) => Promise<Response>;

const silentLogger = { error() {}, warn() {}, debug() {} };
const credentials = { username: {}, password: {} };
const noUser = () => null;

let handlers: Record<string, Handler> | undefined;

function handlersFor(env: Env): Record<string, Handler> {
  const common = {
    secret: env.BENCH_SECRET,
    trustHost: true,
    basePath: "/auth",
    logger: silentLogger,
  };
  const tessera = { ...common, providers: [Credentials({ credentials, authorize: noUser })] };
  const authjs = { ...common, providers: [AuthjsCredentials({ credentials, authorize: noUser })] };
  return {
    tessera: (request) => Auth(request, tessera),
    authjs: (request) => AuthjsAuth(request, authjs),
  };
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    handlers ??= handlersFor(env);
    const query = new URL(request.url).searchParams;
    const handler = handlers[query.get("library") ?? ""];
    const reads = Number(query.get("reads"));
    if (!handler || !Number.isInteger(reads) || reads < 1)
      return new Response("library=tessera|authjs&reads=N", { status: 400 });
    const cookie = `authjs.session-token=${env.BENCH_TOKEN}`;
    let body = "";
    for (let i = 0; i < reads; i++) {
      const response = await handler(
        new Request("http://localhost:3000/auth/session", { headers: { cookie } }),
      );
      body = await response.text();
    }
    // The last answer, so that the driver can check that the session was read.
    return new Response(body, { headers: { "content-type": "application/json" } });
  },
};
