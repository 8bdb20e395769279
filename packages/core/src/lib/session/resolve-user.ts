/**
 * Decides who is signing in for OAuth, e-mail and WebAuthn sign-ins: an existing linked user, a
 * new user, or the signed-in user adding an account — and refuses the unsafe cases (an account
 * linked to someone else; auto-linking by e-mail without consent or into an unverified address).
 */
import type { AdapterAccount, AdapterUser } from "../../adapters.js";
import { AccountNotLinked, OAuthAccountNotLinked } from "../../errors.js";
import type { Account, Profile, User } from "../../types.js";
import { requireAdapter } from "../config/adapter.js";
import type { AuthContext } from "../config/internal.js";
import { readChunkedCookie } from "../http/cookies.js";
import {
  emailMayOpen,
  linksByEmail,
  providerMayLinkInto,
  providerVerdict,
} from "./address-proof.js";
import { createUserOrFind, rereadAfterClash } from "./first-create.js";
import { readJwtSession } from "./jwt-cookie.js";

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
  try {
    if (config.session.strategy === "jwt") {
      // Account takeover through a revoked or OP-ended cookie: it must not link a new account to
      // its user. The denylist is asked now (no cached "not revoked").
      const payload = await readJwtSession(config, request.cookies, cookies.sessionToken, 0);
      if (typeof payload === "string") return null;
      return payload.sub ? await adapter.getUser(payload.sub) : null;
    }
    const token = readChunkedCookie(request.cookies, cookies.sessionToken.name);
    if (!token) return null;
    const found = await adapter.getSessionAndUser(token);
    if (!found || found.session.expires.valueOf() < Date.now()) return null;
    return found.user;
  } catch {
    // A stale or foreign session cookie does not stop a fresh sign-in.
    return null;
  }
}

/**
 * Whether a sign-in through `ctx.provider` may be linked to `existing`, the user who has its
 * e-mail address. Pre-account-takeover defence: an attacker who registers the victim's address
 * first (a password or passkey account, or a provider account whose address the provider did not
 * verify) must not receive the victim's provider account later. So linking needs the provider's
 * opt-in (`allowDangerousEmailAccountLinking`), a provider that does not call the address
 * unverified, and an existing user whose address someone proved (see `providerMayLinkInto`).
 */
async function mayLinkByEmail(
  ctx: AuthContext,
  existing: AdapterUser,
  verdict: boolean | undefined,
): Promise<boolean> {
  if (!linksByEmail(ctx.provider) || verdict === false) return false;
  return providerMayLinkInto(ctx, existing);
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
 * The e-mail sign-in's user: the one with the address when its address is proven (or it is the
 * signed-in user, who proves it now), marked verified on first use. Pre-account takeover
 * defence: a user who got the address from a provider that did not verify it is not the one the
 * address's owner lands in, since that provider's account would keep opening it.
 */
async function emailSignInUser(
  ctx: AuthContext,
  existing: AdapterUser,
  signedIn: AdapterUser | null,
): Promise<AdapterUser> {
  if (existing.emailVerified) return existing;
  if (signedIn?.id !== existing.id && !(await emailMayOpen(ctx, existing)))
    throw new AccountNotLinked(
      "The user with this e-mail address got it from a sign-in that did not prove it, so an e-mail link does not open that user. Sign in the way that user signed up, then open a new link to verify the address.",
    );
  const adapter = requireAdapter(ctx.config, "E-mail sign-in");
  const user = await adapter.updateUser({ id: existing.id, emailVerified: new Date() });
  await ctx.config.events.updateUser?.({ user });
  return user;
}

/**
 * A returning OAuth user whose provider now says their address is verified gets `emailVerified`
 * (users Auth.js created through OAuth have none), so that the address counts as proven.
 */
