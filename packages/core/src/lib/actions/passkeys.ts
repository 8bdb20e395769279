/**
 * `GET <basePath>/passkeys` lists the signed-in user's passkeys; `POST <basePath>/passkeys/rename`
 * (`csrfToken`, `id`, `name`) names one; `POST <basePath>/passkeys/delete` (`csrfToken`, `id`)
 * deletes one and unlinks its account, after a recent authentication (step-up, as unlinking a
 * sign-in method on the account page) and never the user's last way in;
 * `GET <basePath>/passkeys/unknown?id=…` says whether a credential id is unknown
 * (`{ unknown, rpId }`), for the browser's `signalUnknownCredential` after a failed passkey
 * sign-in. Tessera extension, available with a WebAuthn provider and
 * an adapter that has the passkey methods (`listPasskeysByUserId`, `updatePasskey`,
 * `deletePasskey`), under either session strategy.
 *
 * Every answer is JSON: 200 with `{ passkeys, signals }` (after a change too, so the browser can
 * make its Signal API calls; a deletion adds `deleted: { id, userHandle }`), 401 when signed out,
 * 403 without a valid CSRF token, 403 `{ error: "StepUpRequired", url }` for a deletion without a
 * sign-in in the last ten minutes (`url` re-authenticates and comes back to the account page), 409
 * `{ error: "LastSignInMethod" }` for a deletion that would leave the user no way in, 400 for a
 * malformed body, 404 when the feature is not available or the user has no such passkey, 500 when
 * the adapter failed (the cause in the server log).
 */
import type { AdapterUser } from "../../adapters.js";
import { AdapterError } from "../../errors.js";
import type { ResponseInternal } from "../../types.js";
import { isLastWayIn } from "../account/overview.js";
import { type PasskeyAdapter, passkeyAdapter } from "../config/adapter.js";
import type { AuthContext } from "../config/internal.js";
import { json, NO_CACHE_HEADERS } from "../http/response.js";
import { currentSessionUser } from "../session/signed-in.js";
import {
  listedPasskey,
  MAX_PASSKEY_NAME_LENGTH,
  passkeySignals,
  signalRpId,
  storedIdOf,
} from "../webauthn/passkeys.js";
import { requiredStepUp } from "./step-up-url.js";

function answer(body: unknown, status = 200): ResponseInternal {
  return json(body, status, NO_CACHE_HEADERS);
}

/** A name as stored: trimmed, control characters out, bounded; null when nothing is left. */
function cleanName(value: unknown): string | null | undefined {
  if (typeof value !== "string") return undefined;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed.
  const name = value.replace(/[\u0000-\u001f\u007f]/g, "").trim();
  if (name.length > MAX_PASSKEY_NAME_LENGTH) return undefined;
  return name === "" ? null : name;
}

async function listing(ctx: AuthContext, adapter: PasskeyAdapter, user: AdapterUser) {
  const passkeys = await adapter.listPasskeysByUserId(user.id);
  return {
    passkeys: passkeys.map(listedPasskey),
    signals: passkeySignals(ctx, user, passkeys),
  };
}

/** The message of a passkey the user does not have (another user's included). */
const NOT_FOUND = "You have no passkey with this id.";

/**
 * Why deleting the user's passkey `credentialID` must not happen now, as the answer to send, or
 * undefined when it may go ahead.
 */
async function deletionRefusal(
  ctx: AuthContext,
  adapter: PasskeyAdapter,
  user: AdapterUser,
  credentialID: string,
): Promise<ResponseInternal | undefined> {
  // Step-up: an open or stolen session must not be enough to remove a way in.
  const url = await requiredStepUp(ctx, user.id);
  if (url)
    return answer(
      {
        error: "StepUpRequired",
        url,
        message: "Sign in again (at `url`, which comes back to the account page), then delete it.",
      },
      403,
    );
  const owned = await adapter.listPasskeysByUserId(user.id);
  // IDOR: another user's credential id is answered like an unknown one.
  if (!owned.some((passkey) => passkey.credentialID === credentialID))
    return answer({ message: NOT_FOUND }, 404);
  // Lock-out: the last way in is never removed.
  if (await isLastWayIn(ctx, user))
    return answer(
      {
        error: "LastSignInMethod",
        message: "This passkey is your only way to sign in: add another sign-in method first.",
      },
      409,
    );
  return undefined;
}

