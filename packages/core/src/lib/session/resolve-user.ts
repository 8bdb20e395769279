/**
 * Decides who is signing in for OAuth, e-mail and WebAuthn sign-ins: an existing linked user, a
 * new user, or the signed-in user adding an account — and refuses the unsafe cases (an account
 * linked to someone else; auto-linking by e-mail without consent or into an unverified address).
 */
import type { AdapterAccount, AdapterUser } from "../../adapters.js";
import { AccountNotLinked, OAuthAccountNotLinked } from "../../errors.js";
import type { Account, Profile, User } from "../../types.js";
import { requireAdapter } from "../config/adapter.js";
import type { AuthContext, InternalProvider } from "../config/internal.js";
import { readChunkedCookie } from "../http/cookies.js";
import { jwtSessionGate } from "./jwt-session-gate.js";

/** The user a sign-in resolves to. */
export interface ResolvedUser {
  user: User | AdapterUser;
  account: Account;
  isNewUser: boolean;
}

/** The user of the current session, if any (to link a new account to them). */
export async function currentSessionUser(ctx: AuthContext): Promise<AdapterUser | null> {
  const { config, cookies, request } = ctx;
  const adapter = config.adapter;
  if (!adapter) return null;
  const token = readChunkedCookie(request.cookies, cookies.sessionToken.name);
  if (!token) return null;
  try {
    if (config.session.strategy === "jwt") {
      const payload = await config.jwt.decode({
        token,
        secret: config.secrets,
        salt: cookies.sessionToken.name,
        maxAge: config.jwt.maxAge,
      });
      // Account takeover through a revoked or OP-ended cookie: it must not link a new account to
      // its user. The denylist is asked now (no cached "not revoked").
      if (payload && (await jwtSessionGate(config, payload, 0)) !== "valid") return null;
      return payload?.sub ? await adapter.getUser(payload.sub) : null;
    }
    const found = await adapter.getSessionAndUser(token);
    if (!found || found.session.expires.valueOf() < Date.now()) return null;
    return found.user;
  } catch {
    // A stale or foreign session cookie does not stop a fresh sign-in.
    return null;
  }
}

/** Whether `provider` opted in to linking by e-mail. */
function linksByEmail(provider: InternalProvider | undefined): boolean {
  return (
    (provider?.type === "oauth" || provider?.type === "oidc") &&
    provider.allowDangerousEmailAccountLinking === true
  );
}

/**
 * Whether a sign-in through `ctx.provider` may be linked to `existing`, the user who has its
 * e-mail address. Pre-account-takeover defence: an attacker who registers the victim's address
 * first (a password or passkey account nobody verified) must not receive the victim's provider
 * account later. So linking needs the provider's opt-in (`allowDangerousEmailAccountLinking`),
 * a provider that does not call the address unverified (OIDC `email_verified: false`), and an
 * existing user whose address someone proved: verified by an e-mail sign-in, or signed in before
 * through a provider that carries the flag too (Auth.js leaves `emailVerified` null for users it
 * creates through OAuth). An adapter without `listAccountsByUserId` cannot tell the second case
 * apart, and links as Auth.js does.
 */
async function mayLinkByEmail(
  ctx: AuthContext,
  existing: AdapterUser,
  providerProfile: Profile | undefined,
): Promise<boolean> {
  if (!linksByEmail(ctx.provider)) return false;
  const claim: unknown = providerProfile?.email_verified;
  if (claim === false || claim === "false") return false;
  if (existing.emailVerified) return true;
  // The wrapped adapter answers every name; the configured one says what really exists.
  if (typeof ctx.config.rawAdapter?.listAccountsByUserId !== "function") return true;
  const adapter = requireAdapter(ctx.config, "Account linking");
  const accounts = await adapter.listAccountsByUserId(existing.id);
  return accounts.some((linked) =>
    linksByEmail(ctx.providers.find((provider) => provider.id === linked.provider)),
  );
}

function newUserFrom(profile: User, emailVerified: Date | null): AdapterUser {
  return {
    id: crypto.randomUUID(),
    name: profile.name ?? null,
    // A missing address is stored as NULL: "" would collide on adapters' unique e-mail index.
    email: (profile.email ?? null) as string,
    image: profile.image ?? null,
    emailVerified,
  };
}

/**
 * Resolves the user for a sign-in with `profile` and `account`. Without an adapter the profile is
 * the user, and its id is the provider's account id, so `token.sub` is stable across sign-ins.
 *
 * `userByAccount` is the result of `adapter.getUserByAccount(account)` when the caller already
 * asked (the OAuth callback does, for the signIn callback), so the adapter is not asked twice.
 */
export async function resolveUser(
  ctx: AuthContext,
  profile: User,
  account: Account,
  providerProfile?: Profile,
  userByAccount?: { user: AdapterUser | null },
): Promise<ResolvedUser> {
  const { config } = ctx;
  const adapter = config.adapter;
  if (!adapter) {
    return { user: { ...profile, id: account.providerAccountId }, account, isNewUser: false };
  }
  const events = config.events;
  const signedIn = await currentSessionUser(ctx);

  if (account.type === "email") {
    const email = profile.email ?? account.providerAccountId;
    const existing = await adapter.getUserByEmail(email);
    if (existing) {
      const user = existing.emailVerified
        ? existing
        : await adapter.updateUser({ id: existing.id, emailVerified: new Date() });
      if (!existing.emailVerified) await events.updateUser?.({ user });
      return { user, account: { ...account, userId: user.id }, isNewUser: false };
    }
    const user = await adapter.createUser(newUserFrom({ ...profile, email }, new Date()));
    await events.createUser?.({ user });
    return { user, account: { ...account, userId: user.id }, isNewUser: true };
  }

  const byAccount = userByAccount
    ? userByAccount.user
    : await adapter.getUserByAccount({
        provider: account.provider,
        providerAccountId: account.providerAccountId,
      });
  if (byAccount) {
    if (signedIn && signedIn.id !== byAccount.id) {
      const Refusal = account.type === "webauthn" ? AccountNotLinked : OAuthAccountNotLinked;
      // Account takeover defence: an identity already bound to one user never moves to another.
      throw new Refusal("This account is already linked to another user.");
    }
    return { user: byAccount, account: { ...account, userId: byAccount.id }, isNewUser: false };
  }

  if (signedIn) {
    const linked = { ...account, userId: signedIn.id } as AdapterAccount;
    await adapter.linkAccount(linked);
    await events.linkAccount?.({ user: signedIn, account: linked, profile });
    return { user: signedIn, account: linked, isNewUser: false };
  }

  let user: AdapterUser;
  let isNewUser = false;
  const byEmail = profile.email ? await adapter.getUserByEmail(profile.email) : null;
  if (byEmail) {
    if (!(await mayLinkByEmail(ctx, byEmail, providerProfile)))
      throw new (account.type === "webauthn" ? AccountNotLinked : OAuthAccountNotLinked)(
        "Another account already uses this e-mail address. Sign in with that method first, then link this one.",
      );
    user = byEmail;
  } else {
    // Some providers (Apple) send the claim as the string "true".
    const claim: unknown = providerProfile?.email_verified;
    const verified = claim === true || claim === "true" ? new Date() : null;
    // An address typed into a passkey sign-up is nobody's proof of ownership: never verified.
    user = await adapter.createUser(newUserFrom(profile, verified));
    await events.createUser?.({ user });
    isNewUser = true;
  }
  const linked = { ...account, userId: user.id } as AdapterAccount;
  await adapter.linkAccount(linked);
  await events.linkAccount?.({ user, account: linked, profile });
  return { user, account: linked, isNewUser };
}
