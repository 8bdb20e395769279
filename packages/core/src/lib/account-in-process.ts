/**
 * The account page's data and changes for server code, for apps that build their own account
 * page. Written once against an {@link ActionRunner} (`accountApi`): every integration hands its
 * own runner (`actionRunner(req, config)` in Express, `actionRunner(event)` in SvelteKit,
 * `nodeActionRunner`, the core's `actionRunner(request, config)`), so none needs code for it;
 * `getAccountOverview`, `updateAccountName` and `unlinkAccount` are the same for a `Request`.
 * No CSRF token is asked for: the caller's route answers for CSRF itself.
 */
import { AuthError } from "../errors.js";
import type { AccountOverview } from "./account/types.js";
import { type ActionRunner, actionRunner, type IncomingRequestParts } from "./in-process.js";
import type { ConfigOrFactory } from "./pipeline.js";

/** Why an account change was refused (the account action's `error`). */
export type AccountRefusal =
  | "NameInvalid"
  | "BadRequest"
  | "NotLinked"
  | "StepUpRequired"
  | "LastSignInMethod";

/** The answer of an account change: done, or refused with the reason (and step-up's `url`). */
export type AccountChange =
  | { ok: true }
  | { ok: false; error: AccountRefusal | "NotSignedIn"; url?: string };

async function call(run: ActionRunner, subPath?: string, body?: Record<string, unknown>) {
  const internal = await run({
    action: "account",
    ...(subPath !== undefined && { subPath }),
    ...(body !== undefined && { body }),
  });
  const status = internal.status ?? 200;
  const answer = internal.body as { error?: unknown; url?: unknown } | undefined;
  const error = typeof answer?.error === "string" ? answer.error : undefined;
  if (status >= 500 || error === "NotAvailable")
    throw new AuthError(
      `The account action answered ${status}${error ? ` (${error})` : ""}: the account needs an adapter; the server log names any other cause.`,
    );
  return { status, body: internal.body, error, url: answer?.url };
}

function change(answer: Awaited<ReturnType<typeof call>>): AccountChange {
  if (answer.status === 200) return { ok: true };
  return {
    ok: false,
    error: (answer.error ?? "BadRequest") as AccountRefusal | "NotSignedIn",
    ...(typeof answer.url === "string" && { url: answer.url }),
  };
}

/** The account functions for server code, bound to a runner. */
export interface AccountApi {
  /** The signed-in user's account overview, or null when signed out. */
  overview(): Promise<AccountOverview | null>;
  /** Sets the signed-in user's name (at most 100 characters; empty clears it). */
  updateName(name: string): Promise<AccountChange>;
  /** Unlinks one of the signed-in user's OAuth/OpenID accounts. */
  unlink(account: { provider: string; providerAccountId: string }): Promise<AccountChange>;
}

/**
 * The account server functions over any integration's action runner. Call them from code your
 * app protects against CSRF (server actions, form actions, a route with a CSRF token).
 *
 * @example
 * ```ts
 * import { accountApi, actionRunner } from "@tessera/core"
 * const account = await accountApi(actionRunner(request, config)).overview()
 * ```
 */
export function accountApi(run: ActionRunner): AccountApi {
  return {
    async overview() {
      const answer = await call(run);
      return answer.status === 200 ? (answer.body as AccountOverview) : null;
    },
    updateName: async (name) => change(await call(run, "profile", { name })),
    unlink: async (account) => change(await call(run, "unlink", { ...account })),
  };
}

/**
 * Everything an account page shows for the signed-in user (profile, sessions, linked sign-in
 * methods, passkeys, two-factor state, password set or not), or null when signed out. Sections
 * the configuration does not enable are absent.
 *
 * @example
 * ```ts
 * const account = await getAccountOverview(request, config)
 * account?.linkedAccounts?.map((linked) => linked.providerName)
 * ```
 */
export async function getAccountOverview(
  request: Request | IncomingRequestParts,
  config: ConfigOrFactory,
): Promise<AccountOverview | null> {
  return accountApi(actionRunner(request, config)).overview();
}

/**
 * Sets the signed-in user's name (at most 100 characters; empty clears it). Call it from a route
 * your app protects against CSRF.
 *
 * @example
 * ```ts
 * const result = await updateAccountName(request, config, "Ada Lovelace")
 * ```
 */
export async function updateAccountName(
  request: Request | IncomingRequestParts,
  config: ConfigOrFactory,
  name: string,
): Promise<AccountChange> {
  return accountApi(actionRunner(request, config)).updateName(name);
}

/**
 * Unlinks the signed-in user's OAuth/OpenID account. Refused (`ok: false`) without a recent
 * authentication (`StepUpRequired`, with the `url` that re-authenticates), for an account the
 * user does not have (`NotLinked`), and for the user's last way in (`LastSignInMethod`). Call it
 * from a route your app protects against CSRF.
 *
 * @example
 * ```ts
 * const result = await unlinkAccount(request, config, { provider: "github", providerAccountId: "42" })
 * if (!result.ok && result.url) return Response.redirect(result.url)
 * ```
 */
export async function unlinkAccount(
  request: Request | IncomingRequestParts,
  config: ConfigOrFactory,
  account: { provider: string; providerAccountId: string },
): Promise<AccountChange> {
  return accountApi(actionRunner(request, config)).unlink(account);
}
