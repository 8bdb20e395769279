/**
 * `useSession()`: the session as reactive state shared by every component (filled during SSR by
 * the module's plugin), and the browser client's `signIn`/`signOut`, which are
 * `@tessera/core/client`'s requests against the module's base path. Auto-imported in the app.
 */
import type { Session } from "@tessera/core";
import {
  type AuthEndpoint,
  signIn as clientSignIn,
  signOut as clientSignOut,
  getSession,
  type SignInAuthorizationParams,
  type SignInOptions,
  type SignInResponse,
  type SignOutOptions,
  type SignOutResponse,
} from "@tessera/core/client";
import { useRequestEvent, useRuntimeConfig, useState } from "nuxt/app";
import { type ComputedRef, computed, type Ref } from "vue";

/** `loading` until the session was read once (on the server for SSR pages). */
export type SessionStatus = "loading" | "authenticated" | "unauthenticated";

/** What {@link useSession} returns. */
export interface UseSessionReturn {
  /** The session, `null` when signed out, `undefined` while not yet read. */
  data: Ref<Session | null | undefined>;
  status: ComputedRef<SessionStatus>;
  /** Reads the session again (on the server: for the current request). */
  refresh: () => Promise<Session | null>;
  signIn: typeof signIn;
  signOut: typeof signOut;
}

/** Options of {@link signIn}: the core client's; other keys are posted as form fields. */
export type ClientSignInOptions = SignInOptions;

/** Options of {@link signOut}. */
export type ClientSignOutOptions = SignOutOptions;

/** What the server render gives the app: the session reader the module's Nitro plugin sets. */
interface TesseraContext {
  tesseraSession?: () => Promise<Session | null>;
}

function endpoint(): AuthEndpoint {
  const { tessera } = useRuntimeConfig().public as { tessera: { basePath: string } };
  return { baseUrl: "", basePath: tessera.basePath };
}

function sessionState(): Ref<Session | null | undefined> {
  return useState<Session | null | undefined>("tessera:session", () => undefined);
}

/**
 * Reads the session into the shared state: on the server straight from the core (the request's
 * own cookies), in the browser from `<basePath>/session`.
 */
async function refreshSession(): Promise<Session | null> {
  const state = sessionState();
  let session: Session | null;
  if (import.meta.server) {
    const context = useRequestEvent()?.context as TesseraContext | undefined;
    session = (await context?.tesseraSession?.()) ?? null;
  } else {
    session = await getSession(endpoint());
  }
  state.value = session;
  return session;
}

/**
 * Signs in with `provider`. Credentials and e-mail are checked at once and, with
 * `redirect: false`, resolve with the outcome (`error` is e.g. `CredentialsSignin`) and refresh
 * the session; OAuth and OIDC providers always navigate to the provider. Without a provider the
 * browser goes to the sign-in page.
 *
 * @example
 * ```ts
 * const { signIn } = useSession()
 * const result = await signIn("credentials", { email, password, redirect: false })
 * if (result?.error) error.value = "Wrong e-mail or password"
 * ```
 */
export async function signIn(
  provider?: string,
  options: ClientSignInOptions = {},
  authorizationParams?: SignInAuthorizationParams,
): Promise<SignInResponse | undefined> {
  const state = sessionState();
  const at = endpoint();
  const result = await clientSignIn(at, provider, options, authorizationParams);
  if (result?.ok) state.value = await getSession(at);
  return result;
}

/**
 * Signs out: the session cookie is cleared (and a database session deleted), then the browser
 * goes to `redirectTo` (default: the current page), unless `redirect` is `false`.
 *
 * @example
 * ```ts
 * const { signOut } = useSession()
 * await signOut({ redirectTo: "/" })
 * ```
 */
export async function signOut(
  options: ClientSignOutOptions = {},
): Promise<SignOutResponse | undefined> {
  const state = sessionState();
  const result = await clientSignOut(endpoint(), options);
  state.value = null;
  return result;
}

/**
 * The session of the visitor, shared by every component, with `signIn`, `signOut` and
 * `refresh`. On pages rendered on the server it is already read when the component runs.
 *
 * @example
 * ```ts
 * const { data, status, signOut } = useSession()
 * const greeting = computed(() => status.value === "authenticated" ? `Hi ${data.value?.user?.name}` : "Hi")
 * ```
 */
export function useSession(): UseSessionReturn {
  const data = sessionState();
  const status = computed<SessionStatus>(() =>
    data.value === undefined ? "loading" : data.value ? "authenticated" : "unauthenticated",
  );
  return { data, status, refresh: refreshSession, signIn, signOut };
}
