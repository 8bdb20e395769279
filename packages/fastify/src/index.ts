/**
 * Tessera for Fastify 5: register {@link TesseraAuth} under a prefix, read sessions with
 * `request.auth` or {@link getSession}, and protect routes with {@link requireAuth}.
 *
 * @example
 * ```ts
 * import Fastify from "fastify"
 * import { getSession, requireAuth, TesseraAuth } from "@tessera/fastify"
 * import Credentials from "@tessera/core/providers/credentials"
 *
 * const app = Fastify({ trustProxy: false })
 * await app.register(TesseraAuth, { prefix: "/auth", providers: [Credentials({ authorize })] })
 * app.get("/", async (request) => {
 *   const session = await getSession(request)
 *   return session ? `Hello ${session.user?.name}` : "Signed out"
 * })
 * app.get("/dashboard", { onRequest: requireAuth() }, async (request) => (await request.auth)?.user)
 * ```
 */
import {
  type ActionRunner,
  type AuthConfig,
  assertStartupConfig,
  type PasskeysApi,
  passkeysApi,
  serializeCookies,
  setEnvDefaults,
  withAnswerCookies,
} from "@tessera/core";
import { AuthError } from "@tessera/core/errors";
import {
  getSession as getNodeSession,
  handleNodeRequest,
  MAX_BODY_BYTES,
  type NodeSourceOptions,
  nodeActionRunner,
  originOf,
} from "@tessera/core/node";
import type { Session } from "@tessera/core/types";
import type {
  FastifyInstance,
  FastifyPluginAsync,
  FastifyReply,
  FastifyRequest,
  onRequestAsyncHookHandler,
} from "fastify";

export type { ActionRunner, ListedPasskey, PasskeyList, PasskeysApi } from "@tessera/core";
export { AuthError, CredentialsSignin } from "@tessera/core/errors";
export type { Account, DefaultSession, Profile, Session, User } from "@tessera/core/types";

/** The options of {@link TesseraAuth}: the core `AuthConfig`, served under Fastify's `prefix`. */
export interface TesseraAuthOptions extends Omit<AuthConfig, "raw"> {
  /** Where the actions are served, and the config's `basePath`; default `basePath`, else `/auth`. */
  prefix?: string;
}

declare module "fastify" {
  interface FastifyRequest {
    /**
     * The session of this request's user, or `null` when signed out. Read on first access only,
     * then the same promise for the rest of the request.
     */
    readonly auth: Promise<Session | null>;
  }
}

/** What the plugin keeps on the Fastify instance for {@link getSession} and {@link requireAuth}. */
interface TesseraState {
  config: AuthConfig;
  basePath: string;
}

const STATE = Symbol.for("@tessera/fastify");
/** The reply of each request, so that a session read can set its refreshed cookie. */
const replies = new WeakMap<FastifyRequest, FastifyReply>();
/** One session read per request, however often `request.auth` is awaited. */
const sessions = new WeakMap<FastifyRequest, Promise<Session | null>>();

function normalise(path: string): string {
  const trimmed = `/${path.replace(/^\/+|\/+$/g, "")}`;
  return trimmed === "/" ? "" : trimmed;
}

function stateOf(request: FastifyRequest): TesseraState {
  const state = (request.server as FastifyInstance & { [STATE]?: TesseraState })[STATE];
  if (!state)
    throw new AuthError(
      "No Tessera config for this route: register TesseraAuth (`app.register(TesseraAuth, config)`) before the routes that read the session.",
    );
  return state;
}

/**
 * The origin of `request` as Fastify sees it: `request.protocol` and `request.host` follow the
 * app's `trustProxy`, so `X-Forwarded-*` count only from a proxy the app trusts. `undefined`
 * for a malformed Host (host header injection), which the core answers with 400.
 */
function originOfRequest(request: FastifyRequest): string | undefined {
  return originOf(request.protocol, request.host || "localhost");
}

