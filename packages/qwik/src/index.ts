/**
 * Tessera for Qwik City: `QwikAuth$` answers `onRequest`, `useSession`, `useSignIn` and
 * `useSignOut`, with the API of `@auth/qwik`. Export them from `src/routes/plugin@auth.ts`; the
 * plugin answers `/auth/*` and puts the session into `sharedMap` for route guards.
 *
 * @example
 * ```ts
 * // src/routes/plugin@auth.ts
 * import { QwikAuth$ } from "@tessera/qwik"
 * import GitHub from "@tessera/core/providers/github"
 * export const { onRequest, useSession, useSignIn, useSignOut } = QwikAuth$(() => ({ providers: [GitHub] }))
 * ```
 */
import { implicit$FirstArg, inlinedQrl, type QRL } from "@builder.io/qwik";
import { isServer } from "@builder.io/qwik/build";
import {
  type Action,
  globalActionQrl,
  type Loader,
  type RequestEventAction,
  type RequestEventCommon,
  routeLoaderQrl,
  z,
  zodQrl,
} from "@builder.io/qwik-city";
import type { Awaitable, Session } from "@tessera/core";
import { prepareConfig, type QwikAuthConfig } from "./config.js";
import { handleRequest, SESSION_KEY, signIn, signOut } from "./server.js";

export type { ActionRunner, ListedPasskey, PasskeyList, PasskeysApi } from "@tessera/core";
export { customFetch } from "@tessera/core";
export { AuthError, CredentialsSignin } from "@tessera/core/errors";
export type { Account, DefaultSession, Profile, Session, User } from "@tessera/core/types";
export { type EnvGetter, type QwikAuthConfig, setEnvDefaults } from "./config.js";
export { actionRunner, passkeys } from "./server-functions.js";

/** The session read @auth/qwik's helper answered; kept as a type for code that names it. */
export type GetSessionResult = Promise<{ data: Session | null; cookie: unknown }>;

/** What a failed validation of an action's form answers (Qwik's `zod$` shape). */
interface ValidationFailure<Field extends string> {
  formErrors: string[];
  fieldErrors: { [name in Field]?: string[] | undefined };
  failed: true;
}
type ActionValue<Field extends string> =
  | { formErrors?: undefined; fieldErrors?: undefined; failed?: undefined }
  | ValidationFailure<Field>;

const signInSchema = {
  providerId: z.string().optional(),
  redirectTo: z.string().optional(),
  options: z.object({ redirectTo: z.string() }).passthrough().partial().optional(),
  authorizationParams: z
    .union([z.string(), z.custom<URLSearchParams>(), z.record(z.string())])
    .optional(),
};
const signOutSchema = { redirectTo: z.string().optional() };

type SignInInput = z.infer<z.ZodObject<typeof signInSchema>>;
type SignOutInput = z.infer<z.ZodObject<typeof signOutSchema>>;

/** What {@link QwikAuth$} returns: export all four from `src/routes/plugin@auth.ts`. */
export interface QwikAuthResult {
  /** The form action signing in: fields `providerId`, `options.redirectTo`, `options.<credential>`. */
  useSignIn: Action<ActionValue<keyof SignInInput & string>, SignInInput, false>;
  /** The form action signing out: field `redirectTo`. */
  useSignOut: Action<ActionValue<keyof SignOutInput & string>, SignOutInput, false>;
  /** The session of the request, or `null` when signed out. */
  useSession: Loader<Session | null>;
  /** The plugin's request handler: answers `<basePath>/*`, reads the session into `sharedMap`. */
  onRequest: (event: RequestEventCommon) => Promise<void>;
}

/**
 * {@link QwikAuth$} after Qwik's optimizer: the config function as a QRL. Apps write `QwikAuth$`;
 * the optimizer turns the call into this one.
 *
 * The symbol names below are fixed so that an action's id (the hash Qwik derives from them) is the
 * same in the browser and server builds, as the optimizer would make it for the app's own actions.
 *
 * @example
 * ```ts
 * import { inlinedQrl } from "@builder.io/qwik"
 * export const { onRequest } = QwikAuthQrl(inlinedQrl(() => ({ providers: [] }), "authConfig_x1"))
 * ```
 */