/** Unlinks the `webauthn` account of a deleted passkey, for whichever provider holds it. */
async function unlinkPasskeyAccount(ctx: AuthContext, userId: string, providerAccountId: string) {
  // The application's adapter says what exists; the wrapped one answers every method.
  const raw = ctx.config.rawAdapter;
  const adapter = ctx.config.adapter;
  if (!adapter || !raw?.getAccount || !raw.unlinkAccount) return;
  for (const provider of ctx.providers) {
    if (provider.type !== "webauthn") continue;
    const account = await adapter.getAccount(providerAccountId, provider.id);
    // IDOR: only the owner's account is unlinked, even if a provider account id were shared.
    if (account?.userId === userId)
      await adapter.unlinkAccount({ provider: provider.id, providerAccountId });
  }
}

/**
 * `GET /passkeys/unknown?id=…`. It needs no session: the browser asks right after a sign-in with
 * that credential failed. It tells only whether an id exists, which leaks nothing an attacker
 * could use: credential ids are at least 16 random bytes (not guessable), and whoever holds one
 * already learns as much from a sign-in attempt.
 */
async function unknownCredential(ctx: AuthContext): Promise<ResponseInternal> {
  const id = ctx.request.query.id;
  const credentialID = storedIdOf(id);
  const adapter = ctx.config.adapter;
  if (!credentialID || !adapter || !ctx.config.rawAdapter?.getAuthenticator)
    return answer({ message: "Send `id`, a credential id (base64url)." }, 400);
  const found = await adapter.getAuthenticator(credentialID);
  return answer({ unknown: !found, rpId: signalRpId(ctx) });
}

/** Handles `GET /passkeys`, `POST /passkeys/rename`, `POST /passkeys/delete` and `GET /passkeys/unknown`. */
export async function passkeys(ctx: AuthContext): Promise<ResponseInternal> {
  const { request } = ctx;
  const operation = request.subAction;
  const isPost = request.method === "POST";
  // POST /passkeys and GET /passkeys/delete name no operation.
  if (isPost !== (operation === "rename" || operation === "delete"))
    return answer({ message: "Bad request." }, 400);
  const adapter = passkeyAdapter(ctx.config);
  if (!adapter || !ctx.providers.some((provider) => provider.type === "webauthn")) {
    ctx.logger.debug(
      "The passkeys action needs a WebAuthn provider and an adapter with listPasskeysByUserId, updatePasskey and deletePasskey.",
    );
    return answer({ message: "Passkey management is not available." }, 404);
  }
  if (operation === "unknown") {
    try {
      return await unknownCredential(ctx);
    } catch (error) {
      ctx.logger.error(error instanceof AdapterError ? error : new AdapterError(error as Error));
      return answer({ message: "The passkey could not be read." }, 500);
    }
  }
  // CSRF: a foreign page must not be able to delete or rename the user's passkeys.
  if (isPost && !ctx.csrfTokenVerified)
    return answer({ message: "A valid csrfToken is needed in the body." }, 403);
  const credentialID = isPost ? storedIdOf(request.body?.id) : null;
  if (isPost && !credentialID)
    return answer({ message: "Send `id`, the passkey's credential id (base64url)." }, 400);
  const name = operation === "rename" ? cleanName(request.body?.name) : undefined;
  if (operation === "rename" && name === undefined)
    return answer(
      { message: `Send \`name\`, a text of at most ${MAX_PASSKEY_NAME_LENGTH} characters.` },
      400,
    );
  try {
    const user = await currentSessionUser(ctx);
    if (!user) return answer({ message: "Not signed in." }, 401);
    let deleted: { id: string; userHandle: string | null } | undefined;
    if (credentialID && operation === "delete") {
      const refusal = await deletionRefusal(ctx, adapter, user, credentialID);
      if (refusal) return refusal;
    }
    if (credentialID) {
      // IDOR: the signed-in user's id is part of the key, so another user's credential id
      // reaches nothing and is answered like an unknown one.
      const key = { userId: user.id, credentialID };
      const changed =
        operation === "rename"
          ? await adapter.updatePasskey({ ...key, name: name ?? null })
          : await adapter.deletePasskey(key);
      if (!changed) return answer({ message: NOT_FOUND }, 404);
      if (operation === "delete") {
        await unlinkPasskeyAccount(ctx, user.id, changed.providerAccountId);
        // The browser's signalAllAcceptedCredentials names the deleted passkey's user handle.
        deleted = { id: listedPasskey(changed).id, userHandle: changed.userHandle ?? null };
      }
    }
    return answer({ ...(await listing(ctx, adapter, user)), ...(deleted && { deleted }) });
  } catch (error) {
    ctx.logger.error(error instanceof AdapterError ? error : new AdapterError(error as Error));
    return answer(
      { message: "The passkeys could not be read; the server log names the cause." },
      500,
    );
  }
}
