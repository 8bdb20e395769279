/**
 * next-auth v4's middleware: `withAuth`, and `middleware` (also exported as `proxy` and as the
 * default export) protecting every matched path, for the one-liner
 * `export { proxy } from "@tessera/next-auth/middleware"`. It reads the v4 session token from
 * the cookie, so it runs on the edge runtime without a database (JWT sessions, as in v4).
 *
 * @example
 * ```ts
 * // middleware.ts
 * import { withAuth } from "@tessera/next-auth/middleware"
 *
 * export default withAuth({
 *   callbacks: { authorized: ({ token }) => token?.role === "admin" },
 * })
 * export const config = { matcher: ["/admin/:path*"] }
 * ```
 */
import { type NextFetchEvent, type NextRequest, NextResponse } from "next/server.js";
import { getToken, type JWT, type JWTOptions } from "./jwt.js";
import type { Awaitable, PagesOptions } from "./types.js";

/** Decides whether a request with `token` (`null` when signed out) may go on. */
export type AuthorizedCallback = (params: {
  token: JWT | null;
  req: NextRequest;
}) => Awaitable<boolean>;

/** The options of {@link withAuth}, as next-auth v4 takes them. */
export interface NextAuthMiddlewareOptions {
  pages?: Partial<PagesOptions>;
  /** The session cookie's name, when the app renamed it. */
  cookies?: { sessionToken?: { name: string } };
  jwt?: Partial<Pick<JWTOptions, "decode">>;
  callbacks?: { authorized?: AuthorizedCallback };
  /** Default: `NEXTAUTH_SECRET`, then `AUTH_SECRET`. */
  secret?: string;
}

/** The request a wrapped middleware gets: the token is on `req.nextauth.token`. */
export interface NextRequestWithAuth extends NextRequest {
  nextauth: { token: JWT | null };
}

/** What a middleware answers: a response, or nothing to let the request go on. */
// biome-ignore lint/suspicious/noConfusingVoidType: a middleware that returns nothing must fit.
export type NextMiddlewareResult = Response | NextResponse | null | undefined | void;

/** A middleware wrapped by {@link withAuth}. */
export type NextMiddlewareWithAuth = (
  request: NextRequestWithAuth,
  event: NextFetchEvent,
) => NextMiddlewareResult | Promise<NextMiddlewareResult>;

/** The path of the auth routes: `NEXTAUTH_URL`'s path when it has one, else `/api/auth`. */
function authPath(): string {
  const site = process.env.NEXTAUTH_URL || process.env.AUTH_URL;
  if (site) {
    try {
      const path = new URL(site).pathname.replace(/\/+$/, "");
      if (path) return path;
    } catch {
      // A malformed NEXTAUTH_URL is reported by the route handler; here the default path stands.
    }
  }
  return "/api/auth";
}

const PUBLIC_PATHS = ["/_next", "/favicon.ico"];

async function guard(
  req: NextRequest,
  options: NextAuthMiddlewareOptions | undefined,
  onSuccess?: (token: JWT | null) => Promise<NextMiddlewareResult>,
): Promise<NextMiddlewareResult> {
  const { pathname, search, origin, basePath } = req.nextUrl;
  const signInPage = options?.pages?.signIn ?? "/api/auth/signin";
  const errorPage = options?.pages?.error ?? "/api/auth/error";
  // The sign-in and error pages and the auth routes stay reachable, or nobody could sign in.
  if (
    `${basePath}${pathname}`.startsWith(authPath()) ||
    pathname === signInPage ||
    pathname === errorPage ||
    PUBLIC_PATHS.some((path) => pathname.startsWith(path))
  )
    return undefined;

  const secret = options?.secret ?? process.env.NEXTAUTH_SECRET ?? process.env.AUTH_SECRET;
  if (!secret) {
    console.error(
      "[tessera][error] withAuth has no secret: set NEXTAUTH_SECRET (or pass `secret`) to the secret of your NextAuth options.",
    );
    const errorUrl = new URL(`${basePath}${errorPage}`, origin);
    errorUrl.searchParams.append("error", "Configuration");
    return NextResponse.redirect(errorUrl);
  }

  const token = await getToken({
    req,
    secret,
    ...(options?.jwt?.decode && { decode: options.jwt.decode }),
    ...(options?.cookies?.sessionToken?.name && {
      cookieName: options.cookies.sessionToken.name,
    }),
  });
  let authorized: boolean;
  try {
    authorized = (await options?.callbacks?.authorized?.({ req, token })) ?? token !== null;
  } catch (error) {
    // Fail closed: an `authorized` callback that throws denies instead of letting everyone in.
    console.error("[tessera][error] The authorized callback of withAuth threw:", error);
    authorized = false;
  }
  if (authorized) return onSuccess?.(token);

  const signInUrl = new URL(`${basePath}${signInPage}`, origin);
  signInUrl.searchParams.append("callbackUrl", `${basePath}${pathname}${search}`);
  return NextResponse.redirect(signInUrl);
}

