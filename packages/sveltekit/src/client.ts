/**
 * Browser-side sign-in and sign-out for SvelteKit pages (`@tessera/sveltekit/client`), as
 * `@auth/sveltekit/client`. **Experimental.** The requests are `@tessera/core/client`'s: both
 * POST with the CSRF token from `<basePath>/csrf` (double-submit cookie) and ask for the redirect
 * as JSON (`X-Auth-Return-Redirect`).
 *
 * @example
 * ```svelte
 * <script>
 *   import { signIn, signOut } from "@tessera/sveltekit/client"
 * </script>
 * <button onclick={() => signIn("github")}>Sign in with GitHub</button>
 * <button onclick={() => signIn("credentials", { username, password, redirectTo: "/" })}>Sign in</button>
 * <button onclick={() => signOut()}>Sign out</button>
 * ```
 */

import {
  type AuthEndpoint,
  signIn as clientSignIn,
  signOut as clientSignOut,
  type SignInAuthorizationParams,
  type SignInExtensions,
  type SignInOptions,
  type SignInResponse,
  type SignOutOptions,
  type SignOutResponse,
} from "@tessera/core/client";
import { base } from "$app/paths";

export type { SignInAuthorizationParams, SignInResponse, SignOutResponse };

/** Options of the client-side {@link signIn}. Other keys are posted as form fields (credentials). */
export interface ClientSignInOptions extends SignInOptions {
  /** The server's base path. Default `<base>/auth`, under `$app/paths`' `base`, as the handle. */
  basePath?: string;
}

/** Options of the client-side {@link signOut}. */
export interface ClientSignOutOptions extends SignOutOptions {
  /** The server's base path. Default `<base>/auth`, under `$app/paths`' `base`, as the handle. */
  basePath?: string;
}

/** @deprecated use {@link SignInResponse} */
export type ClientAuthResult = SignInResponse;

function endpointAt(basePath = `${base}/auth`): AuthEndpoint {
  return { baseUrl: "", basePath: basePath.replace(/\/+$/, "") };
}

/**
 * {@link signIn} with extensions of the core client (`@tessera/sveltekit/webauthn` adds the
 * passkey ceremony): `basePath` picks the endpoint, the rest goes to `@tessera/core/client`.
 *
 * @example
 * ```ts
 * import { webauthnCeremony } from "@tessera/core/client"
 * await signInAt("passkey", { redirect: false }, undefined, { webauthn: webauthnCeremony })
 * ```
 */
export function signInAt(
  provider: string | undefined,
  options: ClientSignInOptions,
  authorizationParams: SignInAuthorizationParams | undefined,
  extensions?: SignInExtensions,
): Promise<SignInResponse | undefined> {
  const { basePath, ...rest } = options;
  return clientSignIn(endpointAt(basePath), provider, rest, authorizationParams, extensions);
}

/**
 * Signs in with `provider`. Credentials and e-mail are checked at once; OAuth providers navigate
 * to the provider. Without a provider (or an unknown one) the browser goes to the sign-in page.
 *
 * @example
 * ```ts
 * const result = await signIn("credentials", { username, password, redirect: false })
 * if (result?.error === "CredentialsSignin") showError("Wrong user name or password")
 * ```
 */
export async function signIn(
  provider?: string,
  options: ClientSignInOptions = {},
  authorizationParams?: SignInAuthorizationParams,
): Promise<SignInResponse | undefined> {
  return signInAt(provider, options, authorizationParams);
}

/**
 * Signs out (the session cookie is cleared; a database session is deleted).
 *
 * @example
 * ```ts
 * await signOut({ redirectTo: "/" })
 * ```
 */
export async function signOut(
  options: ClientSignOutOptions = {},
): Promise<SignOutResponse | undefined> {
  const { basePath, ...rest } = options;
  return clientSignOut(endpointAt(basePath), rest);
}
