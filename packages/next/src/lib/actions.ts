/**
 * The server actions `signIn`, `signOut` and `unstable_update`. Each runs the action the browser
 * would post to the route handlers through the core in-process (`callAction`), copies the
 * resulting cookies into Next.js's `cookies()` and redirects (or returns the URL).
 *
 * They run without a CSRF token: Next.js only runs a server action for a same-origin POST (it
 * compares `Origin` with `Host`), which is the protection the double-submit token gives the
 * route handlers.
 */
import {
  type ActionCall,
  callAction,
  type ResponseInternal,
  type Session,
  signInActionFor,
} from "@tessera/core";
import { AuthError } from "@tessera/core/errors";
import { headers as nextHeaders } from "next/headers";
import { redirect as nextRedirect } from "next/navigation";
import type {
  SignInAuthorizationParams,
  SignInOptions,
  SignOutOptions,
  SignOutResult,
} from "../types.js";
import type { ConfigVariants } from "./config.js";
import { writeCookies } from "./cookies.js";
import { actionUrl } from "./session.js";

/** The incoming headers (cookies, host, forwarding, user agent) the in-process call acts with. */
async function incomingHeaders(): Promise<Headers> {
  return new Headers(await nextHeaders());
}

/** Form fields of the sign-in options: strings only, without Next.js's own `$ACTION_` fields. */
function formFields(options: SignInOptions | undefined): Record<string, unknown> {
  if (!(options instanceof FormData)) return { ...(options ?? {}) };
  const fields: Record<string, unknown> = {};
  for (const [name, value] of options) {
    if (typeof value === "string" && !name.startsWith("$ACTION")) fields[name] = value;
  }
  return fields;
}

function stringFields(fields: Record<string, unknown>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined || value === null) continue;
    result[name] = typeof value === "string" ? value : String(value);
  }
  return result;
}

function refuseErrorResponse(result: ResponseInternal, action: string): void {
  if (result.redirect === undefined && (result.status ?? 200) >= 400)
    throw new AuthError(
      `The ${action} action failed with status ${result.status}: the server log names the configuration problem.`,
    );
}

async function runAction(
  headers: Headers,
  variants: ConfigVariants,
  call: ActionCall,
): Promise<ResponseInternal> {
  const url = actionUrl(call.action, headers, variants);
  const result = await callAction(variants.action, { ...call, url, headers });
  await writeCookies(result.cookies ?? []);
  return result;
}

function finish(url: string, shouldRedirect: boolean): string {
  if (shouldRedirect) nextRedirect(url);
  return url;
}

/**
 * Server action: signs in with `provider`. Without a provider (or with an unknown one) the user
 * goes to the sign-in page. Credentials are posted to the provider's callback, every other
 * provider to its sign-in action (OAuth: the authorization redirect; e-mail: the link is sent).
 *
 * @example
 * ```ts
 * async function login(formData: FormData) {
 *   "use server"
 *   await signIn("credentials", formData) // redirects to `redirectTo` (a form field) or back
 * }
 * ```
 */
export async function signInAction(
  variants: ConfigVariants,
  provider: string | undefined,
  options: SignInOptions | undefined,
  authorizationParams: SignInAuthorizationParams | undefined,
): Promise<string> {
  const headers = await incomingHeaders();
  const { redirect, redirectTo, ...fields } = formFields(options);
  const shouldRedirect = redirect !== false && redirect !== "false";
  const callbackUrl =
    (typeof redirectTo === "string" && redirectTo) || headers.get("referer") || "/";
  const signInPage = actionUrl("signin", headers, variants);
  signInPage.searchParams.set("callbackUrl", callbackUrl);
  if (!provider) return finish(signInPage.href, shouldRedirect);

  const action = signInActionFor(variants.action, provider, signInPage.origin);
  if (!action) return finish(signInPage.href, shouldRedirect);

  const result = await runAction(headers, variants, {
    action,
    providerId: provider,
    body: new URLSearchParams({ ...stringFields(fields), callbackUrl }),
    ...(authorizationParams !== undefined && {
      query: new URLSearchParams(authorizationParams),
    }),
  });
  refuseErrorResponse(result, "signIn");
  return finish(result.redirect ?? callbackUrl, shouldRedirect);
}

/**
 * Server action: ends the session (clears the cookie; deletes a database session).
 *
 * @example
 * ```ts
 * async function logout() {
 *   "use server"
 *   await signOut({ redirectTo: "/" })
 * }
 * ```
 */
export async function signOutAction(
  variants: ConfigVariants,
  options: SignOutOptions | undefined,
): Promise<SignOutResult> {
  const headers = await incomingHeaders();
  const callbackUrl = options?.redirectTo || headers.get("referer") || "/";
  const result = await runAction(headers, variants, {
    action: "signout",
    body: new URLSearchParams({ callbackUrl }),
  });
  refuseErrorResponse(result, "signOut");
  const url = finish(result.redirect ?? callbackUrl, options?.redirect !== false);
  // next-auth answers `redirect: false` with the core's response data: `{ redirect, cookies }`.
  return { redirect: url, cookies: result.cookies ?? [] };
}

/**
 * Server action: updates the session. The `jwt` callback gets `trigger: "update"` and `session:
 * data` (validate it: it may come from user input); returns the new session.
 *
 * @example
 * ```ts
 * await unstable_update({ user: { name: "New name" } })
 * ```
 */
export async function updateAction(
  variants: ConfigVariants,
  data: unknown,
): Promise<Session | null> {
  const headers = await incomingHeaders();
  const result = await runAction(headers, variants, { action: "session", body: { data } });
  if ((result.status ?? 200) !== 200) return null;
  return (result.body as Session | null) ?? null;
}
