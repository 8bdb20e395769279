/**
 * Tessera core: `Auth(request, config)` answers every authentication action with a `Response`.
 *
 * @example
 * ```ts
 * import { Auth } from "@tessera/core"
 * import Credentials from "@tessera/core/providers/credentials"
 *
 * const config = { secret: process.env.AUTH_SECRET, providers: [Credentials({ authorize })] }
 * export default { fetch: (request: Request) => Auth(request, config) }
 * ```
 */
import { type ConfigOrFactory, handleRequest } from "./lib/pipeline.js";
import type { AuthConfig, ResponseInternal } from "./types.js";

export type {
  AccountOverview,
  AccountPassword,
  AccountProfile,
  AccountSectionPart,
  AccountTwoFactor,
  LinkableProvider,
  LinkedAccount,
} from "./lib/account/types.js";
export {
  type AccountApi,
  type AccountChange,
  type AccountRefusal,
  accountApi,
  getAccountOverview,
  unlinkAccount,
  updateAccountName,
} from "./lib/account-in-process.js";
export {
  basePathFromEnv,
  createActionURL,
  setEnvDefaults,
  siteUrlFromEnv,
} from "./lib/config/env.js";
export type {
  ActionRow,
  SignInResult,
  SignInStep,
  SignInStepOutcome,
  SignInStepPhase,
} from "./lib/config/internal.js";
export { assertStartupConfig, defaultCallbacks } from "./lib/config/resolve.js";
export {
  createMemoryAttemptStore,
  type VerificationAttemptStore,
} from "./lib/email/attempts.js";
export {
  defineExtension,
  type ExtensionParts,
  type ExtensionRequirement,
} from "./lib/extension.js";
export type { TesseraExtension } from "./lib/extension-handle.js";
// For framework integrations that write `ResponseInternal` data themselves.
export { CONFIGURATION_MESSAGE } from "./lib/http/response.js";
// Types only: the dictionaries and translators are in `@tessera/core/i18n`, so that an app
// that never renders a page loads none of them at start-up.
export type { AccountMessages } from "./lib/i18n/account/en.js";
export type { CoreMessages } from "./lib/i18n/core/en.js";
export type {
  LocaleOption,
  MessageBundle,
  MessageOverrides,
  MessageParams,
  Messages,
  Translation,
  Translator,
} from "./lib/i18n/messages.js";
export {
  type ActionCall,
  type ActionRunner,
  type ActionRunnerOptions,
  actionRunner,
  callAction,
  getAccessToken,
  type IncomingRequestParts,
  type InProcessCall,
  listSessions,
  revokeOtherSessions,
  revokeSession,
  type SessionRevocationResult,
  servesAction,
  signInActionFor,
  withAnswerCookies,
} from "./lib/in-process.js";
export {
  deletePasskey,
  listPasskeys,
  type PasskeyList,
  type PasskeyOperation,
  type PasskeysApi,
  passkeysApi,
  renamePasskey,
  runPasskeyOperation,
} from "./lib/passkeys-in-process.js";
export {
  isAuthAction,
  safeHeaderValue,
  serializeCookies,
  type WriteProblem,
} from "./lib/pipeline.js";
export type {
  AccessToken,
  AccessTokenOptions,
  RequestHead,
} from "./lib/session/access-token.js";
export type { ListedSession } from "./lib/session/devices.js";
export { pageSafeClaims } from "./lib/session/jwt-cookie.js";
export {
  isJwtSessionRevoked,
  jwtSessionId,
  revokeJwtSession,
} from "./lib/session/jwt-revocation.js";
export { readSession, type SessionRead, sessionReadOf } from "./lib/session-read.js";
export { customFetch, raw, skipCSRFCheck } from "./lib/symbols.js";
export type { ListedPasskey, PasskeySignals } from "./lib/webauthn/passkeys.js";
export {
  WEBAUTHN_WELL_KNOWN_PATH,
  webauthnWellKnown,
} from "./lib/webauthn/related-origins.js";
export type {
  Account,
  AuthAction,
  AuthConfig,
  Awaitable,
  CallbacksOptions,
  CheckCookieCodec,
  CheckCookiePayload,
  Cookie,
  CookieOption,
  CookiesOptions,
  DefaultSession,
  EventCallbacks,
  JWT,
  JWTOptions,
  LegacySessionCookie,
  LoggerInstance,
  PagesOptions,
  Profile,
  RateLimitOptions,
  ResponseInternal,
  Session,
  SessionOptions,
  Theme,
  TokenSet,
  User,
} from "./types.js";
export type { ConfigOrFactory };

/**
 * Handles one authentication request. `config` may be an object (resolved once and cached) or a
 * function of the request returning one (resolved per request). `options.clientIp` (Tessera
 * extension) is the client's address as the platform reports it, for per-IP rate limits.
 *
 * @example
 * ```ts
 * const response = await Auth(new Request("http://localhost:3000/auth/session"), config)
 * await response.json() // the session, or null
 * ```
 */
export async function Auth(
  request: Request,
  config: AuthConfig & { raw: typeof import("./lib/symbols.js").raw },
  options?: AuthRequestOptions,
): Promise<ResponseInternal>;
export async function Auth(
  request: Request,
  config: ConfigOrFactory,
  options?: AuthRequestOptions,
): Promise<Response>;
export async function Auth(
  request: Request,
  config: ConfigOrFactory,
  options: AuthRequestOptions = {},
): Promise<Response | ResponseInternal> {
  return handleRequest(request, config, options.clientIp, options.reshape);
}

/** Tessera extension: what an integration knows about a request beyond the `Request` itself. */
export interface AuthRequestOptions {
  /**
   * The client's IP address, from the platform (a socket address, SvelteKit's
   * `getClientAddress()`), never from an unvalidated `X-Forwarded-For` header. Sign-in rate
   * limits count per IP address only when it is given.
   */
  clientIp?: string;
  /**
   * Adjusts the answer's data before it becomes a `Response`: for wrappers that keep an older
   * API's answer shapes (`@tessera/next-auth` answers as next-auth v4 does). Not applied in raw
   * mode, where the data itself is returned.
   */
  reshape?: (internal: ResponseInternal) => ResponseInternal;
}
