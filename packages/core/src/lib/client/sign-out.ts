/**
 * Client-side sign-out.
 */
import { type AuthEndpoint, authActionUrl } from "./endpoint.js";
import { postAuthForm } from "./fetch.js";
import { navigate } from "./navigate.js";
import { getCsrfToken } from "./session.js";

/** Options of {@link signOut}. */
export interface SignOutOptions {
  /** Where to go afterwards. Default: the current page. */
  redirectTo?: string;
  /** @deprecated use `redirectTo` */
  callbackUrl?: string;
  /** `false` stays on the page and resolves with `{ url }`. Default `true`. */
  redirect?: boolean;
}

/** The outcome of `signOut({ redirect: false })`. */
export interface SignOutResponse {
  /** Where the user would have been sent. */
  url: string;
}

/**
 * Signs out at `endpoint`: the session cookie is cleared and a database session deleted. Follows
 * the redirect unless `redirect` is `false`.
 *
 * @example
 * ```ts
 * await signOut({ baseUrl: "", basePath: "/api/auth" }, { redirectTo: "/" })
 * ```
 */
export async function signOut(
  endpoint: AuthEndpoint,
  options: SignOutOptions = {},
): Promise<SignOutResponse | undefined> {
  const { redirect = true, redirectTo, callbackUrl } = options;
  const target = redirectTo ?? callbackUrl ?? window.location.href;
  const form = new URLSearchParams({
    csrfToken: await getCsrfToken(endpoint),
    callbackUrl: target,
  });
  const posted = await postAuthForm(authActionUrl(endpoint, "signout"), form);
  const url = posted.url ?? target;
  if (redirect) {
    navigate(url);
    return undefined;
  }
  return { url };
}
