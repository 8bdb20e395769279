/**
 * Passkey management for server code: list, rename and delete the signed-in user's passkeys by
 * running the `passkeys` action in-process through an {@link ActionRunner}, as every other server
 * function does.
 * No CSRF token is asked for: the caller's route answers for CSRF itself.
 */
import { AuthError, PasskeyDeletionRefused } from "../errors.js";
import type { ResponseInternal } from "../types.js";
import type { RequestSource } from "./config/internal.js";
import {
  type ActionCall,
  type ActionRunner,
  actionRunner,
  type IncomingRequestParts,
  runInProcess,
} from "./in-process.js";
import type { ConfigOrFactory } from "./pipeline.js";
import type { ListedPasskey, PasskeySignals } from "./webauthn/passkeys.js";

/** The signed-in user's passkeys, with what the browser needs for its Signal API calls. */
export interface PasskeyList {
  passkeys: ListedPasskey[];
  signals: PasskeySignals;
  /** After a deletion: the deleted passkey's id and user handle. */
  deleted?: { id: string; userHandle: string | null };
}

/** What server code asks of the passkeys action. */
export type PasskeyOperation =
  | { kind: "list" }
  | { kind: "rename"; id: string; name: string }
  | { kind: "delete"; id: string };

function passkeysCall(operation: PasskeyOperation): ActionCall {
  if (operation.kind === "list") return { action: "passkeys" };
  const body =
    operation.kind === "rename" ? { id: operation.id, name: operation.name } : { id: operation.id };
  return { action: "passkeys", subPath: operation.kind, body };
}

/**
 * The answer of the passkeys action to `operation`, as server code gets it: the passkeys after
 * it, null when signed out or (rename, delete) when the user has no passkey with that id.
 */
function passkeyResult(
  operation: PasskeyOperation,
  internal: ResponseInternal,
): PasskeyList | null {
  const status = internal.status ?? 200;
  const body = internal.body as { message?: unknown; error?: unknown; url?: unknown } | undefined;
  const message = body?.message;
  if (status === 401) return null;
  if (body?.error === "StepUpRequired" && typeof body.url === "string")
    throw new PasskeyDeletionRefused(
      `Deleting a passkey needs a sign-in within the last ten minutes: send the user to ${body.url} (it re-authenticates and comes back to the account page), then delete it.`,
      "StepUpRequired",
      body.url,
    );
  if (body?.error === "LastSignInMethod")
    throw new PasskeyDeletionRefused(
      "This passkey is the user's only way to sign in: they must add another sign-in method (a provider, another passkey, a password) before deleting it.",
      "LastSignInMethod",
    );
  // IDOR: another user's id answers exactly as an unknown one, so ids cannot be probed.
  if (
    status === 404 &&
    operation.kind !== "list" &&
    message === "You have no passkey with this id."
  )
    return null;
  if (status !== 200)
    throw new AuthError(
      `The passkeys action answered ${status}${typeof message === "string" ? ` (${message})` : ""}: managing passkeys needs a WebAuthn provider and an adapter with listPasskeysByUserId, updatePasskey and deletePasskey; the server log names any other cause.`,
    );
  return internal.body as PasskeyList;
}

/**
 * Runs `operation` for the client of `source`: the user's passkeys after it, or null when signed
 * out or (rename, delete) when the user has no passkey with that id. Throws
 * `PasskeyDeletionRefused` when a deletion needs step-up or would remove the last way in, and an `AuthError` when
 * the configuration cannot manage passkeys, the input is malformed, or the adapter failed.
 *
 * @example
 * ```ts
 * const list = await runPasskeyOperation(fetchSource(request), config, { kind: "list" })
 * ```
 */
export async function runPasskeyOperation(
  source: RequestSource,
  config: ConfigOrFactory,
  operation: PasskeyOperation,
): Promise<PasskeyList | null> {
  return passkeyResult(operation, await runInProcess(source, config, passkeysCall(operation)));
}

