/**
 * Passkey sign-in and registration for SvelteKit pages (`@tessera/sveltekit/webauthn`), as
 * `@auth/sveltekit/webauthn`. **Experimental.** `signIn` works like the one of
 * `@tessera/sveltekit/client` and, for a provider of type `webauthn`, runs the browser's WebAuthn
 * ceremony first (options from `<basePath>/webauthn-options/<id>`), posting the result to the
 * callback.
 *
 * @example
 * ```svelte
 * <script>
 *   import { signIn } from "@tessera/sveltekit/webauthn"
 * </script>
 * <button onclick={() => signIn("passkey")}>Sign in with a passkey</button>
 * <button onclick={() => signIn("passkey", { action: "register", email })}>Create a passkey</button>
 * ```
 */
import {
  type SignInAuthorizationParams,
  type SignInResponse,
  webauthnCeremony,
} from "@tessera/core/client";
import { type ClientSignInOptions, signInAt } from "./client.js";

export type { ClientSignInOptions, SignInAuthorizationParams, SignInResponse };

/**
 * Signs in with `provider`; passkey providers run the WebAuthn ceremony in the browser. Pass
 * `action: "register"` (with `email`, or while signed in) to create a passkey, `"authenticate"`
 * to use one; without `action` the server chooses. Resolves with `undefined` when the server
 * refused to start the ceremony; rejects when the user cancels it (`NotAllowedError`).
 *
 * @example
 * ```ts
 * const result = await signIn("passkey", { action: "register", email, redirect: false })
 * if (result?.ok) await invalidateAll()
 * ```
 */
export async function signIn(
  provider?: string,
  options: ClientSignInOptions = {},
  authorizationParams?: SignInAuthorizationParams,
): Promise<SignInResponse | undefined> {
  return signInAt(provider, options, authorizationParams, { webauthn: webauthnCeremony });
}
