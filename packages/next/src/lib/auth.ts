/**
 * `auth`: one function, four uses, told apart by its arguments.
 *
 * - `auth()` in server components, route handlers and server actions → the session or `null`.
 * - `auth(request, event)` as middleware (`export { auth as proxy }`) → lets the request through,
 *   or redirects to sign-in when the `authorized` callback says no.
 * - `auth(handler)` → a middleware or route handler that gets the session on `request.auth`.
 * - `auth({ req, res })` / `auth(req, res)` in the Pages Router → the session or `null`.
 */
import type { Session } from "@tessera/core";
import { headers as nextHeaders } from "next/headers";
import { type NextRequest, NextResponse } from "next/server.js";
import type {
  AuthFunction,
  AuthWrappedHandler,
  NextAuthRequest,
  NodeRequestLike,
  NodeResponseLike,
} from "../types.js";
import { type ConfigLoader, type ConfigVariants, logError } from "./config.js";
import { setCookieHeaders, withCookies, writeCookies } from "./cookies.js";
import { asNextRequest, publicUrl } from "./env.js";
import { lookupSession } from "./session.js";

/** A `Request` (also across realms, as in the edge runtime) rather than a Node request. */
function isFetchRequest(value: unknown): value is Request {
  if (value instanceof Request) return true;
  const candidate = value as { url?: unknown; headers?: { get?: unknown } } | null;
  return (
    typeof candidate === "object" &&
    candidate !== null &&
    typeof candidate.url === "string" &&
    typeof candidate.headers?.get === "function"
  );
}

function nodeHeaders(record: NodeRequestLike["headers"]): Headers {
  const result = new Headers();
  for (const [name, value] of Object.entries(record)) {
    if (value === undefined) continue;
    // Cookie headers are joined with "; ", every other repeated header with ", " (RFC 9110 5.3).
    result.set(name, Array.isArray(value) ? value.join(name === "cookie" ? "; " : ", ") : value);
  }
  return result;
}

function appendNodeSetCookie(response: NodeResponseLike, values: string[]): void {
  if (values.length === 0) return;
  if (response.appendHeader) {
    response.appendHeader("Set-Cookie", values);
    return;
  }
  const existing = response.getHeader?.("Set-Cookie");
  const previous = Array.isArray(existing)
    ? existing.map(String)
    : existing
      ? [String(existing)]
      : [];
  response.setHeader?.("Set-Cookie", [...previous, ...values]);
}

/**
 * True for the route handlers and the configured auth pages (sign-in, error, …): they must stay
 * reachable, or no one could sign in and errors would redirect in a loop.
 */
function isAuthPath(pathname: string, variants: ConfigVariants): boolean {
  const { basePath } = variants;
  if (basePath !== "" && (pathname === basePath || pathname.startsWith(`${basePath}/`)))
    return true;
  return Object.values(variants.user.pages ?? {}).some(
    (page) => typeof page === "string" && page.split("?", 1)[0] === pathname,
  );
}

/**
 * Runs the `authorized` callback. Fails closed: a callback that throws, or returns anything but
 * `true`-ish or a `Response`, denies.
 */
async function decideAccess(
  request: NextRequest,
  session: Session | null,
  variants: ConfigVariants,
): Promise<boolean | Response> {
  const authorized = variants.user.callbacks?.authorized;
  if (!authorized || isAuthPath(request.nextUrl.pathname, variants)) return true;
  try {
    const result = await authorized({ request, auth: session });
    if (result instanceof Response) return result;
    return Boolean(result);
  } catch (error) {
    logError(variants.user, error);
    return false;
  }
}

/** The redirect to the sign-in page, with the requested (public) URL as `callbackUrl`. */
function redirectToSignIn(request: NextRequest, variants: ConfigVariants): Response {
  const page = variants.user.pages?.signIn ?? `${variants.basePath}/signin`;
  const requested = publicUrl(request);
  let target: URL;
  if (/^https?:\/\//i.test(page)) target = new URL(page);
  else {
    const [pathname = "/", query = ""] = page.split("?", 2);
    // The sign-in page itself stays reachable, or no one could ever sign in (redirect loop).
    if (request.nextUrl.pathname === pathname) return NextResponse.next();
    target = new URL(`${request.nextUrl.basePath}${pathname}`, requested.origin);
    target.search = query;
  }
  target.searchParams.set("callbackUrl", requested.href);
  return NextResponse.redirect(target);
}

async function protect(
  request: NextRequest,
  context: unknown,
  variants: ConfigVariants,
  handler?: AuthWrappedHandler<unknown>,
): Promise<Response> {
  const { session, cookies } = await lookupSession(
    request.headers,
    variants,
    publicUrl(request).protocol,
  );
  const decision = await decideAccess(request, session, variants);
  let response: Response;
  // As next-auth decides: a Response from `authorized` is the answer; a wrapped handler runs
  // whatever `authorized` said and decides with `request.auth`; only a bare `auth` middleware
  // turns a refusal into the redirect to the sign-in page.
  if (decision instanceof Response) response = decision;
  else if (handler) {
    const augmented = request as NextAuthRequest;
    augmented.auth = session;
    response = (await handler(augmented, context)) ?? NextResponse.next();
  } else if (!decision) response = redirectToSignIn(request, variants);
  else response = NextResponse.next();
  // Middleware keeps the session alive: a re-issued session cookie goes out with any response.
  return withCookies(response, cookies);
}

/**
 * Builds the `auth` function for a config loader.
 *
 * @example
 * ```ts
 * const auth = createAuth(configLoader(config))
 * const session = await auth()
 * ```
 */
export function createAuth(load: ConfigLoader): AuthFunction {
  async function sessionForServerComponent(): Promise<Session | null> {
    const variants = await load(undefined);
    const { session, cookies } = await lookupSession(new Headers(await nextHeaders()), variants);
    await writeCookies(cookies, true);
    return session;
  }

  async function sessionForNodeRequest(
    req: NodeRequestLike,
    res: NodeResponseLike | undefined,
  ): Promise<Session | null> {
    const variants = await load(undefined);
    const socket = req.socket as { encrypted?: unknown } | null | undefined;
    const protocol = socket?.encrypted === true ? "https:" : "http:";
    const { session, cookies } = await lookupSession(nodeHeaders(req.headers), variants, protocol);
    if (res) appendNodeSetCookie(res, setCookieHeaders(cookies));
    return session;
  }

  function auth(...args: unknown[]): unknown {
    const [first, second] = args;
    if (args.length === 0) return sessionForServerComponent();
    if (typeof first === "function") {
      const handler = first as AuthWrappedHandler<unknown>;
      return async (request: NextRequest, context: unknown) => {
        const incoming = asNextRequest(request);
        return protect(incoming, context, await load(incoming), handler);
      };
    }
    if (isFetchRequest(first)) {
      const request = asNextRequest(first);
      return load(request).then((variants) => protect(request, second, variants));
    }
    if (typeof first === "object" && first !== null && "req" in first) {
      const { req, res } = first as { req: NodeRequestLike; res?: NodeResponseLike };
      return sessionForNodeRequest(req, res);
    }
    return sessionForNodeRequest(first as NodeRequestLike, second as NodeResponseLike | undefined);
  }
  return auth as AuthFunction;
}