async function confirmAddress(
  ctx: AuthContext,
  user: AdapterUser,
  profile: User,
  verdict: boolean | undefined,
): Promise<AdapterUser> {
  if (verdict !== true || user.emailVerified || !user.email) return user;
  if (user.email.toLowerCase() !== profile.email) return user;
  const adapter = requireAdapter(ctx.config, "Sign-in");
  const updated = await adapter.updateUser({ id: user.id, emailVerified: new Date() });
  await ctx.config.events.updateUser?.({ user: updated });
  return updated;
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
      const user = await emailSignInUser(ctx, existing, signedIn);
      return { user, account: { ...account, userId: user.id }, isNewUser: false };
    }
    // Two first sign-ins of one address at once: the second lands in the user the first created.
    const created = await createUserOrFind(
      ctx,
      newUserFrom({ ...profile, email }, new Date()),
      () => adapter.getUserByEmail(email),
    );
    const user = created.isNewUser
      ? created.user
      : await emailSignInUser(ctx, created.user, signedIn);
    if (created.isNewUser) await events.createUser?.({ user });
    return { user, account: { ...account, userId: user.id }, isNewUser: created.isNewUser };
  }

  const key = { provider: account.provider, providerAccountId: account.providerAccountId };
  const byAccount = userByAccount ? userByAccount.user : await adapter.getUserByAccount(key);
  if (byAccount) {
    if (signedIn && signedIn.id !== byAccount.id) {
      const Refusal = account.type === "webauthn" ? AccountNotLinked : OAuthAccountNotLinked;
      // Account takeover defence: an identity already bound to one user never moves to another.
      throw new Refusal("This account is already linked to another user.");
    }
    const user = await confirmAddress(
      ctx,
      byAccount,
      profile,
      providerVerdict(ctx.provider, providerProfile),
    );
    return { user, account: { ...account, userId: user.id }, isNewUser: false };
  }

  if (signedIn) {
    const linked = { ...account, userId: signedIn.id } as AdapterAccount;
    await adapter.linkAccount(linked);
    await events.linkAccount?.({ user: signedIn, account: linked, profile });
    return { user: signedIn, account: linked, isNewUser: false };
  }

  const verdict = providerVerdict(ctx.provider, providerProfile);
  const byEmail = profile.email ? await adapter.getUserByEmail(profile.email) : null;
  if (byEmail) {
    if (!(await mayLinkByEmail(ctx, byEmail, verdict))) {
      // The user with the address may be this account's, created by a first sign-in running at
      // the same moment whose link of the account is on its way.
      const concurrent = await rereadAfterClash(() => adapter.getUserByAccount(key));
      if (concurrent?.id === byEmail.id)
        return {
          user: concurrent,
          account: { ...account, userId: concurrent.id },
          isNewUser: false,
        };
      throw new (account.type === "webauthn" ? AccountNotLinked : OAuthAccountNotLinked)(
        "Another account already uses this e-mail address. Sign in with that method first, then link this one.",
      );
    }
    const linked = { ...account, userId: byEmail.id } as AdapterAccount;
    await adapter.linkAccount(linked);
    await events.linkAccount?.({ user: byEmail, account: linked, profile });
    return { user: byEmail, account: linked, isNewUser: false };
  }
  return createLinkedUser(ctx, profile, account, verdict === true ? new Date() : null);
}

/**
 * The first sign-in of a provider account: a new user with the account linked. An address the
 * provider called unverified is kept on the user (schemas may require one) with `emailVerified`
 * null, so it never counts as proven; an address typed into a passkey sign-up neither.
 *
 * When the same account's first sign-in runs twice at once, the store's unique constraints refuse
 * one create (the e-mail) or one link (the provider account); that request then signs in to the
 * user the other one created, and drops its own half-made user.
 */
async function createLinkedUser(
  ctx: AuthContext,
  profile: User,
  account: Account,
  emailVerified: Date | null,
): Promise<ResolvedUser> {
  const adapter = requireAdapter(ctx.config, "Sign-in");
  const events = ctx.config.events;
  const key = { provider: account.provider, providerAccountId: account.providerAccountId };
  const created = await createUserOrFind(ctx, newUserFrom(profile, emailVerified), () =>
    adapter.getUserByAccount(key),
  );
  if (!created.isNewUser)
    return {
      user: created.user,
      account: { ...account, userId: created.user.id },
      isNewUser: false,
    };
  const user = created.user;
  const linked = { ...account, userId: user.id } as AdapterAccount;
  try {
    await adapter.linkAccount(linked);
  } catch (error) {
    const owner = await rereadAfterClash(() => adapter.getUserByAccount(key));
    if (!owner) throw error;
    // The user made above holds nothing else; without the account it could never sign in.
    try {
      await adapter.deleteUser(user.id);
    } catch (cause) {
      ctx.logger.error(cause as Error);
    }
    return { user: owner, account: { ...account, userId: owner.id }, isNewUser: false };
  }
  await events.createUser?.({ user });
  await events.linkAccount?.({ user, account: linked, profile });
  return { user, account: linked, isNewUser: true };
}
