/**
 * Browser-side sign-in and sign-out for SvelteKit pages (`@tessera/sveltekit/client`).
 * **Experimental.** Both POST to the auth endpoints with the CSRF token from `<basePath>/csrf`
 * (double-submit cookie) and ask for the redirect as JSON (`X-Auth-Return-Redirect`).
 *
 * @example
 * ```svelte
 * <script>
 *   import { signIn, signOut } from "@tessera/sveltekit/client"
 * </script>
 * <button onclick={() => signIn("github")}>Sign in with GitHub</button>
 * <button onclick={() => signIn("credentials", { username, password, redirectTo: "/" })}>Sign in</button>
 * <button onclick={() => signOut()}>Sign out</button>
 * ```
 */
import { findProvider } from "@tessera/core/client";

/** Options of the client-side {@link signIn}. Other keys are posted as form fields (credentials). */
export interface ClientSignInOptions {
  /** Where to go after signing in. Default: the current page. */
  redirectTo?: string;
  /** `false` resolves with the outcome instead of navigating. Default `true`. */
  redirect?: boolean;
  /** The server's base path. Default `/auth`. */
  basePath?: string;
  [field: string]: unknown;
}

/** Options of the client-side {@link signOut}. */
export interface ClientSignOutOptions {
  /** Where to go after signing out. Default: the current page. */
  redirectTo?: string;
  /** `false` resolves with the outcome instead of navigating. Default `true`. */
  redirect?: boolean;
  /** The server's base path. Default `/auth`. */
  basePath?: string;
}

/** The outcome of a sign-in or sign-out with `redirect: false`. */
export interface ClientAuthResult {
  /** True when the server accepted the request and named no error. */
  ok: boolean;
  status: number;
  /** Where the server would have sent the browser. */
  url: string | null;
  /** The error type, e.g. `CredentialsSignin`. */
  error: string | null;
  /** The error code of a `CredentialsSignin`, e.g. `credentials`. */
  code: string | null;
}

interface PublicProvider {
  id: string;
  type: string;
}

async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url, { headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`);
  return (await response.json()) as T;
}

async function postForm(url: string, form: URLSearchParams): Promise<ClientAuthResult> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      "X-Auth-Return-Redirect": "1",
    },
    body: form,
  });
  const data = (await response.json().catch(() => null)) as { url?: string } | null;
  const target = data?.url ?? null;
  const params = target ? new URL(target, window.location.href).searchParams : undefined;
  const error = params?.get("error") ?? null;
  return {
    ok: response.ok && !error,
    status: response.status,
    url: target,
    error,
    code: params?.get("code") ?? null,
  };
}

function navigate(url: string): void {
  window.location.href = url;
  // Only the fragment changed: assigning href does not reload, so the session would look stale.
  if (url.includes("#")) window.location.reload();
}

/**
 * Signs in with `provider`. Credentials are checked at once; OAuth providers navigate to the
 * provider. Without a provider (or an unknown one) the browser goes to the sign-in page.
 *
 * @example
 * ```ts
 * const result = await signIn("credentials", { username, password, redirect: false })
 * if (result?.error === "CredentialsSignin") showError("Wrong user name or password")
 * ```
 */
export async function signIn(
  provider?: string,
  options: ClientSignInOptions = {},
  authorizationParams?: Record<string, string>,
): Promise<ClientAuthResult | undefined> {
  const { redirectTo, redirect = true, basePath = "/auth", ...fields } = options;
  const callbackUrl = redirectTo ?? window.location.href;
  const [providers, { csrfToken }] = await Promise.all([
    getJson<Record<string, PublicProvider>>(`${basePath}/providers`),
    getJson<{ csrfToken: string }>(`${basePath}/csrf`),
  ]);
  // Own keys only: "__proto__" or "toString" must not name a provider (prototype key confusion).
  const found = findProvider(providers, provider);
  if (!found) {
    navigate(`${basePath}/signin?${new URLSearchParams({ callbackUrl })}`);
    return undefined;
  }
  const action = found.type === "credentials" ? "callback" : "signin";
  const query = authorizationParams ? `?${new URLSearchParams(authorizationParams)}` : "";
  const form = new URLSearchParams({ csrfToken, callbackUrl });
  for (const [name, value] of Object.entries(fields))
    if (value !== undefined && value !== null) form.set(name, String(value));
  const result = await postForm(
    `${basePath}/${action}/${encodeURIComponent(found.id)}${query}`,
    form,
  );
  if (!redirect) return result;
  navigate(result.url ?? callbackUrl);
  return undefined;
}

/**
 * Signs out (the session cookie is cleared; a database session is deleted).
 *
 * @example
 * ```ts
 * await signOut({ redirectTo: "/" })
 * ```
 */
export async function signOut(
  options: ClientSignOutOptions = {},
): Promise<ClientAuthResult | undefined> {
  const { redirectTo, redirect = true, basePath = "/auth" } = options;
  const callbackUrl = redirectTo ?? window.location.href;
  const { csrfToken } = await getJson<{ csrfToken: string }>(`${basePath}/csrf`);
  const result = await postForm(
    `${basePath}/signout`,
    new URLSearchParams({ csrfToken, callbackUrl }),
  );
  if (!redirect) return result;
  navigate(result.url ?? callbackUrl);
  return undefined;
}
