/**
 * Passkey management in the browser: list, rename and delete the signed-in user's passkeys
 * through `<basePath>/passkeys`, then tell the browser's authenticator through the WebAuthn
 * Signal API (Chrome 132+), feature-detected: where a browser lacks it nothing is called.
 */
import type { ListedPasskey, PasskeySignals } from "../webauthn/passkeys.js";
import { type AuthEndpoint, authActionUrl } from "./endpoint.js";
import { postAuthForm } from "./fetch.js";
import { getCsrfToken } from "./session.js";
import { creationOptionsFromJSON, credentialToJSON } from "./webauthn-codec.js";

/** The signed-in user's passkeys, as `<basePath>/passkeys` answers them. */
export interface ClientPasskeyList {
  passkeys: ListedPasskey[];
  signals: PasskeySignals;
  deleted?: { id: string; userHandle: string | null };
}

/** The Signal API methods (WebAuthn Level 3 §5.1.10), absent from older DOM typings. */
interface SignalApi {
  signalUnknownCredential?(options: { rpId: string; credentialId: string }): Promise<void>;
  signalAllAcceptedCredentials?(options: {
    rpId: string;
    userId: string;
    allAcceptedCredentialIds: string[];
  }): Promise<void>;
  signalCurrentUserDetails?(options: {
    rpId: string;
    userId: string;
    name: string;
    displayName: string;
  }): Promise<void>;
}

function signalApi(): SignalApi | null {
  const api = (globalThis as { PublicKeyCredential?: unknown }).PublicKeyCredential;
  return typeof api === "function" ? (api as SignalApi) : null;
}

/** Runs one signal; a refusal (no such credential, unsupported) changes nothing for the app. */
async function quietly(call: (() => Promise<void>) | null): Promise<void> {
  if (!call) return;
  try {
    await call();
  } catch (error) {
    console.warn("[tessera] passkey signal refused:", error);
  }
}

/**
 * Tells the browser which passkeys the server accepts for each of the user's handles
 * (`signalAllAcceptedCredentials`) and, with `details`, the user's current name
 * (`signalCurrentUserDetails`), so the authenticator hides deleted passkeys and shows the right
 * account. Feature-detected: resolves without a call where the browser lacks the Signal API.
 *
 * @example
 * ```ts
 * const list = await listPasskeys(endpoint)
 * if (list) await signalPasskeys(list.signals, { details: true })
 * ```
 */
export async function signalPasskeys(
  signals: PasskeySignals,
  options: { details?: boolean; extraHandles?: readonly string[] } = {},
): Promise<void> {
  const api = signalApi();
  if (!api) return;
  const { rpId, allAcceptedCredentialIds, name, displayName } = signals;
  const handles = new Set([...signals.userHandles, ...(options.extraHandles ?? [])]);
  for (const userId of handles) {
    const accepted = api.signalAllAcceptedCredentials;
    await quietly(
      accepted ? () => accepted.call(api, { rpId, userId, allAcceptedCredentialIds }) : null,
    );
    const details = api.signalCurrentUserDetails;
    if (options.details)
      await quietly(details ? () => details.call(api, { rpId, userId, name, displayName }) : null);
  }
}

async function passkeysRequest(
  endpoint: AuthEndpoint,
  operation: "rename" | "delete" | null,
  body: Record<string, string>,
): Promise<ClientPasskeyList | null> {
  const path = operation ? `passkeys/${operation}` : "passkeys";
  const init: RequestInit = { credentials: "same-origin", headers: { Accept: "application/json" } };
  if (operation) {
    init.method = "POST";
    init.headers = { Accept: "application/json", "Content-Type": "application/json" };
    init.body = JSON.stringify({ ...body, csrfToken: await getCsrfToken(endpoint) });
  }
  const response = await fetch(authActionUrl(endpoint, path), init);
  if (response.status === 401 || (operation && response.status === 404)) return null;
  if (!response.ok) {
    const answer = (await response.json().catch(() => null)) as { message?: string } | null;
    throw new Error(`${path} answered ${response.status}: ${answer?.message ?? ""}`);
  }
  return (await response.json()) as ClientPasskeyList;
}

