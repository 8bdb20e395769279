/**
 * Passkey sign-in and registration from client components, as `next-auth/webauthn`: `signIn`
 * works like the one of `@tessera/next/react` and, for a provider of type `webauthn`, runs the
 * browser's WebAuthn ceremony first (options from `/api/auth/webauthn-options/<id>`, then
 * `navigator.credentials.get()` or `.create()`), posting the result to the callback.
 *
 * @example
 * ```tsx
 * "use client"
 * import { signIn } from "@tessera/next/webauthn"
 * <button onClick={() => signIn("passkey")}>Sign in with a passkey</button>
 * <button onClick={() => signIn("passkey", { action: "register", email })}>Create a passkey</button>
 * ```
 */
import {
  type SignInAuthorizationParams,
  type SignInOptions,
  type SignInResponse,
  webauthnCeremony,
} from "@tessera/core/client";
import { signInAndSync } from "./client-state.js";

export type { SignInAuthorizationParams, SignInOptions, SignInResponse };

/**
 * Signs in with `provider`; passkey providers run the WebAuthn ceremony in the browser. Pass
 * `action: "register"` (with `email`, or while signed in) to create a passkey, `"authenticate"`
 * to use one; without `action` the server chooses. With `redirect: false` resolves with the
 * outcome; resolves with `undefined` when the server refused to start the ceremony, and rejects
 * when the user cancels it (`NotAllowedError`).
 *
 * @example
 * ```ts
 * const result = await signIn("passkey", { redirect: false })
 * if (result?.ok) router.refresh()
 * ```
 */
export async function signIn(
  provider?: string,
  options?: SignInOptions,
  authorizationParams?: SignInAuthorizationParams,
): Promise<SignInResponse | undefined> {
  return signInAndSync(provider, options, authorizationParams, { webauthn: webauthnCeremony });
}
