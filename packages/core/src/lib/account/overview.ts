/**
 * The signed-in user's account overview (profile, sessions, linked sign-in methods, passkeys and
 * what extensions add), the "ways in" count that keeps a user from unlinking their last sign-in
 * method.
 */
import type { AdapterAccount, AdapterUser } from "../../adapters.js";
import { passkeyAdapter, supportsSessionListing } from "../config/adapter.js";
import type { AuthContext } from "../config/internal.js";
import { listUserSessions } from "../session/devices.js";
import { listedPasskey, passkeySignals } from "../webauthn/passkeys.js";
import type {
  AccountOverview,
  AccountSectionPart,
  LinkableProvider,
  LinkedAccount,
} from "./types.js";

/** Provider types whose accounts the account page lists, links and unlinks. */
const FEDERATED_TYPES: ReadonlySet<string> = new Set(["oauth", "oidc"]);

/** Whether the adapter lists and unlinks a user's accounts (the linked-methods section). */
export function supportsAccountLinking(ctx: AuthContext): boolean {
  const raw = ctx.config.rawAdapter;
  return typeof raw?.listAccountsByUserId === "function" && typeof raw.unlinkAccount === "function";
}

/** The user's linked accounts, or undefined when the adapter cannot list them. */
export async function userAccounts(
  ctx: AuthContext,
  userId: string,
): Promise<AdapterAccount[] | undefined> {
  const adapter = ctx.config.adapter;
  if (!adapter || !supportsAccountLinking(ctx)) return undefined;
  return adapter.listAccountsByUserId(userId);
}

/** What the configured extensions show for `userId`, merged in their order. */
async function extensionSections(ctx: AuthContext, userId: string): Promise<AccountSectionPart> {
  let merged: AccountSectionPart = {};
  for (const section of ctx.config.accountSections)
    merged = { ...merged, ...(await section(ctx, userId)) };
  return merged;
}

/**
 * The number of ways `user` can sign in: linked OAuth/OpenID accounts, passkeys, a password, and
 * e-mail links when an e-mail provider is configured and the user has an address. Credentials
 * providers other than the password extension are not counted: their `authorize` is the app's.
 * Passkeys are counted from `passkeys` (the stored passkeys) when the adapter lists them, else
 * from the user's `webauthn` accounts.
 */
export function countWaysIn(
  ctx: AuthContext,
  user: AdapterUser,
  accounts: readonly AdapterAccount[],
  extensions: AccountSectionPart,
  passkeys?: number,
): number {
  const federated = accounts.filter((account) => FEDERATED_TYPES.has(account.type)).length;
  const webauthnAccounts = accounts.filter((account) => account.type === "webauthn").length;
  const password = extensions.password?.set ? 1 : 0;
  const email = user.email && ctx.providers.some((provider) => provider.type === "email") ? 1 : 0;
  return federated + (passkeys ?? webauthnAccounts) + password + email;
}

/** The user's stored passkeys, or null when passkeys are not configured or not listable. */
async function storedPasskeys(ctx: AuthContext, userId: string) {
  const adapter = passkeyAdapter(ctx.config);
  const hasWebAuthn = ctx.providers.some((provider) => provider.type === "webauthn");
  return adapter && hasWebAuthn ? adapter.listPasskeysByUserId(userId) : null;
}

/**
 * Lock-out: whether `user` has one way in at most (see {@link countWaysIn}), so that removing one
 * (unlinking an account, deleting a passkey) would leave them no way to sign in. `accounts` are
 * the user's accounts when the caller has read them already.
 *
 * @example
 * ```ts
 * if (await isLastWayIn(ctx, user)) return json({ error: "LastSignInMethod" }, 409)
 * ```
 */
export async function isLastWayIn(
  ctx: AuthContext,
  user: AdapterUser,
  accounts?: readonly AdapterAccount[],
): Promise<boolean> {
  const extensions = await extensionSections(ctx, user.id);
  const listed = accounts ?? (await userAccounts(ctx, user.id)) ?? [];
  const passkeys = await storedPasskeys(ctx, user.id);
  return countWaysIn(ctx, user, listed, extensions, passkeys?.length) <= 1;
}

/**
 * The account overview of `user`, the signed-in user of `ctx`. Sections the configuration does
 * not enable are left out.
 *
 * @example
 * ```ts
 * const overview = await readAccountOverview(ctx, user)
 * overview.linkedAccounts?.filter((account) => account.canUnlink)
 * ```
 */
export async function readAccountOverview(
  ctx: AuthContext,
  user: AdapterUser,
): Promise<AccountOverview> {
  const extensions = await extensionSections(ctx, user.id);
  const accounts = await userAccounts(ctx, user.id);
  const stored = await storedPasskeys(ctx, user.id);
  const waysIn = countWaysIn(ctx, user, accounts ?? [], extensions, stored?.length);
  const names = new Map(ctx.providers.map((provider) => [provider.id, provider.name]));
  const linkedAccounts: LinkedAccount[] | undefined = accounts
    ?.filter((account) => FEDERATED_TYPES.has(account.type))
    .map((account) => ({
      provider: account.provider,
      providerName: names.get(account.provider) ?? account.provider,
      providerAccountId: account.providerAccountId,
      type: account.type,
      canUnlink: waysIn > 1,
    }));
  const linkedProviders = new Set(accounts?.map((account) => account.provider));
  const linkableProviders: LinkableProvider[] = ctx.providers
    .filter((provider) => FEDERATED_TYPES.has(provider.type) && !linkedProviders.has(provider.id))
    .map((provider) => ({ id: provider.id, name: provider.name, signinUrl: provider.signinUrl }));
  const sessions = supportsSessionListing(ctx.config)
    ? ((await listUserSessions(ctx)) ?? undefined)
    : undefined;
  return {
    profile: {
      id: user.id,
      name: user.name ?? null,
      email: user.email ?? null,
      emailVerified: Boolean(user.emailVerified),
      image: user.image ?? null,
    },
    ...(sessions && { sessions }),
    ...(linkedAccounts && { linkedAccounts }),
    linkableProviders,
    ...(stored && {
      passkeys: {
        passkeys: stored.map(listedPasskey),
        signals: passkeySignals(ctx, user, stored),
      },
    }),
    ...extensions,
    waysIn,
  };
}
