/**
 * Browser-side sign-in and sign-out for SolidStart pages (`@tessera/solid-start/client`), as
 * `@auth/solid-start/client`. The requests are `@tessera/core/client`'s: both POST with the CSRF
 * token from `<basePath>/csrf` (double-submit cookie) and ask for the redirect as JSON
 * (`X-Auth-Return-Redirect`).
 *
 * @example
 * ```tsx
 * import { signIn, signOut } from "@tessera/solid-start/client"
 *
 * <button onClick={() => signIn("github")}>Sign in with GitHub</button>
 * <button onClick={() => signOut()}>Sign out</button>
 * ```
 */
import {
  type AuthEndpoint,
  signIn as clientSignIn,
  signOut as clientSignOut,
  type SignInAuthorizationParams,
  type SignInOptions,
  type SignInResponse,
  type SignOutOptions,
  type SignOutResponse,
} from "@tessera/core/client";

export type { SignInAuthorizationParams, SignInResponse, SignOutResponse };

/** Options of the client-side {@link signIn}. Other keys are posted as form fields (credentials). */
export interface ClientSignInOptions<Redirect extends boolean = boolean> extends SignInOptions {
  /** `false` stays on the page and resolves with the outcome (credentials, e-mail). */
  redirect?: Redirect;
  /** Tessera extension: the server's prefix. Default `/api/auth`, as `SolidAuth`'s. */
  basePath?: string;
}

/** Options of the client-side {@link signOut}. */
export interface ClientSignOutOptions<Redirect extends boolean = boolean> extends SignOutOptions {
  /** `false` stays on the page and resolves with `{ url }`. */
  redirect?: Redirect;
  /** Tessera extension: the server's prefix. Default `/api/auth`, as `SolidAuth`'s. */
  basePath?: string;
}

function endpointAt(basePath = "/api/auth"): AuthEndpoint {
  return { baseUrl: "", basePath: basePath.replace(/\/+$/, "") };
}

/**
 * Signs in with `provider`. Credentials and e-mail are checked at once and, with
 * `redirect: false`, resolve with the outcome (`error` is e.g. `CredentialsSignin`); OAuth and
 * OIDC providers always navigate to the provider. Without a provider (or with one the server does
 * not list) the browser goes to the sign-in page.
 *
 * @example
 * ```ts
 * const result = await signIn("credentials", { email, password, redirect: false })
 * if (result.error === "CredentialsSignin") setError("Wrong e-mail or password")
 * ```
 */
export async function signIn(
  provider?: string,
  options?: ClientSignInOptions<true>,
  authorizationParams?: SignInAuthorizationParams,
): Promise<undefined>;
export async function signIn(
  provider: string | undefined,
  options: ClientSignInOptions<false>,
  authorizationParams?: SignInAuthorizationParams,
): Promise<SignInResponse>;
export async function signIn(
  provider?: string,
  options?: ClientSignInOptions,
  authorizationParams?: SignInAuthorizationParams,
): Promise<SignInResponse | undefined>;
export async function signIn(
  provider?: string,
  options: ClientSignInOptions = {},
  authorizationParams?: SignInAuthorizationParams,
): Promise<SignInResponse | undefined> {
  const { basePath, ...rest } = options;
  const result = await clientSignIn(endpointAt(basePath), provider, rest, authorizationParams);
  if (result || options.redirect !== false) return result;
  // The page is navigating (to the provider, or to the sign-in page): nothing failed here.
  return { error: undefined, code: undefined, status: 200, ok: true, url: null };
}

/**
 * Signs out: the session cookie is cleared (and a database session deleted), then the browser
 * goes to `redirectTo` (default: the current page), unless `redirect` is `false`.
 *
 * @example
 * ```ts
 * await signOut({ redirectTo: "/" })
 * ```
 */
export async function signOut(options?: ClientSignOutOptions<true>): Promise<undefined>;
export async function signOut(options: ClientSignOutOptions<false>): Promise<SignOutResponse>;
export async function signOut(options?: ClientSignOutOptions): Promise<SignOutResponse | undefined>;
export async function signOut(
  options: ClientSignOutOptions = {},
): Promise<SignOutResponse | undefined> {
  const { basePath, ...rest } = options;
  return clientSignOut(endpointAt(basePath), rest);
}
