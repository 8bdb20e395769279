/**
 * Tessera's framework-free browser client (`@tessera/core/client`): the requests behind
 * `signIn`, `signOut`, `getSession`, `getCsrfToken`, `getProviders`, session updates and passkey
 * ceremonies, each taking the {@link AuthEndpoint} it talks to. `@tessera/next/react` and
 * `@tessera/sveltekit/client` are thin wrappers around it. Nothing here imports server code.
 *
 * @example
 * ```ts
 * import { getSession, signIn } from "@tessera/core/client"
 * const endpoint = { baseUrl: "", basePath: "/auth" }
 * const result = await signIn(endpoint, "credentials", { username, password, redirect: false })
 * if (result?.ok) console.log(await getSession(endpoint))
 * ```
 */
export { type ActionAnswer, callAuthAction } from "./lib/client/action.js";
export { type BasePathOption, type BoundClient, clientAt } from "./lib/client/bound.js";
export { type AuthEndpoint, authActionUrl, endpointFromUrl } from "./lib/client/endpoint.js";
export {
  type FetchAuthJsonOptions,
  fetchAuthJson,
  type PostedForm,
  postAuthForm,
} from "./lib/client/fetch.js";
export { navigate } from "./lib/client/navigate.js";
export {
  type ClientPasskeyList,
  type ConditionalCreateOptions,
  createPasskeyConditionally,
  deletePasskey,
  listPasskeys,
  renamePasskey,
  signalPasskeys,
} from "./lib/client/passkeys.js";
export { findProvider } from "./lib/client/provider.js";
export {
  type ClientSafeProvider,
  getCsrfToken,
  getProviders,
  getSession,
  updateSession,
} from "./lib/client/session.js";
export {
  type SignInAuthorizationParams,
  type SignInExtensions,
  type SignInOptions,
  type SignInResponse,
  signIn,
} from "./lib/client/sign-in.js";
export { type SignOutOptions, type SignOutResponse, signOut } from "./lib/client/sign-out.js";
export {
  passkeyAssertion,
  type WebAuthnAction,
  type WebAuthnCeremony,
  type WebAuthnCeremonyResult,
  webauthnCeremony,
} from "./lib/client/webauthn.js";
