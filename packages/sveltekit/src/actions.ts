/**
 * Server-side sign-in and sign-out for form actions: the form is run through the core in-process
 * (`callAction`) as the built-in pages would post it, cookies are set on `event.cookies`, and the
 * user is redirected.
 * Errors (e.g. `CredentialsSignin`) are thrown to the caller instead of redirecting, so the
 * action can answer with `fail()`.
 */
import { type RequestEvent, redirect } from "@sveltejs/kit";
import { type ActionCall, callAction } from "@tessera/core";
import { actionUrl, type PreparedConfig } from "./config.js";
import { setCookies } from "./cookies.js";

/** Options of a server-side sign-in: where to go afterwards, plus the provider's form fields. */
export interface SignInOptions {
  /** Where the user lands after signing in. Default: the page the form was on (`Referer`). */
  redirectTo?: string;
  /** `false` returns the URL instead of redirecting. Default `true`. */
  redirect?: boolean;
  /** Credentials fields, or `email` for the e-mail provider. */
  [field: string]: unknown;
}

/** Options of a server-side sign-out. */
export interface SignOutOptions {
  /** Where the user lands after signing out. Default: the page the form was on (`Referer`). */
  redirectTo?: string;
  /** `false` returns the URL instead of redirecting. Default `true`. */
  redirect?: boolean;
}

/** Runs `call` with the event's headers and sets the cookies it answers on `event.cookies`. */
async function runAction(event: RequestEvent, prepared: PreparedConfig, call: ActionCall) {
  const url = actionUrl(event.url, prepared, call.action);
  const internal = await callAction(prepared.raw, {
    ...call,
    url,
    headers: event.request.headers,
  });
  setCookies(event.cookies, internal.cookies);
  return internal;
}

function finish(url: string, shouldRedirect: boolean): string {
  // 303: the browser follows a form post with a GET.
  if (shouldRedirect) redirect(303, url);
  return url;
}

function callbackUrlFor(event: RequestEvent, redirectTo: string | undefined): string {
  return redirectTo ?? event.request.headers.get("referer") ?? "/";
}

/**
 * Signs in with `provider`: credentials are checked at once; OAuth and e-mail providers redirect
 * to the provider or the "check your e-mail" page. Without a known provider, the user is sent to
 * the sign-in page.
 */
export async function signInWith(
  event: RequestEvent,
  prepared: PreparedConfig,
  provider: string | undefined,
  options: SignInOptions = {},
  authorizationParams?: Record<string, string>,
): Promise<string> {
  const { redirect: shouldRedirect = true, redirectTo, ...fields } = options;
  const callbackUrl = callbackUrlFor(event, redirectTo);
  const type = provider ? prepared.providerTypes.get(provider) : undefined;
  if (!provider || !type) {
    const signInPage = `${actionUrl(event.url, prepared, "signin")}?${new URLSearchParams({ callbackUrl })}`;
    return finish(signInPage, shouldRedirect);
  }

  const form = new URLSearchParams({ callbackUrl });
  for (const [name, value] of Object.entries(fields))
    if (value !== undefined && value !== null) form.set(name, String(value));
  const internal = await runAction(event, prepared, {
    action: type === "credentials" ? "callback" : "signin",
    providerId: provider,
    body: form,
    ...(authorizationParams && { query: new URLSearchParams(authorizationParams) }),
  });
  return finish(internal.redirect ?? callbackUrl, shouldRedirect);
}

/** Signs out: the session cookie is cleared and a database session deleted. */
export async function signOutWith(
  event: RequestEvent,
  prepared: PreparedConfig,
  options: SignOutOptions = {},
): Promise<string> {
  const { redirect: shouldRedirect = true, redirectTo } = options;
  const callbackUrl = callbackUrlFor(event, redirectTo);
  const internal = await runAction(event, prepared, {
    action: "signout",
    body: new URLSearchParams({ callbackUrl }),
  });
  return finish(internal.redirect ?? callbackUrl, shouldRedirect);
}
