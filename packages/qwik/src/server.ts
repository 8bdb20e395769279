/**
 * What `QwikAuth$`'s hooks do on the server: answer `<basePath>/*` through `Auth()`, read the
 * session for every other request into `sharedMap` (with the request's action runner), and run the sign-in and sign-out form
 * actions through the core's in-process path (`callAction`). Nothing here runs in the browser.
 */
import type { RequestEventAction, RequestEventCommon } from "@builder.io/qwik-city";
import {
  type ActionRunner,
  Auth,
  actionRunner,
  callAction,
  passkeysApi,
  type ResponseInternal,
  readSession as readSessionInProcess,
  type Session,
  servesAction,
  signInActionFor,
} from "@tessera/core";
import { actionUrl, type PreparedConfig } from "./config.js";
import { setCookies } from "./cookies.js";
import { crossSiteRefusal } from "./origin.js";
import { SERVER_FUNCTIONS_KEY, type ServerFunctions } from "./server-functions.js";

/** The key under which the session of the request is in `event.sharedMap`, as @auth/qwik has it. */
export const SESSION_KEY = "session";

/** The fields of the sign-in action (the form's, after Qwik's validation). */
export interface SignInFields {
  providerId?: string | undefined;
  redirectTo?: string | undefined;
  options?: ({ redirectTo?: string | undefined } & Record<string, unknown>) | undefined;
  authorizationParams?: string | URLSearchParams | Record<string, string> | undefined;
}

/** The fields of the sign-out action. */
export interface SignOutFields {
  redirectTo?: string | undefined;
}

/** The client's address as Qwik's adapter reports it, when it knows one. */
function clientIpOf(event: RequestEventCommon): string | undefined {
  try {
    return event.clientConn.ip || undefined;
  } catch {
    return undefined;
  }
}

/**
 * The action a `<basePath>/<action>/…` path names (a core action or an extension's row of the
 * config's action table), or undefined for any other path.
 */
function authActionOf(pathname: string, prepared: PreparedConfig): string | undefined {
  const { basePath } = prepared;
  const prefix = `${basePath}/`;
  if (!pathname.startsWith(prefix)) return undefined;
  const end = pathname.indexOf("/", prefix.length);
  const action = pathname.slice(prefix.length, end === -1 ? undefined : end);
  return servesAction(prepared.config, action) ? action : undefined;
}

/**
 * The session of the request (`null` when signed out), read in-process; a re-issued session cookie
 * (rolling expiry) goes on the response.
 */
export async function readSession(
  event: RequestEventCommon,
  prepared: PreparedConfig,
): Promise<Session | null> {
  const { session, cookies } = await readSessionInProcess(prepared.config, {
    url: actionUrl(event, prepared, "session"),
    cookies: event.request.headers.get("cookie") ?? "",
  });
  setCookies(event.cookie, cookies);
  return session;
}

/**
 * The plugin's `onRequest`: answers `<basePath>/<action>` with the core's response (its cookies
 * included), else puts the session into `sharedMap` for route guards and `useSession`.
 */
export async function handleRequest(
  event: RequestEventCommon,
  prepared: PreparedConfig,
): Promise<void> {
  if (authActionOf(event.url.pathname, prepared) !== undefined) {
    const clientIp = clientIpOf(event);
    const response = await Auth(event.request, prepared.config, clientIp ? { clientIp } : {});
    // Qwik's `send(Response)` keeps each Set-Cookie line whole (it files it under its name).
    throw event.send(response);
  }
  event.sharedMap.set(SESSION_KEY, await readSession(event, prepared));
  const run = runnerFor(event, prepared);
  const functions: ServerFunctions = { run, passkeys: passkeysApi(run) };
  event.sharedMap.set(SERVER_FUNCTIONS_KEY, functions);
}

/**
 * Runs actions in-process for `event`'s request, each answer's cookies set on `event.cookie`:
 * what the server functions (`passkeys(event)`, an extension's API) take.
 */
function runnerFor(event: RequestEventCommon, prepared: PreparedConfig): ActionRunner {
  const clientIp = clientIpOf(event);
  const incoming = { url: actionUrl(event, prepared, "session"), headers: event.request.headers };
  return actionRunner(incoming, prepared.config, {
    ...(clientIp && { clientIp }),
    onCookies: (cookies) => setCookies(event.cookie, cookies),
  });
}

/** Where the user lands when the form names no `redirectTo`: the page the form was on. */
function currentPage(event: RequestEventCommon): string {
  const url = new URL(event.url);
  url.searchParams.delete("qaction");
  return url.href;
}

