/**
 * The auth route's handlers and the session read for a given config and what the integration
 * learnt from `astro.config` ({@link AstroSetup}). `server.ts` fills both from the `auth:config`
 * and `tessera:astro/setup` modules; this module imports neither, so it runs (and is tested)
 * outside an Astro build.
 */
import {
  type ActionRunner,
  Auth,
  actionRunner,
  CONFIGURATION_MESSAGE,
  readSession as readSessionInProcess,
  type Session,
} from "@tessera/core";
import { UntrustedHost } from "@tessera/core/errors";
import type { APIContext } from "astro";
import type { FullAuthConfig } from "./config.js";
import { prepareConfig } from "./prepare.js";
import type { AstroSetup } from "./vite.js";

/** What a handler reads of Astro's `APIContext`. */
export type AuthRouteContext = Pick<APIContext, "request" | "clientAddress">;

/**
 * What the server functions read of Astro's context (`Astro` in pages, the `APIContext` of
 * endpoints and middleware): the request, the client's address, and the cookies to set.
 */
export type AuthServerContext = Pick<APIContext, "request" | "clientAddress" | "cookies">;

/** The `GET` and `POST` handlers of an auth route. */
export interface AstroAuthHandlers {
  GET(context: AuthRouteContext): Promise<Response>;
  POST(context: AuthRouteContext): Promise<Response>;
}

/**
 * The host the client asked for, when Astro replaced it: without `security.allowedDomains`,
 * Astro 5 builds `request.url` on `localhost` whatever the Host header says.
 */
function hostAstroReplaced(request: Request): string | undefined {
  let host: string;
  try {
    host = new URL(request.url).host;
  } catch {
    return undefined;
  }
  if (host !== "localhost") return undefined;
  const asked = request.headers.get("x-forwarded-host") ?? request.headers.get("host");
  return asked && asked !== "localhost" ? asked : undefined;
}

function clientAddress(context: AuthRouteContext): string | undefined {
  try {
    return context.clientAddress;
  } catch {
    return undefined; // The adapter does not know it (Astro throws rather than answering undefined).
  }
}

/**
 * The handlers of the `<prefix>/[...auth]` route for `options`. Unknown actions answer 400, as the
 * core does everywhere.
 *
 * Without `AUTH_URL`, the public origin comes from `request.url`, which Astro builds from the Host
 * header only when `security.allowedDomains` lists it. When Astro replaced the host by
 * `localhost`, every redirect would point there; the route answers instead: 500 (configuration
 * error, the server log names the fix) when `allowedDomains` is unset, 400 when it is set and the
 * client named a host it does not list (Host header injection).
 *
 * @example
 * ```ts
 * const { GET, POST } = createAstroAuth(config, { allowedDomains: true })
 * ```
 */
export function createAstroAuth(options: FullAuthConfig, setup: AstroSetup): AstroAuthHandlers {
  const prepared = prepareConfig(options);
  const handle = async (context: AuthRouteContext): Promise<Response> => {
    const { request } = context;
    const asked = prepared.hasSiteUrl ? undefined : hostAstroReplaced(request);
    if (asked !== undefined) {
      if (setup.allowedDomains)
        return new Response(`Bad request: the host ${JSON.stringify(asked)} is not allowed.`, {
          status: 400,
          headers: { "content-type": "text/plain; charset=utf-8" },
        });
      const error = new UntrustedHost(
        `Astro reported this request as ${new URL(request.url).origin} although the client asked for ${JSON.stringify(asked)}: Astro 5 ignores the Host header unless security.allowedDomains lists it. Set security.allowedDomains in astro.config (e.g. [{ hostname: "app.example.com", protocol: "https" }]) or AUTH_URL to the site's public URL; until then no redirect can name the right site.`,
      );
      if (prepared.config.logger?.error) prepared.config.logger.error(error);
      else console.error(`[tessera][error] ${error.type}: ${error.message}`);
      return Response.json({ message: CONFIGURATION_MESSAGE }, { status: 500 });
    }
    const clientIp = clientAddress(context);
    return Auth(request, prepared.config, clientIp ? { clientIp } : {});
  };
  return { GET: handle, POST: handle };
}

/**
 * The session of `request`, or `null` when signed out.
 * Throws an `AuthError` when the configuration is invalid (the server log names the cause).
 *
 * @example
 * ```ts
 * const session = await readSession(Astro.request, config)
 * ```
 */
export async function readSession(
  request: Request,
  options: FullAuthConfig,
): Promise<Session | null> {
  const prepared = prepareConfig(options);
  const { session } = await readSessionInProcess(prepared.raw, {
    url: request.url,
    headers: request.headers,
  });
  return session;
}

/**
 * Runs actions in-process for `context`'s request with `options`, each answer's cookies set on
 * `context.cookies`: the runner every server function takes.
 *
 * @example
 * ```ts
 * const run = contextActionRunner(Astro, config)
 * ```
 */
export function contextActionRunner(
  context: AuthServerContext,
  options: FullAuthConfig,
): ActionRunner {
  const clientIp = clientAddress(context);
  return actionRunner(context.request, prepareConfig(options).config, {
    ...(clientIp && { clientIp }),
    onCookies: (cookies) => {
      for (const { name, value, options: flags } of cookies)
        context.cookies.set(name, value, {
          ...flags,
          path: flags.path ?? "/",
          // The core's values are cookie-safe already; Astro would percent-encode them again.
          encode: String,
        } as Parameters<APIContext["cookies"]["set"]>[2]);
    },
  });
}