/** Passkey management for server code, bound to one request's {@link ActionRunner}. */
export interface PasskeysApi {
  /** The signed-in user's passkeys (`{ passkeys, signals }`), or null when signed out. */
  list(): Promise<PasskeyList | null>;
  /**
   * Names the passkey `id` (at most 64 characters; empty clears the name). Null when signed out
   * or the user has no such passkey.
   */
  rename(id: string, name: string): Promise<PasskeyList | null>;
  /**
   * Deletes the passkey `id` and unlinks its account; the answer lists the passkeys left. Null
   * when signed out or the user has no such passkey (another user's id included). Throws
   * `PasskeyDeletionRefused` without a sign-in in the last ten minutes (`reason`
   * `StepUpRequired`, with the `url` that re-authenticates) and for the user's last way in
   * (`LastSignInMethod`).
   */
  delete(id: string): Promise<PasskeyList | null>;
}

/**
 * The passkey server functions for one request, written against an {@link ActionRunner} as the
 * extensions' are: every integration hands its own runner (`actionRunner(c)` in Hono,
 * `actionRunner(event)` in SvelteKit, …) and exposes these as its `passkeys`. Each throws an
 * `AuthError` when the configuration cannot manage passkeys (no WebAuthn provider, or an adapter
 * without the passkey methods). `rename` and `delete` ask for no CSRF token: call them from code
 * your app protects against CSRF (server actions, form actions, a route with a CSRF token).
 *
 * @example
 * ```ts
 * import { actionRunner, passkeysApi } from "@tessera/core"
 * const passkeys = passkeysApi(actionRunner(request, config))
 * const list = await passkeys.list()
 * await passkeys.rename(list.passkeys[0].id, "Work laptop")
 * ```
 */
export function passkeysApi(run: ActionRunner): PasskeysApi {
  const perform = async (operation: PasskeyOperation) =>
    passkeyResult(operation, await run(passkeysCall(operation)));
  return {
    list: () => perform({ kind: "list" }),
    rename: (id, name) => perform({ kind: "rename", id, name }),
    delete: (id) => perform({ kind: "delete", id }),
  };
}

/**
 * The signed-in user's passkeys (`{ passkeys, signals }`), or null when signed out. `request` is
 * the incoming request (or its URL and headers).
 *
 * @example
 * ```ts
 * const list = await listPasskeys(request, config)
 * // list?.passkeys: [{ id, name, createdAt, lastUsedAt, deviceType, backedUp, transports }]
 * ```
 */
export function listPasskeys(
  request: Request | IncomingRequestParts,
  config: ConfigOrFactory,
): Promise<PasskeyList | null> {
  return passkeysApi(actionRunner(request, config)).list();
}

/**
 * Names the signed-in user's passkey `id` (at most 64 characters; empty clears the name). Null
 * when signed out or the user has no such passkey. Call it from a route your app protects
 * against CSRF.
 *
 * @example
 * ```ts
 * await renamePasskey(request, config, id, "Work laptop")
 * ```
 */
export function renamePasskey(
  request: Request | IncomingRequestParts,
  config: ConfigOrFactory,
  id: string,
  name: string,
): Promise<PasskeyList | null> {
  return passkeysApi(actionRunner(request, config)).rename(id, name);
}

/**
 * Deletes the signed-in user's passkey `id` and unlinks its account; the answer lists the
 * passkeys left. Null when signed out or the user has no such passkey (another user's id
 * included). Throws `PasskeyDeletionRefused` (from `@tessera/core/errors`) when the session did
 * not sign in within the last ten minutes (`reason: "StepUpRequired"`, `url` re-authenticates and
 * comes back to the account page) or the passkey is the user's last way in
 * (`reason: "LastSignInMethod"`). Call it from a route your app protects against CSRF.
 *
 * @example
 * ```ts
 * try {
 *   const left = await deletePasskey(request, config, id)
 * } catch (error) {
 *   if (error instanceof PasskeyDeletionRefused && error.url) return Response.redirect(error.url)
 *   throw error
 * }
 * ```
 */
export function deletePasskey(
  request: Request | IncomingRequestParts,
  config: ConfigOrFactory,
  id: string,
): Promise<PasskeyList | null> {
  return passkeysApi(actionRunner(request, config)).delete(id);
}