/** Whether the action was submitted by Qwik's client (JavaScript), which posts to `…/q-data.json`. */
function isClientSubmission(event: RequestEventCommon): boolean {
  try {
    return new URL(event.request.url).pathname.endsWith("/q-data.json");
  } catch {
    return false;
  }
}

/**
 * Ends the action by sending the browser to `url`, with and without JavaScript. A form posted
 * without JavaScript gets a 303, so the browser follows with a GET. A same-origin target goes as a
 * path: Qwik's client turns a path redirect of its data request into a navigation. Qwik's client
 * cannot follow a redirect to another origin (an OAuth provider) through its data request, so
 * there the answer names the target in the page data Qwik's client reads (`redirect`), and the
 * client navigates.
 */
function redirectTo(event: RequestEventAction, url: string): void {
  const target = new URL(url, event.url);
  if (target.origin === event.url.origin)
    throw event.redirect(303, `${target.pathname}${target.search}${target.hash}`);
  if (!isClientSubmission(event)) throw event.redirect(303, target.href);
  // The action then ends normally: Qwik writes the page data, `redirect` read from this header.
  event.headers.set("Location", target.href);
}

/**
 * Where the core sent the user, or a 500 when it answered without a redirect (a configuration
 * error, whose cause the server log names). Open redirect: never the form's own `redirectTo`,
 * which only the core's `redirect` callback may turn into a target.
 */
function destination(event: RequestEventAction, internal: ResponseInternal): string {
  if (internal.redirect !== undefined) return internal.redirect;
  throw event.error(
    internal.status === 400 ? 400 : 500,
    "The auth action could not run (a configuration error or a malformed request); the server log names the cause.",
  );
}

/** Refuses a cross-site post with 403 (see {@link crossSiteRefusal}). */
function refuseCrossSite(event: RequestEventAction): void {
  const refusal = crossSiteRefusal(event);
  if (refusal !== undefined) throw event.error(403, refusal);
}

function authorizationQuery(
  params: SignInFields["authorizationParams"],
): URLSearchParams | undefined {
  if (params === undefined) return undefined;
  const query = new URLSearchParams(params);
  return query.size > 0 ? query : undefined;
}

/**
 * The sign-in action: credentials are checked at once, OAuth and e-mail providers send the user to
 * the provider or to the "check your e-mail" page, every outcome is a real 303 redirect (a refused
 * password to the sign-in page with `?error=CredentialsSignin&code=…`, as Auth.js's forms do).
 * Without a known provider, the user is sent to the sign-in page.
 */
export async function signIn(
  fields: SignInFields,
  event: RequestEventAction,
  prepared: PreparedConfig,
): Promise<void> {
  refuseCrossSite(event);
  const { providerId, options = {}, authorizationParams } = fields;
  const { redirectTo: optionsRedirectTo, ...providerFields } = options;
  const callbackUrl = optionsRedirectTo ?? fields.redirectTo ?? currentPage(event);
  const signInPage = actionUrl(event, prepared, "signin");
  const action = providerId
    ? signInActionFor(prepared.config, providerId, new URL(signInPage).origin)
    : undefined;
  if (!providerId || !action)
    return redirectTo(event, `${signInPage}?${new URLSearchParams({ callbackUrl })}`);

  const form = new URLSearchParams({ callbackUrl });
  for (const [name, value] of Object.entries(providerFields))
    if (value !== undefined && value !== null) form.set(name, String(value));
  const query = authorizationQuery(authorizationParams);
  const clientIp = clientIpOf(event);
  const internal = await callAction(prepared.config, {
    action,
    providerId,
    body: form,
    ...(query && { query }),
    url: actionUrl(event, prepared, action),
    headers: event.request.headers,
    ...(clientIp && { clientIp }),
  });
  setCookies(event.cookie, internal.cookies);
  redirectTo(event, destination(event, internal));
}

/** The sign-out action: the session cookie is cleared, a database session deleted, 303 onwards. */
export async function signOut(
  fields: SignOutFields,
  event: RequestEventAction,
  prepared: PreparedConfig,
): Promise<void> {
  refuseCrossSite(event);
  const callbackUrl = fields.redirectTo ?? currentPage(event);
  const internal = await callAction(prepared.config, {
    action: "signout",
    body: new URLSearchParams({ callbackUrl }),
    url: actionUrl(event, prepared, "signout"),
    headers: event.request.headers,
  });
  setCookies(event.cookie, internal.cookies);
  event.sharedMap.set(SESSION_KEY, null);
  redirectTo(event, destination(event, internal));
}
