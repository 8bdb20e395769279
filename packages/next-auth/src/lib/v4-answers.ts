/**
 * next-auth v4's answers where the core's differ, applied to the core's answer data before it is
 * written (both routers). Each rule is a fact read off next-auth@4.24.15 and checked by the
 * differential tests:
 *
 * - a signed-out `GET /session`, and a refused `POST /session`, answer `{}`, not `null` (v4's
 *   client reads `{}` as signed out and fails on `null`);
 * - a sign-in or sign-out post without a valid CSRF token goes to `/signin?csrf=true` or
 *   `/signout?csrf=true`, not `?error=MissingCSRF`;
 * - a failed sign-in goes to the error page with v4's error name (`OAuthCallback`, `Callback`,
 *   `CredentialsSignin&provider=…`, …), and the error page sends sign-in errors on to the
 *   sign-in page, as v4's does.
 */
import type { ResponseInternal } from "@tessera/core";

/** The core's error types under the names v4 puts in `?error=`. */
const V4_ERROR_NAMES: Record<string, string> = {
  OAuthCallbackError: "OAuthCallback",
  OAuthSignInError: "OAuthSignin",
  OAuthProfileParseError: "OAuthCallback",
  InvalidCheck: "OAuthCallback",
  CallbackRouteError: "Callback",
  EmailSignInError: "EmailSignin",
  SignInError: "Signin",
};

/** The errors v4's error page does not show but sends to the sign-in page. */
const SIGN_IN_ERRORS = new Set([
  "Signin",
  "OAuthSignin",
  "OAuthCallback",
  "OAuthCreateAccount",
  "EmailCreateAccount",
  "Callback",
  "OAuthAccountNotLinked",
  "EmailSignin",
  "CredentialsSignin",
  "SessionRequired",
]);

/** What the rules need to know of the request and the configuration. */
export interface AnswerContext {
  /** The action (`session`, `signin`, `callback`, …) and the provider id that follows it. */
  action: string | undefined;
  providerId: string | undefined;
  method: string | undefined;
  /** The query of the request (the error page's `error`). */
  query: URLSearchParams;
  /** Where the auth routes are: the site origin and base path (`http://app/api/auth`). */
  authUrl: string;
  pages: { signIn?: string | undefined; error?: string | undefined };
}

function pageUrl(page: string | undefined, fallback: string, authUrl: string): URL {
  return new URL(page ?? fallback, page ? new URL(authUrl).origin : `${authUrl}/`);
}

function redirectTo(internal: ResponseInternal, url: URL): ResponseInternal {
  const { body: _body, status: _status, ...rest } = internal;
  return { ...rest, status: 302, redirect: url.href };
}

function isErrorTarget(target: URL, ctx: AnswerContext): boolean {
  const pages = [
    pageUrl(ctx.pages.signIn, "signin", ctx.authUrl),
    pageUrl(ctx.pages.error, "error", ctx.authUrl),
  ];
  return pages.some((page) => page.origin === target.origin && page.pathname === target.pathname);
}

/** The error redirect of a failed action, rewritten as v4 writes it. */
function v4ErrorRedirect(internal: ResponseInternal, ctx: AnswerContext): ResponseInternal {
  if (internal.redirect === undefined) return internal;
  let target: URL;
  try {
    target = new URL(internal.redirect);
  } catch {
    return internal;
  }
  const error = target.searchParams.get("error");
  // Only the core's error redirects (to the sign-in or error page) are rewritten: a callbackUrl
  // of the app's own that happens to carry `?error=` is left alone.
  if (error === null || !isErrorTarget(target, ctx)) return internal;
  if (error === "MissingCSRF") {
    const page = ctx.action === "signout" ? "signout" : "signin";
    const url = new URL(`${ctx.authUrl}/${page}`);
    url.searchParams.set("csrf", "true");
    return redirectTo(internal, url);
  }
  if (error === "Configuration") return internal;
  let name = V4_ERROR_NAMES[error] ?? error;
  // The provider answered the callback with an error of its own (`?error=access_denied`): v4
  // reports that as `Callback`, keeping `OAuthCallback` for failed checks and token requests.
  if (name === "OAuthCallback" && ctx.action === "callback" && ctx.query.has("error"))
    name = "Callback";
  const url = pageUrl(ctx.pages.error, "error", ctx.authUrl);
  url.searchParams.set("error", name);
  if (name === "CredentialsSignin" && ctx.providerId)
    url.searchParams.set("provider", ctx.providerId);
  return redirectTo(internal, url);
}

/**
 * `internal` as next-auth v4 would have answered the same request.
 *
 * @example
 * ```ts
 * const answer = v4Answer({ status: 200, body: null }, { action: "session", method: "GET", … })
 * answer.body // {}
 * ```
 */
export function v4Answer(internal: ResponseInternal, ctx: AnswerContext): ResponseInternal {
  if (ctx.action === "session" && (internal.body === null || internal.body === undefined))
    return { ...internal, body: {} };
  if (ctx.action === "error" && ctx.method === "GET") {
    const error = ctx.query.get("error");
    // v4's error page shows no sign-in error itself: it sends the user back to sign in.
    if (error !== null && SIGN_IN_ERRORS.has(error)) {
      const url = pageUrl(ctx.pages.signIn, "signin", ctx.authUrl);
      url.searchParams.set("error", error);
      return redirectTo(internal, url);
    }
    return internal;
  }
  if (ctx.action === "signin" || ctx.action === "signout" || ctx.action === "callback")
    return v4ErrorRedirect(internal, ctx);
  return internal;
}
