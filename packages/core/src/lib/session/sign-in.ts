/**
 * Every sign-in after the provider has vouched, in order: who is signing in (`resolveUser`, for
 * OAuth, e-mail and WebAuthn: an existing linked user, a new user, or the signed-in user adding
 * an account — refusing the unsafe cases: an account linked to someone else, auto-linking by
 * e-mail without consent or into an unverified address) → the first factor is done (a callback
 * knows the user) → the further sign-in steps of the config (none by default: a second factor, a
 * forced e-mail verification) → the session is issued. A step may pause the sign-in: it then
 * waits, sealed in a short-lived cookie bound to the user and the provider, until an action
 * resumes it.
 *
 * The session is issued in one place, at the end of this module: OAuth, e-mail, credentials and
 * WebAuthn callbacks all end there, so every sign-in honours the configured strategy (JWT cookie
 * or database session) the same way, including credentials with database sessions.
 */
import type { AdapterAccount, AdapterUser } from "../../adapters.js";
import {
  AccessDenied,
  AccountNotLinked,
  AuthError,
  InvalidCheck,
  OAuthAccountNotLinked,
} from "../../errors.js";
import type {
  Account,
  Cookie,
  CookieOption,
  JWT,
  Profile,
  ResponseInternal,
  User,
} from "../../types.js";
import { requireAdapter } from "../config/adapter.js";
import type { AuthContext, SignInResult } from "../config/internal.js";
import { decodeSessionToken, encodeSessionToken, sharedSessionTokenCache } from "../crypto/jwe.js";
import { clearChunkedCookie, readChunkedCookie, writeChunkedCookie } from "../http/cookies.js";
import { rotateCsrfToken } from "../http/csrf.js";
import {
  emailMayOpen,
  linksByEmail,
  providerMayLinkInto,
  providerVerdict,
} from "./address-proof.js";
import { newSessionMetadata } from "./devices.js";
import { createUserOrFind, rereadAfterClash } from "./first-create.js";
import {
  clearJwtSession,
  SESSION_ACCOUNT_CLAIM,
  sessionAccountClaim,
  writeJwtSession,
} from "./jwt-cookie.js";
import { storeSessionClaims } from "./session-claims.js";
import { currentSessionUser } from "./signed-in.js";