function isRequest(value: unknown): value is NextRequest {
  return value instanceof Request;
}

/**
 * Protects pages with the v4 session: without a session token (or when `authorized` says no) the
 * request is redirected to the sign-in page with a `callbackUrl`. Called with a request it
 * answers at once; with a middleware and/or options it returns the middleware.
 *
 * @example
 * ```ts
 * export default withAuth(
 *   (req) => (req.nextauth.token?.role === "admin" ? undefined : NextResponse.rewrite(new URL("/denied", req.url))),
 *   { callbacks: { authorized: ({ token }) => token !== null } },
 * )
 * ```
 */
export function withAuth(): Promise<NextMiddlewareResult>;
export function withAuth(req: NextRequest, event?: NextFetchEvent): Promise<NextMiddlewareResult>;
export function withAuth(
  req: NextRequest,
  options: NextAuthMiddlewareOptions,
): Promise<NextMiddlewareResult>;
export function withAuth(
  middleware: NextMiddlewareWithAuth,
  options?: NextAuthMiddlewareOptions,
): NextMiddlewareWithAuth;
export function withAuth(options: NextAuthMiddlewareOptions): NextMiddlewareWithAuth;
export function withAuth(
  ...args: unknown[]
): Promise<NextMiddlewareResult> | NextMiddlewareWithAuth {
  const [first, second] = args;
  if (args.length === 0)
    throw new TypeError(
      "withAuth() needs a request, a middleware or options: use `export default withAuth` or `withAuth({ … })`.",
    );
  if (isRequest(first)) {
    // The second argument is the fetch event when Next.js calls the default export directly.
    const options =
      second !== undefined && !("waitUntil" in (second as object))
        ? (second as NextAuthMiddlewareOptions)
        : undefined;
    return guard(first, options);
  }
  if (typeof first === "function") {
    const middleware = first as NextMiddlewareWithAuth;
    const options = second as NextAuthMiddlewareOptions | undefined;
    return async (req, event) =>
      guard(req, options, async (token) => {
        req.nextauth = { token };
        return middleware(req, event);
      });
  }
  const options = first as NextAuthMiddlewareOptions;
  return async (req) => guard(req, options);
}

/**
 * Protects every path the app's `config.matcher` matches: the middleware of the one-liners.
 * Next.js 16 finds a middleware by a static look at the file's exports and refuses
 * `export { default } from "…"` (v4's documented one-liner: "must export a function") whatever
 * the package exports, so the one-liner names the function instead:
 *
 * @example
 * ```ts
 * // proxy.ts (Next.js 16)
 * export { proxy } from "@tessera/next-auth/middleware"
 * export const config = { matcher: ["/dashboard/:path*"] }
 *
 * // middleware.ts (Next.js 13–15, or 16 with the deprecated file name)
 * export { middleware } from "@tessera/next-auth/middleware"
 * ```
 */
export function middleware(
  req: NextRequest,
  event?: NextFetchEvent,
): Promise<NextMiddlewareResult> {
  return withAuth(req, event);
}

export { middleware as proxy };
export default middleware;