/**
 * The session of the user making `request`, or `null` when signed out. A refreshed session
 * cookie (rolling expiry) is set on the reply. `request.auth` is the same read, made once per
 * request. Throws an `AuthError` when the config is invalid (the server log names the cause).
 *
 * @example
 * ```ts
 * app.get("/me", async (request, reply) => {
 *   const session = await getSession(request)
 *   if (!session) return reply.code(401).send({ message: "Sign in first." })
 *   return session.user
 * })
 * ```
 */
export function getSession(request: FastifyRequest): Promise<Session | null> {
  let session = sessions.get(request);
  if (!session) {
    session = readSession(request);
    sessions.set(request, session);
  }
  return session;
}

async function readSession(request: FastifyRequest): Promise<Session | null> {
  const { config } = stateOf(request);
  const origin = originOfRequest(request);
  // A malformed Host cannot name whose session this is.
  if (!origin) return null;
  const reply = replies.get(request);
  try {
    return await getNodeSession(request.raw, config, undefined, {
      origin,
      ...(request.ip && { clientIp: request.ip }),
      onCookies: (cookies) => {
        if (reply && !reply.sent) reply.header("set-cookie", serializeCookies(cookies));
      },
    });
  } catch (error) {
    if (error instanceof AuthError) throw error;
    throw new AuthError("Reading the session failed; the server log names the cause.", {
      cause: error,
    });
  }
}

/**
 * Runs actions in-process for `request` (cookies set on its reply): the runner an extension's
 * server functions take, so every extension works in Fastify without code of its own here. Call
 * its state-changing functions from routes your app protects against CSRF.
 *
 * @example
 * ```ts
 * import { twoFactorApi } from "@tessera/core/two-factor"
 * app.get("/account/2fa", async (request) => twoFactorApi(actionRunner(request)).status())
 * ```
 */
export function actionRunner(request: FastifyRequest): ActionRunner {
  const { config } = stateOf(request);
  const origin = originOfRequest(request);
  if (!origin)
    throw new AuthError(
      "The request has no usable Host header, so no action can run for it: set AUTH_URL or trust the proxy that sets Host.",
    );
  const run = nodeActionRunner(request.raw, config, undefined, {
    origin,
    ...(request.ip && { clientIp: request.ip }),
  });
  return withAnswerCookies(run, (cookies) => {
    const reply = replies.get(request);
    // Fastify appends each set-cookie header rather than replacing the last.
    if (reply && !reply.sent) reply.header("set-cookie", serializeCookies(cookies));
  });
}

/**
 * The signed-in user's passkeys for `request`: `list()` resolves with `{ passkeys, signals }` or
 * `null` when signed out; `rename(id, name)` and `delete(id)` with the passkeys after the change,
 * `null` when the user has no passkey with that id (another user's included). They ask for no
 * CSRF token: call them from routes your app protects against CSRF. Throws an `AuthError` when
 * the config cannot manage passkeys (no passkey provider, or an adapter without the passkey
 * methods).
 *
 * @example
 * ```ts
 * app.get("/account/passkeys", async (request) => passkeys(request).list())
 * app.post<{ Body: { id: string } }>("/account/passkeys/delete", async (request) =>
 *   passkeys(request).delete(request.body.id),
 * )
 * ```
 */
export function passkeys(request: FastifyRequest): PasskeysApi {
  return passkeysApi(actionRunner(request));
}

/** Options of {@link requireAuth}. */
export interface RequireAuthOptions {
  /**
   * Where a signed-out visitor is sent; the visited URL goes along as `callbackUrl`. Default the
   * sign-in page (`<prefix>/signin`). `false` answers `401` instead (for APIs).
   */
  redirectTo?: string | false;
}

/**
 * A hook protecting routes: a signed-out request is redirected to sign-in (or answered 401),
 * a signed-in one goes on with its session in `request.auth`. Use it per route (`{ onRequest:
 * requireAuth() }`) or for every route of an encapsulated plugin (`addHook`).
 *
 * @example
 * ```ts
 * app.get("/dashboard", { onRequest: requireAuth() }, async (request) => {
 *   const session = await request.auth
 *   return `Hello ${session?.user?.name}`
 * })
 * app.register(async (api) => {
 *   api.addHook("onRequest", requireAuth({ redirectTo: false }))
 *   api.get("/api/me", async (request) => (await request.auth)?.user)
 * })
 * ```
 */
