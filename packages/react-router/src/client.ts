/**
 * The browser's `signIn` and `signOut` for React Router apps (`@tessera/react-router/client`):
 * `@tessera/core/client`'s requests against the resource route, `/auth` unless `basePath` says
 * otherwise. Both POST with the CSRF token from `<basePath>/csrf` (double-submit cookie).
 *
 * @example
 * ```tsx
 * import { signIn, signOut } from "@tessera/react-router/client"
 *
 * <button onClick={() => signIn("github", { redirectTo: "/dashboard" })}>Sign in with GitHub</button>
 * <button onClick={() => signOut({ redirectTo: "/" })}>Sign out</button>
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

/** Where the resource route lives: `basePath`, default `/auth` (`app/routes/auth.$.ts`). */
export type ClientEndpointOptions = BasePathOption<"basePath">;

/** Options of {@link signIn}; other keys are posted as form fields (credentials). */
export interface ClientSignInOptions extends SignInOptions, ClientEndpointOptions {}

/** Options of {@link signOut}. */
export interface ClientSignOutOptions extends SignOutOptions, ClientEndpointOptions {}

const client = clientAt("/auth");

/**
 * Signs in with `provider`. OAuth and OIDC providers navigate to the provider; credentials and
 * e-mail with `redirect: false` resolve with the outcome (`error` is e.g. `CredentialsSignin`)
 * and stay on the page. Without a provider the browser goes to the sign-in page.
 *
 * @example
 * ```ts
 * const result = await signIn("credentials", { email, password, redirect: false })
 * if (result?.error) setError(result.error)
 * ```
 */
export const signIn: (
  provider?: string,
  options?: ClientSignInOptions,
  authorizationParams?: SignInAuthorizationParams,
) => Promise<SignInResponse | undefined> = client.signIn;

/**
 * Signs out: the session cookie is cleared (a database session deleted), then the browser goes
 * to `redirectTo` (default: the current page) unless `redirect` is `false`, which resolves with
 * `{ url }` instead.
 *
 * @example
 * ```ts
 * await signOut({ redirectTo: "/" })
 * ```
 */
export const signOut: (options?: ClientSignOutOptions) => Promise<SignOutResponse | undefined> =
  client.signOut;
