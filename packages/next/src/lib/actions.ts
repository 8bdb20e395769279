/**
 * The server actions `signIn`, `signOut` and `unstable_update`. Each builds the POST the browser
 * would send to the route handlers, runs it through the core in-process, copies the resulting
 * cookies into Next.js's `cookies()` and redirects (or returns the URL).
 *
 * They run without a CSRF token: Next.js only runs a server action for a same-origin POST (it
 * compares `Origin` with `Host`), which is the protection the double-submit token gives the
 * route handlers.
 */
import { Auth, type ResponseInternal, type Session } from "@tessera/core";
import { findProvider } from "@tessera/core/client";
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

/** Headers describing the action's own body; the request we build has another body. */
const BODY_HEADERS = ["content-length", "content-type", "transfer-encoding", "content-encoding"];

/** The incoming headers (cookies, host, forwarding, user agent) for an in-process request. */
async function incomingHeaders(): Promise<Headers> {
  const headers = new Headers(await nextHeaders());
  for (const name of BODY_HEADERS) headers.delete(name);
  return headers;
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

async function runAction(request: Request, variants: ConfigVariants): Promise<ResponseInternal> {
  const result = await Auth(request, variants.action);
  await writeCookies(result.cookies ?? []);
  return result;
}

function finish(url: string, shouldRedirect: boolean): string {
  if (shouldRedirect) nextRedirect(url);
  return url;
}

/** The providers by id, as `GET /providers` describes them. */
async function providerList(
  headers: Headers,
  variants: ConfigVariants,
): Promise<Record<string, { id: string; type: string; signinUrl: string; callbackUrl: string }>> {
  const url = actionUrl("providers", headers, variants);
  const result = await Auth(new Request(url, { headers }), variants.data);
  refuseErrorResponse(result, "signIn");
  return (result.body ?? {}) as Record<
    string,
    { id: string; type: string; signinUrl: string; callbackUrl: string }
  >;
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

  const providers = await providerList(headers, variants);
  // Prototype key confusion: ids like "__proto__" must not match inherited properties.
  const target = findProvider(providers, provider);
  if (!target) return finish(signInPage.href, shouldRedirect);

  const endpoint = new URL(target.type === "credentials" ? target.callbackUrl : target.signinUrl);
  if (authorizationParams !== undefined)
    for (const [name, value] of new URLSearchParams(authorizationParams))
      endpoint.searchParams.append(name, value);
  headers.set("Content-Type", "application/x-www-form-urlencoded");
  const body = new URLSearchParams({ ...stringFields(fields), callbackUrl });
  const result = await runAction(
    new Request(endpoint, { method: "POST", headers, body }),
    variants,
  );
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
  headers.set("Content-Type", "application/x-www-form-urlencoded");
  const result = await runAction(
    new Request(actionUrl("signout", headers, variants), {
      method: "POST",
      headers,
      body: new URLSearchParams({ callbackUrl }),
    }),
    variants,
  );
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
  headers.set("Content-Type", "application/json");
  const result = await runAction(
    new Request(actionUrl("session", headers, variants), {
      method: "POST",
      headers,
      body: JSON.stringify({ data }),
    }),
    variants,
  );
  if ((result.status ?? 200) !== 200) return null;
  return (result.body as Session | null) ?? null;
}
