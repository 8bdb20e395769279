/**
 * Whether an e-mail address identifies a user. An address counts only once someone proved it:
 * an e-mail link was opened, or a provider said it verified the address. An address a provider
 * called unverified stays on the user (for display, and for schemas whose `email` is NOT NULL),
 * but it never signs anyone in to that user, never links another account to it, and never counts
 * as verified: pre-account takeover defence — an attacker who signs up first with the victim's
 * address at a provider that does not verify it must not receive the victim's later sign-ins.
 */
import type { AdapterUser } from "../../adapters.js";
import type { Profile } from "../../types.js";
import { requireAdapter } from "../config/adapter.js";
import type { AuthContext, InternalProvider } from "../config/internal.js";

/**
 * What the provider said of the address in `profile`: verified (`true`), not verified (`false`),
 * or nothing (`undefined`). The provider's `emailVerified` decides; by default the OpenID Connect
 * `email_verified` claim ([OpenID Connect Core 1.0 §5.1](https://openid.net/specs/openid-connect-core-1_0.html#StandardClaims)),
 * also as the strings "true"/"false" that some providers (Apple) send.
 *
 * @example
 * ```ts
 * providerVerdict(google, { sub: "1", email: "ada@example.com", email_verified: false }) // false
 * ```
 */
export function providerVerdict(
  provider: InternalProvider | undefined,
  profile: Profile | undefined,
): boolean | undefined {
  if (!profile) return undefined;
  if ((provider?.type === "oauth" || provider?.type === "oidc") && provider.emailVerified) {
    const verdict: unknown = provider.emailVerified(profile);
    return typeof verdict === "boolean" ? verdict : undefined;
  }
  const claim: unknown = profile.email_verified;
  if (claim === true || claim === "true") return true;
  if (claim === false || claim === "false") return false;
  return undefined;
}

/** Whether `provider` opted in to linking by e-mail. */
export function linksByEmail(provider: InternalProvider | undefined): boolean {
  return (
    (provider?.type === "oauth" || provider?.type === "oidc") &&
    provider.allowDangerousEmailAccountLinking === true
  );
}

/**
 * Whether an account of `provider` leaves its user's address trusted: an OAuth 2 provider that
 * does not say whether it verified addresses (Auth.js trusts what they send). A provider that does
 * say so (OpenID Connect, or one with an `emailVerified` reader) left its "verified" in the user's
 * `emailVerified`, so its account beside a null `emailVerified` means it did not say "verified".
 * Passkeys (an address typed at sign-up) and providers no longer configured prove nothing.
 */
function keepsAddressTrusted(provider: InternalProvider | undefined): boolean {
  return provider?.type === "oauth" && provider.emailVerified === undefined;
}

/** The providers of `user`'s accounts, or `null` when the adapter cannot list them. */
async function accountProviders(
  ctx: AuthContext,
  user: AdapterUser,
): Promise<(InternalProvider | undefined)[] | null> {
  // The wrapped adapter answers every name; the configured one says what really exists.
  if (typeof ctx.config.rawAdapter?.listAccountsByUserId !== "function") return null;
  const adapter = requireAdapter(ctx.config, "Account linking");
  const accounts = await adapter.listAccountsByUserId(user.id);
  return accounts.map((linked) =>
    ctx.providers.find((provider) => provider.id === linked.provider),
  );
}

/**
 * Whether an e-mail sign-in for `user`'s address may open `user`: its address is verified, or
 * (adapters with Tessera's `listAccountsByUserId`) none of its accounts got the address from a
 * sign-in that did not prove it — a user with no account at all (created by the app, or by a
 * credentials sign-in) included. An adapter that cannot list accounts leaves only
 * `emailVerified` to go by.
 *
 * @example
 * ```ts
 * if (!(await emailMayOpen(ctx, existing))) throw new AccountNotLinked("…")
 * ```
 */
export async function emailMayOpen(ctx: AuthContext, user: AdapterUser): Promise<boolean> {
  if (user.emailVerified) return true;
  const providers = await accountProviders(ctx, user);
  return providers?.every(keepsAddressTrusted) === true;
}

/**
 * Whether a provider account may be linked by e-mail into `user` (once the provider opted in and
 * did not call the address unverified): `user`'s address is verified, or (adapters with
 * `listAccountsByUserId`) every account of the user leaves its address trusted and one of them is
 * of a provider that links by e-mail too. A user who only ever signed in with credentials or a
 * passkey, or through a provider that did not verify the address, is never linked into.
 *
 * @example
 * ```ts
 * if (!(await providerMayLinkInto(ctx, existing))) throw new OAuthAccountNotLinked("…")
 * ```
 */
export async function providerMayLinkInto(ctx: AuthContext, user: AdapterUser): Promise<boolean> {
  if (user.emailVerified) return true;
  const providers = await accountProviders(ctx, user);
  return (
    providers?.every(keepsAddressTrusted) === true &&
    providers.some((provider) => linksByEmail(provider))
  );
}