/**
 * The signed-in user's passkeys (`{ passkeys, signals }`), or null when signed out. Throws when
 * the server cannot manage passkeys (no adapter support: 404).
 *
 * @example
 * ```ts
 * const list = await listPasskeys({ baseUrl: "", basePath: "/auth" })
 * list?.passkeys.map((p) => `${p.name ?? "Passkey"} · ${p.backedUp ? "synced" : "this device"}`)
 * ```
 */
export function listPasskeys(endpoint: AuthEndpoint): Promise<ClientPasskeyList | null> {
  return passkeysRequest(endpoint, null, {});
}

/**
 * Names passkey `id` (at most 64 characters), then signals the user's current details to the
 * authenticator. Null when signed out or the user has no such passkey.
 *
 * @example
 * ```ts
 * await renamePasskey(endpoint, passkey.id, "Work laptop")
 * ```
 */
export async function renamePasskey(
  endpoint: AuthEndpoint,
  id: string,
  name: string,
): Promise<ClientPasskeyList | null> {
  const list = await passkeysRequest(endpoint, "rename", { id, name });
  if (list) await signalPasskeys(list.signals, { details: true });
  return list;
}

/**
 * Deletes passkey `id`, then tells the authenticator which passkeys remain
 * (`signalAllAcceptedCredentials` under the deleted passkey's handle, so it hides that one).
 * Null when signed out or the user has no such passkey.
 *
 * @example
 * ```ts
 * const left = await deletePasskey(endpoint, passkey.id)
 * ```
 */
export async function deletePasskey(
  endpoint: AuthEndpoint,
  id: string,
): Promise<ClientPasskeyList | null> {
  const list = await passkeysRequest(endpoint, "delete", { id });
  const handle = list?.deleted?.userHandle;
  if (list) await signalPasskeys(list.signals, handle ? { extraHandles: [handle] } : {});
  return list;
}

/** Options of {@link createPasskeyConditionally}. */
export interface ConditionalCreateOptions {
  /** The WebAuthn provider's id (default `"passkey"`). */
  providerId?: string;
  /** How long the browser may take to grant the request before it is given up (default 4 s). */
  timeoutMs?: number;
}

/**
 * Right after a password or e-mail sign-in on a custom page: asks the browser to create a passkey
 * for the signed-in user without a prompt (`mediation: "conditional"`), and stores it. Resolves
 * `true` when a passkey was stored; `false` when the browser lacks conditional create, did not
 * grant it in time, or the server refused (nothing is shown to the user in any case).
 *
 * @example
 * ```ts
 * const result = await signIn(endpoint, "credentials", { email, password, redirect: false })
 * if (result?.ok) await createPasskeyConditionally(endpoint)
 * ```
 */
export async function createPasskeyConditionally(
  endpoint: AuthEndpoint,
  options: ConditionalCreateOptions = {},
): Promise<boolean> {
  const api = (globalThis as { PublicKeyCredential?: unknown }).PublicKeyCredential as
    | { getClientCapabilities?(): Promise<Record<string, boolean>> }
    | undefined;
  const capabilities = await api
    ?.getClientCapabilities?.()
    .catch(() => ({}) as Record<string, boolean>);
  if (capabilities?.conditionalCreate !== true) return false;
  const providerId = encodeURIComponent(options.providerId ?? "passkey");
  const answer = await fetch(
    `${authActionUrl(endpoint, `webauthn-options/${providerId}`)}?action=register`,
    { credentials: "same-origin", headers: { Accept: "application/json" } },
  );
  if (!answer.ok) return false;
  const ceremony = (await answer.json()) as { action?: string; options?: Record<string, unknown> };
  if (ceremony.action !== "register" || !ceremony.options) return false;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? 4_000);
  let credential: Credential | null = null;
  try {
    credential = await navigator.credentials.create({
      mediation: "conditional",
      publicKey: creationOptionsFromJSON(ceremony.options),
      signal: controller.signal,
    } as CredentialCreationOptions);
  } catch {
    // Not granted (no recent password autofill, aborted): the ordinary outcome, not an error.
  } finally {
    clearTimeout(timer);
  }
  if (!(credential instanceof PublicKeyCredential)) return false;
  const form = new URLSearchParams({
    action: "register",
    data: JSON.stringify(credentialToJSON(credential)),
    csrfToken: await getCsrfToken(endpoint),
  });
  const { response, url } = await postAuthForm(
    authActionUrl(endpoint, `callback/${providerId}`),
    form,
  );
  return response.ok && url !== null && !new URL(url, location.href).searchParams.has("error");
}
