/**
 * Browser-side sign-in and sign-out for Astro pages (`@tessera/astro/client`), as
 * `auth-astro/client`: both POST with the CSRF token from `<prefix>/csrf` (double-submit cookie)
 * and follow the redirect the server names. The requests are `@tessera/core/client`'s.
 *
 * @example
 * ```ts
 * // <script> in an .astro page
 * import { signIn, signOut } from "@tessera/astro/client"
 * document.querySelector("#login")?.addEventListener("click", () => signIn("github"))
 * document.querySelector("#logout")?.addEventListener("click", () => signOut())
 * ```
 */
import {
  type BasePathOption,
  clientAt,
  type SignInAuthorizationParams,
  type SignInOptions,
  type SignInResponse,
  type SignOutOptions,
  type SignOutResponse,
} from "@tessera/core/client";

export type { SignInAuthorizationParams, SignInResponse, SignOutResponse };

/** Options of {@link signIn}. Other keys are posted as form fields (credentials, `email`). */
export interface AstroSignInOptions extends SignInOptions, BasePathOption<"prefix"> {}

/** Options of {@link signOut}. */
export interface AstroSignOutParams extends SignOutOptions, BasePathOption<"prefix"> {}

// `prefix` (default `/api/auth`) names the auth routes, as in auth-astro.
const client = clientAt("/api/auth", "prefix");

/**
 * Signs in with `providerId`. OAuth and OIDC providers navigate to the provider. Credentials and
 * e-mail navigate too, unless `redirect` is `false`: then the promise resolves with
 * `{ ok, error, code, status, url }` (`error` is e.g. `"CredentialsSignin"`). Without a
 * provider, or with one the server does not list, the browser goes to the sign-in page.
 *
 * @example
 * ```ts
 * const result = await signIn("credentials", { username, password, redirect: false })
 * if (result?.error === "CredentialsSignin") showError("Wrong user name or password")
 * ```
 */
export const signIn: (
  providerId?: string,
  options?: AstroSignInOptions,
  authorizationParams?: SignInAuthorizationParams,
) => Promise<SignInResponse | undefined> = client.signIn;

/**
 * Signs out: the session cookie is cleared (a database session deleted), then the browser goes
 * to `redirectTo` (or `callbackUrl`, default the current page).
 *
 * @example
 * ```ts
 * await signOut({ callbackUrl: "/" })
 * ```
 */
export const signOut: (options?: AstroSignOutParams) => Promise<SignOutResponse | undefined> =
  client.signOut;