/** The user a sign-in resolves to. */
export interface ResolvedUser {
  user: User | AdapterUser;
  account: Account;
  isNewUser: boolean;
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

/** Seconds a paused sign-in may wait for its step: long enough to type a code, short for a thief. */
export const PAUSED_SIGN_IN_MAX_AGE = 10 * 60;

/** A sign-in waiting for one of its steps. */
export interface PausedSignIn {
  /** The name of the step that paused it. */
  step: string;
  /** The provider of the first factor (a configured one). */
  providerId: string;
  /** The callback URL the sign-in ends at. */
  callbackUrl: string;
  result: SignInResult;
}

/** What the cookie carries (claims of its JWE). */
interface PausedClaims {
  step: string;
  /** The user id the sign-in is for; a resume acts for this user only. */
  sub: string;
  provider: string;
  callbackUrl: string;
  result: SignInResult;
}

/** The cookie a paused sign-in waits in: `__Secure-` prefixed on https, like the session's. */
function pausedCookie(ctx: AuthContext): CookieOption {
  return {
    name: `${ctx.secureCookies ? "__Secure-" : ""}authjs.paused-sign-in`,
    options: { httpOnly: true, sameSite: "lax", path: "/", secure: ctx.secureCookies },
  };
}

/** Runs the steps after index `from`; pauses at the first step that asks to, else issues. */
async function runSteps(
  ctx: AuthContext,
  result: SignInResult,
  from: number,
): Promise<ResponseInternal> {
  const steps = ctx.config.signInSteps;
  let current = result;
  for (let index = from; index < steps.length; index++) {
    const step = steps[index] as (typeof steps)[number];
    const outcome = await step.run(ctx, current);
    if ("pause" in outcome) return pause(ctx, step.name, current, outcome.pause);
    if (outcome.claims) current = withClaims(current, outcome.claims);
  }
  return issueSessionAndRedirect(ctx, current);
}

function withClaims(result: SignInResult, claims: Record<string, unknown>): SignInResult {
  return { ...result, claims: { ...result.claims, ...claims } };
}

async function pause(
  ctx: AuthContext,
  step: string,
  result: SignInResult,
  answer: ResponseInternal,
): Promise<ResponseInternal> {
  const provider = ctx.provider;
  if (!provider || result.user.id === undefined)
    throw new TypeError(
      `The sign-in step "${step}" paused a sign-in without a provider or user id: only sign-ins of a known user can wait for a step.`,
    );
  const option = pausedCookie(ctx);
  const claims: PausedClaims = {
    step,
    sub: String(result.user.id),
    provider: provider.id,
    callbackUrl: ctx.callbackUrl,
    result,
  };
  // Sealed like the OAuth check cookies (salt = the cookie's own name), so the browser can
  // neither read the pending account tokens nor change whose sign-in it is.
  const sealed = await encodeSessionToken(
    {
      token: claims,
      secret: ctx.config.secrets,
      salt: option.name,
      maxAge: PAUSED_SIGN_IN_MAX_AGE,
    },
    sharedSessionTokenCache,
  );
  const expires = new Date(Date.now() + PAUSED_SIGN_IN_MAX_AGE * 1000);
  const cookies = writeChunkedCookie(ctx.request.cookies, option, sealed, { expires });
  return { ...answer, cookies: [...(answer.cookies ?? []), ...cookies] };
}

/**
 * Ends a sign-in whose first factor is done: runs the config's sign-in steps, then issues the
 * session and redirects (to `pages.newUser` on a first sign-in when configured, else to the
 * callback URL). Every callback (OAuth, e-mail, credentials, WebAuthn) ends here.
 *
 * @example
 * ```ts
 * return completeSignIn(ctx, { user, account, isNewUser })
 * ```
 */
export function completeSignIn(ctx: AuthContext, result: SignInResult): Promise<ResponseInternal> {
  return runSteps(ctx, result, 0);
}

/**
 * The sign-in paused by step `step` for this browser, or `null` when there is none (or it expired,
 * was sealed with another secret, was paused by another step, or its provider is no longer
 * configured). Sets `ctx.provider` to the sign-in's provider.
 *
 * @example
 * ```ts
 * const paused = await readPausedSignIn(ctx, "two-factor")
 * if (paused && codeIsRightFor(paused.result.user.id)) return resumeSignIn(ctx, paused)
 * ```
 */
export async function readPausedSignIn(
  ctx: AuthContext,
  step: string,
): Promise<PausedSignIn | null> {
  const option = pausedCookie(ctx);
  const token = readChunkedCookie(ctx.request.cookies, option.name);
  if (!token) return null;
  let claims: PausedClaims | null;
  try {
    claims = await decodeSessionToken<PausedClaims>(
      { token, secret: ctx.config.secrets, salt: option.name, maxAge: PAUSED_SIGN_IN_MAX_AGE },
      sharedSessionTokenCache,
    );
  } catch {
    return null; // tampered, expired or sealed with a retired secret
  }
  if (!claims || claims.step !== step) return null;
  // The seal binds the user id to the sign-in it carries: a mismatch is not ours.
  if (String(claims.result?.user?.id) !== claims.sub) return null;
  const provider = ctx.providers.find((p) => p.id === claims.provider);
  if (!provider) return null;
  ctx.provider = provider;
  return {
    step: claims.step,
    providerId: claims.provider,
    callbackUrl: claims.callbackUrl,
    result: claims.result,
  };
}

/**
 * Resumes `paused` (from {@link readPausedSignIn}) once its step is satisfied: runs the steps
 * after it, then issues the session with `claims` (what the step learnt: `amr`) added. The paused sign-in's cookie is cleared in every case.
 * Throws `InvalidCheck` when its step is no longer configured.
 *
 * @example
 * ```ts
 * return resumeSignIn(ctx, paused)
 * ```
 */
export async function resumeSignIn(
  ctx: AuthContext,
  paused: PausedSignIn,
  claims?: Record<string, unknown>,
): Promise<ResponseInternal> {
  const cleared: Cookie[] = clearChunkedCookie(ctx.request.cookies, pausedCookie(ctx));
  const index = ctx.config.signInSteps.findIndex((step) => step.name === paused.step);
  if (index === -1)
    throw new InvalidCheck(
      `The paused sign-in waits for the step "${paused.step}", which the configuration no longer has: sign in again.`,
    );
  ctx.callbackUrl = paused.callbackUrl;
  const result = claims ? withClaims(paused.result, claims) : paused.result;
  // A gate may have closed while the sign-in waited (the user was banned during the second-factor
  // challenge): the gates before the paused step run again, so a refused user gets no session.
  for (const gate of ctx.config.signInSteps.slice(0, index))
    if (gate.phase === "gate" && "pause" in (await gate.run(ctx, result)))
      throw new InvalidCheck(
        `The sign-in step "${gate.name}" paused a sign-in it had already let through: sign in again.`,
      );
  const answer = await runSteps(ctx, result, index + 1);
  return { ...answer, cookies: [...cleared, ...(answer.cookies ?? [])] };
}

// --- the last step: the session is issued -----------------------------------------------------

/**
 * Asks the `signIn` callback whether the sign-in may go on. Returns a URL when the callback asked
 * for a redirect; throws `AccessDenied` (carrying the original error) when it refused or threw.
 */
export async function authorizeSignIn(
  ctx: AuthContext,
  params: Parameters<AuthContext["config"]["callbacks"]["signIn"]>[0],
): Promise<string | undefined> {
  let verdict: boolean | string;
  try {
    verdict = await ctx.config.callbacks.signIn(params);
  } catch (error) {
    if (error instanceof AuthError) throw error;
    throw new AccessDenied(error as Error);
  }
  if (!verdict) throw new AccessDenied("The signIn callback refused this sign-in.");
  if (typeof verdict !== "string") return undefined;
  return ctx.config.callbacks.redirect({ url: verdict, baseUrl: ctx.url.origin });
}

/**
 * Writes the session for `user`: a JWT cookie (through the `jwt` callback) or a database session
 * (through the adapter), rotates the CSRF token, then emits `signIn`. Returns the cookies to set.
 */
export async function issueSession(ctx: AuthContext, result: SignInResult): Promise<Cookie[]> {
  const { config, cookies, request } = ctx;
  const { user, account, profile, isNewUser } = result;
  const option = cookies.sessionToken;
  const issued: Cookie[] = [];

  if (config.session.strategy === "jwt") {
    // What the user lacks stays undefined, so the token (and the session read from it) omits
    // it, exactly as Auth.js builds them; a stored user's NULLs stay null.
    const defaultToken: JWT = {
      name: user.name,
      email: user.email,
      picture: user.image,
      ...(user.id !== undefined && { sub: String(user.id) }),
    };
    const token = await config.callbacks.jwt({
      token: defaultToken,
      user,
      account,
      ...(profile !== undefined && { profile }),
      isNewUser: isNewUser ?? false,
      trigger: isNewUser ? "signUp" : "signIn",
    });
    if (token === null) {
      issued.push(...clearJwtSession(request.cookies, option));
    } else {
      // Added after the callback, so a callback that builds a new token cannot drop it.
      const claim =
        account && ctx.provider && (ctx.provider.type === "oauth" || ctx.provider.type === "oidc")
          ? sessionAccountClaim(ctx.provider, account)
          : undefined;
      const expires = new Date(Date.now() + config.jwt.maxAge * 1000);
      // When the user authenticated (OpenID Connect Core §2 `auth_time`), for step-up checks
      // (the account page's unlink); the steps' claims (how and when) go in after the callback
      // too, and a step's `auth_time` wins.
      const withSteps = {
        auth_time: Math.floor(Date.now() / 1000),
        ...token,
        ...result.claims,
      };
      const session = claim ? { ...withSteps, [SESSION_ACCOUNT_CLAIM]: claim } : withSteps;
      issued.push(...(await writeJwtSession(config, request.cookies, option, session, expires)));
    }
  } else {
    const adapter = requireAdapter(config, "The database session strategy");
    if (user.id === undefined) throw new TypeError("A database session needs a user with an id.");
    // A new sign-in always gets a new session token and the previous session is removed, so a
    // token planted before sign-in is worthless afterwards (session fixation) and no rows leak.
    const previous = readChunkedCookie(request.cookies, option.name);
    if (previous) await Promise.resolve(adapter.deleteSession(previous)).catch(() => undefined);
    const now = new Date();
    const expires = new Date(now.getTime() + config.session.maxAge * 1000);
    const session = await adapter.createSession({
      sessionToken: config.session.generateSessionToken(),
      userId: String(user.id),
      expires,
      ...newSessionMetadata(ctx, now),
    });
    issued.push(
      ...writeChunkedCookie(request.cookies, option, session.sessionToken, {
        expires: new Date(session.expires),
      }),
    );
    // How and when the user authenticated, where a session row has no column for it.
    if (result.claims)
      await storeSessionClaims(config, session.sessionToken, result.claims, config.session.maxAge);
  }

  // Login CSRF / token fixation: a CSRF token planted before the sign-in is worthless after it.
  issued.push(...(await rotateCsrfToken(ctx)));

  await config.events.signIn?.({
    user,
    account,
    ...(profile !== undefined && { profile }),
    ...(isNewUser !== undefined && { isNewUser }),
  });
  return issued;
}

/**
 * Issues the session and redirects: to `pages.newUser` on a first sign-in when configured, else
 * to the callback URL. The last part of a sign-in (see `completeSignIn` in sign-in.ts).
 */
export async function issueSessionAndRedirect(
  ctx: AuthContext,
  result: SignInResult,
): Promise<ResponseInternal> {
  const cookies = await issueSession(ctx, result);
  const newUserPage = ctx.config.pages.newUser;
  if (result.isNewUser && newUserPage) {
    const target = new URL(newUserPage, ctx.url.origin);
    target.searchParams.set("callbackUrl", ctx.callbackUrl);
    return { redirect: target.href, cookies };
  }
  return { redirect: ctx.callbackUrl, cookies };
}