export function requireAuth(options: RequireAuthOptions = {}): onRequestAsyncHookHandler {
  return async function tesseraRequireAuth(request, reply) {
    if (await getSession(request)) return;
    if (options.redirectTo === false) {
      await reply.code(401).send({ message: "Sign in to see this." });
      return;
    }
    const target = options.redirectTo ?? `${stateOf(request).basePath}/signin`;
    // Only the path and query go along: the sign-in page's redirect callback checks the origin.
    const separator = target.includes("?") ? "&" : "?";
    await reply.redirect(`${target}${separator}callbackUrl=${encodeURIComponent(request.url)}`);
  };
}

/** The encapsulated routes: every action under the prefix, with a body parser of their own. */
function actionRoutes(state: TesseraState): FastifyPluginAsync {
  return async (scope) => {
    // The app's own parsers (JSON, @fastify/formbody, multipart) stay untouched outside this
    // scope; inside, the body is kept as text for the core to parse, bounded as the core bounds it.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      "*",
      { parseAs: "string", bodyLimit: MAX_BODY_BYTES },
      (_request, body, done) => done(null, body),
    );
    scope.all("/*", async (request, reply) => {
      const options: NodeSourceOptions = {
        // A malformed Host leaves no origin, which the core answers with 400.
        origin: originOfRequest(request) ?? null,
        target: () => request.url,
      };
      if (typeof request.body === "string") options.body = request.body;
      // Fastify's request.ip honours `trustProxy`: the socket address unless a proxy is trusted.
      if (request.ip) options.clientIp = request.ip;
      // The core writes the answer on the Node response itself; headers set by earlier hooks
      // (security headers, CORS) are carried over first.
      const headers = reply.getHeaders();
      reply.hijack();
      for (const [name, value] of Object.entries(headers))
        if (value !== undefined) reply.raw.setHeader(name, value);
      // Never rejects: errors are answered by the core without a stack trace.
      await handleNodeRequest(request.raw, reply.raw, state.config, options);
    });
  };
}

async function tesseraAuth(app: FastifyInstance, options: TesseraAuthOptions): Promise<void> {
  const { prefix, ...authOptions } = options;
  const basePath = normalise(prefix ?? authOptions.basePath ?? "/auth");
  const config = { ...authOptions, basePath: basePath || "/" } as AuthConfig;
  setEnvDefaults(process.env, config);
  // A misconfigured app stops at start-up with the fix in the message, not at its first request.
  assertStartupConfig(config);
  const state: TesseraState = { config, basePath };
  app.decorate(STATE, state);
  if (!app.hasRequestDecorator("auth"))
    app.decorateRequest("auth", {
      getter(this: FastifyRequest) {
        return getSession(this);
      },
    });
  // A callback hook, not an async one: it runs on every request of the app and awaits nothing.
  app.addHook("onRequest", (request, reply, done) => {
    replies.set(request, reply);
    done();
  });
  await app.register(actionRoutes(state), { prefix: basePath });
}

/**
 * The Fastify plugin serving every Tessera action (`/signin`, `/callback/:provider`, `/session`,
 * …) under `prefix` (default `/auth`), which becomes the config's `basePath`. It also gives every
 * route `request.auth` (the session, read lazily) and {@link getSession}. The config is checked
 * at registration: a configuration error (no `AUTH_SECRET`, …) fails `app.ready()` with the fix
 * in its message. Behind a proxy, Fastify's `trustProxy` decides whether `X-Forwarded-*` name the
 * public origin and client IP.
 *
 * @example
 * ```ts
 * await app.register(TesseraAuth, { prefix: "/auth", providers: [GitHub] })
 * ```
 */
export const TesseraAuth: FastifyPluginAsync<TesseraAuthOptions> = Object.assign(tesseraAuth, {
  // The decorators and the hook belong to the app that registers the plugin, not to a scope of
  // its own (what fastify-plugin does); the prefix applies to the action routes only.
  [Symbol.for("skip-override")]: true,
  [Symbol.for("fastify.display-name")]: "@tessera/fastify",
});