export function QwikAuthQrl(
  authOptions: QRL<(event: RequestEventCommon) => Awaitable<QwikAuthConfig>>,
): QwikAuthResult {
  // Server-only closures: the actions and loader below run on the server only, where nothing of
  // them is serialised, so they may close over the config QRL.
  // biome-ignore lint/correctness/useQwikValidLexicalScope: called on the server only (see above)
  const prepared = async (event: RequestEventCommon) =>
    prepareConfig(await authOptions(event), event.env);

  const useSignIn = globalActionQrl(
    inlinedQrl(async (fields: SignInInput, event: RequestEventAction) => {
      // The browser build keeps the action's id only: the core stays out of its bundle.
      if (!isServer) return;
      await signIn(fields, event, await prepared(event));
    }, "QwikAuthQrl_tesseraSignIn_Vb2Qm5sIYk8"),
    zodQrl(inlinedQrl(signInSchema, "QwikAuthQrl_tesseraSignInSchema_0dBf3hVx2Lw")),
  ) as QwikAuthResult["useSignIn"];

  const useSignOut = globalActionQrl(
    inlinedQrl(async (fields: SignOutInput, event: RequestEventAction) => {
      if (!isServer) return;
      await signOut(fields, event, await prepared(event));
    }, "QwikAuthQrl_tesseraSignOut_Hn4kR1pWq9E"),
    zodQrl(inlinedQrl(signOutSchema, "QwikAuthQrl_tesseraSignOutSchema_c7JtYw2sLmA")),
  ) as QwikAuthResult["useSignOut"];

  const useSession = routeLoaderQrl(
    inlinedQrl(
      (event: RequestEventCommon) => (event.sharedMap.get(SESSION_KEY) as Session | null) ?? null,
      "QwikAuthQrl_tesseraSession_Zr8uE3nKf5T",
    ),
  );

  // biome-ignore lint/correctness/useQwikValidLexicalScope: a request handler, never serialised
  const onRequest = async (event: RequestEventCommon): Promise<void> => {
    if (isServer) await handleRequest(event, await prepared(event));
  };

  return { useSignIn, useSignOut, useSession, onRequest };
}

/**
 * Sets Tessera up for a Qwik City app. `config` is a function of the request event (read
 * `event.env` or `event.platform` there); unset options come from `AUTH_*` variables of
 * `event.env` (`AUTH_SECRET`, `AUTH_URL`, `AUTH_TRUST_HOST`, `AUTH_{PROVIDER}_ID/SECRET/ISSUER`).
 * The base path is `/auth` unless the config or `AUTH_URL` names another. Return the same object
 * each time (a module-level constant) to have it resolved once.
 *
 * Guard a route with the session the plugin put into `sharedMap`:
 *
 * @example
 * ```ts
 * // src/routes/plugin@auth.ts
 * import { QwikAuth$ } from "@tessera/qwik"
 * import Credentials from "@tessera/core/providers/credentials"
 * export const { onRequest, useSession, useSignIn, useSignOut } = QwikAuth$(() => ({
 *   providers: [Credentials({ credentials: { email: {}, password: {} }, authorize: async () => null })],
 * }))
 *
 * // src/routes/dashboard/layout.tsx
 * import type { RequestHandler } from "@builder.io/qwik-city"
 * export const onRequest: RequestHandler = (event) => {
 *   if (!event.sharedMap.get("session"))
 *     throw event.redirect(302, `/auth/signin?callbackUrl=${encodeURIComponent(event.url.href)}`)
 * }
 * ```
 */
export const QwikAuth$: (
  config: (event: RequestEventCommon) => Awaitable<QwikAuthConfig>,
) => QwikAuthResult = /*#__PURE__*/ implicit$FirstArg(QwikAuthQrl);
