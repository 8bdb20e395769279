/**
 * Client-side sign-in: pick the provider, post to it with a CSRF token, then follow the redirect
 * or report the outcome.
 */

import { type AuthEndpoint, authActionUrl } from "./endpoint.js";
import { postAuthForm } from "./fetch.js";
import { navigate } from "./navigate.js";
import { findProvider } from "./provider.js";
import { getCsrfToken, getProviders } from "./session.js";
import type { WebAuthnCeremony } from "./webauthn.js";

/** Options of {@link signIn}; other keys are posted as form fields (credentials, `email`, …). */
export interface SignInOptions extends Record<string, unknown> {
  /** Where to go after signing in. Default: the current page. */
  redirectTo?: string;
  /** @deprecated use `redirectTo` */
  callbackUrl?: string;
  /**
   * `false` stays on the page and resolves with the outcome. Default `true`. OAuth and OIDC
   * providers always navigate: their sign-in happens on the provider's site.
   */
  redirect?: boolean;
}

/** The outcome of `signIn(…, { redirect: false })`. */
export interface SignInResponse {
  /** The error type (e.g. `CredentialsSignin`), when sign-in failed. */
  error: string | undefined;
  /** The `code` of a `CredentialsSignin` error. */
  code: string | undefined;
  status: number;
  /** True when the server accepted the request and named no error. */
  ok: boolean;
  /** Where the user would have been sent; `null` on error. */
  url: string | null;
}

/** Extra query parameters for the provider's authorization request (as `URLSearchParams` takes). */
export type SignInAuthorizationParams =
  | string
  | string[][]
  | Record<string, string>
  | URLSearchParams;

/** Capabilities a client adds to {@link signIn}. */
export interface SignInExtensions {
  /** Runs passkey ceremonies, for providers of type `webauthn` (see `webauthnCeremony`). */
  webauthn?: WebAuthnCeremony;
}

/** Provider types whose sign-in completes without leaving the page. */
const STAYS_ON_PAGE = new Set(["credentials", "email", "webauthn"]);

function formFields(fields: Record<string, unknown>): Record<string, string> {
  const form: Record<string, string> = {};
  for (const [name, value] of Object.entries(fields))
    if (value !== undefined && value !== null) form[name] = String(value);
  return form;
}

/** The query of the URL the server answered; none when it named no (readable) URL. */
function searchParamsOf(url: string | null): URLSearchParams | undefined {
  if (url === null) return undefined;
  try {
    return new URL(url, window.location.href).searchParams;
  } catch {
    return undefined;
  }
}

/**
 * Signs in with `provider` at `endpoint`. Without a provider, or with one the server does not
 * list, the browser goes to the sign-in page; when the server cannot be reached, to the error
 * page. Credentials, e-mail and (with `extensions.webauthn`) passkey sign-ins resolve with a
 * {@link SignInResponse} when `redirect` is `false`; otherwise the browser follows the redirect.
 *
 * @example
 * ```ts
 * const endpoint = { baseUrl: "", basePath: "/api/auth" }
 * const result = await signIn(endpoint, "credentials", { email, password, redirect: false })
 * if (result?.error) showError(result.code)
 * ```
 */
export async function signIn(
  endpoint: AuthEndpoint,
  provider?: string,
  options: SignInOptions = {},
  authorizationParams?: SignInAuthorizationParams,
  extensions: SignInExtensions = {},
): Promise<SignInResponse | undefined> {
  const { redirect = true, redirectTo, callbackUrl, ...rest } = options;
  const target = redirectTo ?? callbackUrl ?? window.location.href;
  const providers = await getProviders(endpoint);
  if (!providers) {
    navigate(authActionUrl(endpoint, "error"));
    return undefined;
  }
  // Own keys only: "__proto__" or "toString" must not name a provider (prototype key confusion).
  const found = findProvider(providers, provider);
  const ceremony = found?.type === "webauthn" ? extensions.webauthn : undefined;
  if (!provider || !found || (found.type === "webauthn" && !ceremony)) {
    navigate(
      `${authActionUrl(endpoint, "signin")}?${new URLSearchParams({ callbackUrl: target })}`,
    );
    return undefined;
  }

  const fields = formFields(rest);
  if (ceremony) {
    const passkey = await ceremony(endpoint, provider, fields);
    if (!passkey) return undefined;
    fields.action = passkey.action;
    fields.data = passkey.data;
  }
  const completesHere = found.type === "credentials" || found.type === "webauthn";
  const action = `${completesHere ? "callback" : "signin"}/${encodeURIComponent(provider)}`;
  const query = authorizationParams ? `?${new URLSearchParams(authorizationParams)}` : "";
  const form = new URLSearchParams(fields);
  form.set("csrfToken", await getCsrfToken(endpoint));
  form.set("callbackUrl", target);
  const { response, url } = await postAuthForm(authActionUrl(endpoint, action) + query, form);

  if (redirect || !STAYS_ON_PAGE.has(found.type)) {
    navigate(url ?? target);
    return undefined;
  }
  const params = searchParamsOf(url);
  const error = params?.get("error") ?? undefined;
  return {
    error,
    code: params?.get("code") ?? undefined,
    status: response.status,
    ok: response.ok && params !== undefined && !error,
    url: error ? null : url,
  };
}
