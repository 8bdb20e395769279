/**
 * `twoFactor(options)`: TOTP with backup codes, built as an extension. It adds one action row,
 * `two-factor` (sub-paths `verify`, `enrol`, `activate`, `backup-codes`, `disable`, `status`),
 * and one sign-in step, which pauses every sign-in of an enrolled user (and, with `required`, of
 * a user without a factor) until a code passes. Its storage is the adapter's
 * {@link TwoFactorAdapter} methods, checked when the config is resolved.
 */

import { renderSVG } from "uqr";
import { RateLimited } from "../../errors.js";
import type { ActionRow, AuthContext, SignInStep } from "../../lib/config/internal.js";
import { defineExtension } from "../../lib/extension.js";
import type { TesseraExtension } from "../../lib/extension-handle.js";
import { readChunkedCookie } from "../../lib/http/cookies.js";
import { json } from "../../lib/http/response.js";
import type { MessageOverrides } from "../../lib/i18n/messages.js";
import { requestTranslator } from "../../lib/i18n/request.js";
import { readJwtSession, reissueJwtSession } from "../../lib/session/jwt-cookie.js";
import { clearSignInLimit, limitSignInAttempt } from "../../lib/session/rate-limit.js";
import { readSessionClaims, storeSessionClaims } from "../../lib/session/session-claims.js";
import { type PausedSignIn, readPausedSignIn, resumeSignIn } from "../../lib/session/sign-in.js";
import { signedInUserId } from "../../lib/session/signed-in.js";
import type { JWT, ResponseInternal } from "../../types.js";
import { authenticationClaims, authenticationFields, firstFactorAmr } from "./authentication.js";
import { emailCodeTarget, sendEmailCode, useEmailCode } from "./email-code.js";
import { type TwoFactorMessages, twoFactorMessages } from "./messages/index.js";
import {
  backupCodesPage,
  challengePage,
  enrolPage,
  enrolStartPage,
  managePage,
  reauthenticatePage,
  type TwoFactorPageContext,
  type TwoFactorPageError,
} from "./pages.js";
import { hasPasskey, passkeyOptions, verifyPasskey } from "./passkey.js";
import {
  hashBackupCode,
  newBackupCodes,
  newTotpSecret,
  openSecret,
  sealSecret,
} from "./secrets.js";
import {
  TWO_FACTOR_ADAPTER_METHODS,
  type TwoFactorAdapter,
  type TwoFactorRecord,
} from "./storage.js";
import { base32Encode, DEFAULT_TOTP, matchTotp, otpauthUri, type TotpOptions } from "./totp.js";
import { forgetTrustedDevices, isTrustedDevice, trustThisDevice } from "./trusted-device.js";

/** The name of the sign-in step (recorded in the paused sign-in cookie). */
export const TWO_FACTOR_STEP = "two-factor";
/** The name of the action row: `<basePath>/two-factor/<sub-path>`. */
export const TWO_FACTOR_ACTION = "two-factor";

/** What the two-factor events receive. */
export interface TwoFactorEventMessage {
  userId: string;
  /** The factor used, for a passed or failed challenge (`undefined` when unknown). */
  method?: "totp" | "backup-code" | "email-code" | "passkey";
}

/** Events of two-factor authentication; a handler that throws is logged, never breaks a flow. */
export interface TwoFactorEvents {
  /** A first valid code activated the user's factor. */
  twoFactorEnabled?(message: TwoFactorEventMessage): void | Promise<void>;
  /** The user turned the factor off. */
  twoFactorDisabled?(message: TwoFactorEventMessage): void | Promise<void>;
  /** A code was accepted after a first factor. */
  twoFactorChallengePassed?(message: TwoFactorEventMessage): void | Promise<void>;
  /** A wrong, replayed or used code was refused (also while over the rate limit). */
  twoFactorChallengeFailed?(message: TwoFactorEventMessage): void | Promise<void>;
  /** The backup codes were replaced. */
  twoFactorBackupCodesRegenerated?(message: TwoFactorEventMessage): void | Promise<void>;
}

/** Options of {@link twoFactor}. */
export interface TwoFactorOptions {
  /** The name authenticator apps show; default the app's host name. */
  issuer?: string;
  /** TOTP parameters; default SHA1, 6 digits, 30 s (what every app reads). */
  totp?: Partial<TotpOptions>;
  /** Time steps accepted either side of now, for clock drift; default 1. */
  drift?: number;
  /** How many backup codes a set holds; default 10. */
  backupCodes?: number;
  /** Users without a factor must enrol at their next sign-in; default false. */
  required?: boolean;
  /**
   * Whether a passkey sign-in (WebAuthn) already counts as multi-factor (possession of the device
   * plus its user verification) and so skips the challenge; default true.
   */
  passkeyIsMultiFactor?: boolean;
  /**
   * "Don't ask again on this browser": how long a browser the user chose to trust skips the
   * challenge, in seconds (default 30 days); `false` offers no such choice.
   */
  trustedDevice?: { maxAge?: number } | false;
  /**
   * Offer "e-mail me a code" on the challenge, sent through the configured e-mail provider
   * (never after an e-mail link sign-in: the same mailbox twice is one factor). Default false.
   */
  emailCode?: boolean;
  /** Your own pages instead of the built-in ones (paths on your origin). */
  pages?: { challenge?: string; enrol?: string };
  events?: TwoFactorEvents;
  /**
   * Your texts for the two-factor pages, by locale: keys are those of the English dictionary
   * (`twoFactor.title`, …; a typo does not compile). See docs/guides/languages.md.
   *
   * @example
   * ```ts
   * twoFactor({ messages: { de: { "twoFactor.title": "Zweiter Faktor" } } })
   * ```
   */
  messages?: MessageOverrides<TwoFactorMessages>;
}

interface Resolved {
  totp: TotpOptions;
  drift: number;
  backupCodes: number;
  required: boolean;
  passkeyIsMultiFactor: boolean;
  /** Seconds a trusted browser skips the challenge; 0 when trust is off. */
  trustMaxAge: number;
  emailCode: boolean;
  issuer?: string;
  pages: { challenge?: string; enrol?: string };
  events: TwoFactorEvents;
  messages?: MessageOverrides<TwoFactorMessages>;
}

/** The adapter's two-factor methods (present: the config check made sure). */
function store(ctx: AuthContext): TwoFactorAdapter {
  return ctx.config.rawAdapter as unknown as TwoFactorAdapter;
}

async function emit(
  ctx: AuthContext,
  handler: ((message: TwoFactorEventMessage) => void | Promise<void>) | undefined,
  message: TwoFactorEventMessage,
): Promise<void> {
  if (!handler) return;
  try {
    await handler(message);
  } catch (error) {
    ctx.logger.error(error instanceof Error ? error : new Error(String(error)));
  }
}

/** Whether the browser asked for a page (a form post or a link) rather than data. */
function wantsPage(ctx: AuthContext): boolean {
  if (ctx.request.inProcess) return false;
  return (ctx.request.headers.get("accept") ?? "").includes("text/html");
}

function refused(status: number, error: string): ResponseInternal {
  return json({ error }, status);
}

function pageContext(ctx: AuthContext, options: Resolved): TwoFactorPageContext {
  return {
    url: ctx.url,
    theme: ctx.config.theme,
    csrfToken: ctx.csrfToken ?? "",
    t: requestTranslator(ctx, twoFactorMessages, options.messages),
  };
}

/** The only message a wrong code gets: it says nothing of which factor or user failed. */
const WRONG_CODE = "twoFactor.error.wrongCode";
const TOO_MANY = "twoFactor.error.tooMany";

type CodeVerdict = "totp" | "backup-code" | "email-code" | "passkey" | "wrong" | "limited";

/**
 * Checks `code` (an authenticator code, or a backup code) for `userId`, counting the attempt
 * against the per-user and per-IP limits first. A TOTP code counts once: its time step is
 * recorded atomically in the shared adapter, so a replay (or an earlier code) is refused on every
 * instance. A backup code is removed atomically, so two parallel uses pass once.
 */
async function checkCode(
  ctx: AuthContext,
  options: Resolved,
  userId: string,
  record: TwoFactorRecord,
  typed: { code?: unknown; backupCode?: unknown; emailCode?: unknown; passkey?: unknown },
  emailCodeAllowed = false,
  passkeyAllowed = false,
): Promise<CodeVerdict> {
  try {
    // Brute force: a 6-digit code falls to a million tries; the limit makes that take years.
    await limitSignInAttempt(ctx, "two-factor", userId);
  } catch (error) {
    if (error instanceof RateLimited) {
      await emit(ctx, options.events.twoFactorChallengeFailed, { userId });
      return "limited";
    }
    throw error;
  }
  const code = typeof typed.code === "string" ? typed.code.replace(/\s/g, "") : "";
  const backup = typeof typed.backupCode === "string" ? typed.backupCode : "";
  const adapter = store(ctx);
  let verdict: CodeVerdict = "wrong";
  const emailed = typeof typed.emailCode === "string" ? typed.emailCode.replace(/\s/g, "") : "";
  if (typed.passkey !== undefined) {
    if (passkeyAllowed && (await verifyPasskey(ctx, userId, typed.passkey))) verdict = "passkey";
  } else if (emailed) {
    if (emailCodeAllowed && (await useEmailCode(ctx, userId, emailed))) verdict = "email-code";
  } else if (code && /^\d+$/.test(code)) {
    const key = await openSecret(ctx, userId, record.secret);
    const step =
      key &&
      (await matchTotp(key, code, { ...options.totp, drift: options.drift, time: Date.now() }));
    // Replay: a code whose step is not later than the last used one was already spent.
    if (typeof step === "number" && (await adapter.useTotpStep(userId, step))) verdict = "totp";
  } else if (code || backup) {
    const hash = await hashBackupCode(userId, backup || code);
    if (await adapter.useBackupCode(userId, hash)) verdict = "backup-code";
  }
  if (verdict === "wrong") await emit(ctx, options.events.twoFactorChallengeFailed, { userId });
  // A user who mistyped a few times starts afresh; the per-IP count stays.
  else await clearSignInLimit(ctx, "two-factor", userId);
  return verdict;
}

/** Who a request acts for: the signed-in user, or (where allowed) the paused sign-in's user. */
interface Actor {
  userId: string;
  paused?: PausedSignIn;
}

async function actor(ctx: AuthContext, allowPaused: boolean): Promise<Actor | null> {
  if (allowPaused) {
    const paused = await readPausedSignIn(ctx, TWO_FACTOR_STEP);
    if (paused) return { userId: String(paused.result.user.id), paused };
  }
  const userId = await signedInUserId(ctx);
  return userId ? { userId } : null;
}

/** The issuer shown in authenticator apps. */
function issuerOf(ctx: AuthContext, options: Resolved): string {
  return options.issuer ?? ctx.url.hostname;
}

async function accountLabel(ctx: AuthContext, who: Actor): Promise<string> {
  const user = who.paused?.result.user ?? (await ctx.config.adapter?.getUser(who.userId));
  return user?.email ?? user?.name ?? who.userId;
}

/** `POST enrol`: a new pending factor (any earlier pending one is replaced). */
async function enrol(ctx: AuthContext, options: Resolved, who: Actor): Promise<ResponseInternal> {
  const adapter = store(ctx);
  const existing = await adapter.getTwoFactor(who.userId);
  if (existing?.enabledAt) return refused(409, "TwoFactorAlreadyEnabled");
  const secret = newTotpSecret();
  await adapter.setTwoFactor({
    userId: who.userId,
    secret: await sealSecret(ctx, who.userId, secret),
    enabledAt: null,
    lastUsedStep: null,
  });
  const uri = otpauthUri({
    issuer: issuerOf(ctx, options),
    account: await accountLabel(ctx, who),
    secret,
    options: options.totp,
  });
  const qrSvg = renderSVG(uri, { border: 2 });
  if (wantsPage(ctx)) return enrolPage({ ...pageContext(ctx, options), qrSvg, secret, uri });
  return json({ secret, uri, qrSvg });
}

/** `POST activate`: the first valid code turns the pending factor on and makes backup codes. */
async function activate(
  ctx: AuthContext,
  options: Resolved,
  who: Actor,
): Promise<ResponseInternal> {
  const adapter = store(ctx);
  const record = await adapter.getTwoFactor(who.userId);
  if (!record || record.enabledAt) return refused(409, "TwoFactorNotPending");
  const key = await openSecret(ctx, who.userId, record.secret);
  try {
    await limitSignInAttempt(ctx, "two-factor", who.userId);
  } catch (error) {
    if (error instanceof RateLimited) return refused(429, "RateLimited");
    throw error;
  }
  const code = String(ctx.request.body?.code ?? "").replace(/\s/g, "");
  const step = key && (await matchTotp(key, code, { ...options.totp, drift: options.drift }));
  if (typeof step !== "number") {
    if (!wantsPage(ctx)) return refused(400, "TwoFactorCodeInvalid");
    // The same key again: the app already holds it.
    const plain = key ? base32Encode(key) : "";
    const uri = otpauthUri({
      issuer: issuerOf(ctx, options),
      account: await accountLabel(ctx, who),
      secret: plain,
      options: options.totp,
    });
    return enrolPage({
      ...pageContext(ctx, options),
      qrSvg: renderSVG(uri, { border: 2 }),
      secret: plain,
      uri,
      error: WRONG_CODE,
    });
  }
  await clearSignInLimit(ctx, "two-factor", who.userId);
  // The code just typed counts as used: it cannot sign in a second time.
  await adapter.setTwoFactor({ ...record, enabledAt: new Date(), lastUsedStep: step });
  const codes = newBackupCodes(options.backupCodes);
  await adapter.setBackupCodes(
    who.userId,
    await Promise.all(codes.map((code) => hashBackupCode(who.userId, code))),
  );
  await emit(ctx, options.events.twoFactorEnabled, { userId: who.userId, method: "totp" });
  // Required enrolment during a sign-in: the new factor was just proven, the sign-in goes on.
  const resumed = who.paused
    ? await resumeSignIn(
        ctx,
        who.paused,
        authenticationClaims([...firstFactorAmr(ctx, who.paused.result.profile), "otp", "mfa"]),
      )
    : undefined;
  const next = resumed?.redirect ?? `${ctx.url.origin}/`;
  if (wantsPage(ctx))
    return {
      ...backupCodesPage({ ...pageContext(ctx, options), codes, next }),
      cookies: resumed?.cookies ?? [],
    };
  return { ...json({ backupCodes: codes, url: next }), cookies: resumed?.cookies ?? [] };
}

/** `POST verify`: the challenge of a paused sign-in; a valid code resumes it. */
async function verify(ctx: AuthContext, options: Resolved): Promise<ResponseInternal> {
  const paused = await readPausedSignIn(ctx, TWO_FACTOR_STEP);
  // Skipping the first factor: without a paused sign-in sealed for this browser there is
  // nothing to verify, whoever the code belongs to.
  if (!paused) return noPausedSignIn(ctx);
  const userId = String(paused.result.user.id);
  const record = await store(ctx).getTwoFactor(userId);
  if (!record?.enabledAt) return noPausedSignIn(ctx);
  const body = ctx.request.body ?? {};
  const emailTarget = options.emailCode ? emailCodeTarget(ctx, paused) : null;
  const verdict = await checkCode(ctx, options, userId, record, body, emailTarget !== null, true);
  if (verdict === "wrong" || verdict === "limited") {
    const limited = verdict === "limited";
    if (wantsPage(ctx))
      return challengePage({
        ...pageContext(ctx, options),
        trustDays: trustDays(options),
        ...(emailTarget && { emailCode: { sent: typeof body.emailCode === "string" } }),
        error: limited ? TOO_MANY : WRONG_CODE,
        status: limited ? 429 : 401,
      });
    return refused(limited ? 429 : 401, limited ? "RateLimited" : "TwoFactorCodeInvalid");
  }
  await emit(ctx, options.events.twoFactorChallengePassed, { userId, method: verdict });
  const second = verdict === "passkey" ? ["hwk", "user"] : ["otp"];
  const amr = [...firstFactorAmr(ctx, paused.result.profile), ...second, "mfa"];
  const resumed = await resumeSignIn(ctx, paused, authenticationClaims(amr));
  const asked = body.trustDevice;
  const trust =
    options.trustMaxAge > 0 &&
    (asked === true || asked === "1" || asked === "on" || asked === "true");
  if (!trust) return resumed;
  const trusted = await trustThisDevice(ctx, record, options.trustMaxAge);
  return { ...resumed, cookies: [...(resumed.cookies ?? []), ...trusted] };
}

/**
 * Step-up (`GET` page, `POST` code): a signed-in user with a factor proves it again, and the JWT
 * session's `amr` and `auth_time` are renewed, so that `requireRecentAuthentication` passes; then
 * back to the callback URL. A user without a factor (or with database sessions, which keep no
 * `amr`) is sent through the sign-in page instead: a fresh sign-in is the re-authentication.
 */
async function reauthenticate(ctx: AuthContext, options: Resolved): Promise<ResponseInternal> {
  const signInAgain = {
    redirect: `${ctx.url.href.replace(/\/$/, "")}/signin?${new URLSearchParams({ callbackUrl: ctx.callbackUrl })}`,
  };
  const { config, cookies, request } = ctx;
  const current = await currentAuthentication(ctx);
  if (!current) return signInAgain;
  const { userId } = current;
  const record = await store(ctx).getTwoFactor(userId);
  if (!record?.enabledAt) return signInAgain;
  const page = (error?: TwoFactorPageError, status?: number) =>
    reauthenticatePage({
      ...pageContext(ctx, options),
      callbackUrl: ctx.callbackUrl,
      ...(error !== undefined && { error }),
      ...(status !== undefined && { status }),
    });
  if (request.method === "GET") return page();
  const verdict = await checkCode(ctx, options, userId, record, request.body ?? {});
  if (verdict === "wrong" || verdict === "limited") {
    const limited = verdict === "limited";
    if (wantsPage(ctx)) return page(limited ? TOO_MANY : WRONG_CODE, limited ? 429 : 401);
    return refused(limited ? 429 : 401, limited ? "RateLimited" : "TwoFactorCodeInvalid");
  }
  await emit(ctx, options.events.twoFactorChallengePassed, { userId, method: verdict });
  const previous = Array.isArray(current.claims.amr) ? (current.claims.amr as string[]) : [];
  const renewed = authenticationClaims([...previous, "otp", "mfa"]);
  if (current.jwt) {
    const expires = new Date(Date.now() + config.jwt.maxAge * 1000);
    const next = { ...current.jwt, ...renewed };
    const issued = await reissueJwtSession(
      config,
      request.cookies,
      cookies.sessionToken,
      current.jwt,
      next,
      expires,
    );
    return { redirect: ctx.callbackUrl, cookies: issued };
  }
  const ttl = ((current.expires?.getTime() ?? Date.now()) - Date.now()) / 1000;
  await storeSessionClaims(
    config,
    current.sessionToken ?? "",
    { ...current.claims, ...renewed },
    ttl,
  );
  return { redirect: ctx.callbackUrl };
}

/** The signed-in user's session and its sign-in claims, for step-up; null when signed out. */
async function currentAuthentication(ctx: AuthContext): Promise<{
  userId: string;
  claims: Record<string, unknown>;
  jwt?: JWT;
  sessionToken?: string;
  expires?: Date;
} | null> {
  const { config, cookies, request } = ctx;
  if (config.session.strategy === "jwt") {
    const read = await readJwtSession(config, request.cookies, cookies.sessionToken, 0);
    if (typeof read === "string" || typeof read.sub !== "string") return null;
    return { userId: read.sub, claims: read, jwt: read };
  }
  const sessionToken = readChunkedCookie(request.cookies, cookies.sessionToken.name);
  const found = sessionToken ? await config.adapter?.getSessionAndUser(sessionToken) : null;
  if (!sessionToken || !found || found.session.expires.valueOf() < Date.now()) return null;
  const claims = (await readSessionClaims(config, sessionToken)) ?? {};
  return { userId: found.user.id, claims, sessionToken, expires: found.session.expires };
}

/** `ada@example.com` as `a•••@example.com`: enough to recognise, not to harvest. */
function maskAddress(email: string): string {
  const at = email.lastIndexOf("@");
  return at <= 0 ? "your address" : `${email[0]}•••${email.slice(at)}`;
}

/** Whole days a trusted browser skips the challenge (0: no trust offered). */
function trustDays(options: Resolved): number {
  return Math.floor(options.trustMaxAge / 86_400);
}

function noPausedSignIn(ctx: AuthContext): ResponseInternal {
  if (wantsPage(ctx)) return { redirect: `${ctx.url.href.replace(/\/$/, "")}/signin` };
  return refused(401, "NoPausedSignIn");
}

/** `GET status` (and `GET /two-factor` as data): the signed-in user's factor. */
async function status(ctx: AuthContext, options: Resolved, who: Actor): Promise<ResponseInternal> {
  const adapter = store(ctx);
  const record = await adapter.getTwoFactor(who.userId);
  const backupCodesLeft = record?.enabledAt ? await adapter.countBackupCodes(who.userId) : 0;
  const state = { enabled: Boolean(record?.enabledAt), backupCodesLeft };
  if (wantsPage(ctx)) return managePage({ ...pageContext(ctx, options), ...state });
  return json({ ...state, pending: Boolean(record && !record.enabledAt) });
}

/**
 * `POST disable` and `POST backup-codes`: both need a valid code now, so that a session left open
 * (or stolen) cannot turn the factor off or read fresh codes.
 */
async function withCode(
  ctx: AuthContext,
  options: Resolved,
  who: Actor,
  then: (record: TwoFactorRecord) => Promise<ResponseInternal>,
): Promise<ResponseInternal> {
  const adapter = store(ctx);
  const record = await adapter.getTwoFactor(who.userId);
  if (!record?.enabledAt) return refused(409, "TwoFactorNotEnabled");
  const verdict = await checkCode(ctx, options, who.userId, record, ctx.request.body ?? {});
  if (verdict === "wrong" || verdict === "limited") {
    const limited = verdict === "limited";
    if (wantsPage(ctx)) {
      const backupCodesLeft = await adapter.countBackupCodes(who.userId);
      return managePage({
        ...pageContext(ctx, options),
        enabled: true,
        backupCodesLeft,
        error: limited ? TOO_MANY : WRONG_CODE,
      });
    }
    return refused(limited ? 429 : 401, limited ? "RateLimited" : "TwoFactorCodeInvalid");
  }
  return then(record);
}

function handlerFor(options: Resolved) {
  return async function twoFactorAction(ctx: AuthContext): Promise<ResponseInternal> {
    const { method, subAction } = ctx.request;
    // CSRF: enrolment, activation, disabling and the challenge change state; a forged post from
    // another site carries no matching token (in-process calls count as verified).
    if (method === "POST" && !ctx.csrfTokenVerified) return refused(403, "MissingCSRF");
    if (subAction === "verify") {
      if (method === "POST") return verify(ctx, options);
      if (options.pages.challenge)
        return { redirect: new URL(options.pages.challenge, ctx.url).href };
      const paused = await readPausedSignIn(ctx, TWO_FACTOR_STEP);
      if (!paused) return noPausedSignIn(ctx);
      const emailTarget = options.emailCode ? emailCodeTarget(ctx, paused) : null;
      // The e-mailed link fills the code in; only a POST from the page spends it.
      const linked = ctx.request.query.emailCode;
      const prefill = linked && /^\d{6}$/.test(linked) ? linked : undefined;
      const passkeyOptionsUrl = (await hasPasskey(ctx, paused))
        ? `${ctx.url.href.replace(/\/$/, "")}/two-factor/passkey-options`
        : undefined;
      return challengePage({
        ...pageContext(ctx, options),
        trustDays: trustDays(options),
        ...(emailTarget && {
          emailCode: { sent: prefill !== undefined, ...(prefill && { prefill }) },
        }),
        ...(passkeyOptionsUrl && { passkeyOptionsUrl }),
      });
    }
    if (subAction === "reauthenticate") return reauthenticate(ctx, options);
    if (subAction === "passkey-options") {
      if (method !== "GET") return refused(400, "BadRequest");
      const paused = await readPausedSignIn(ctx, TWO_FACTOR_STEP);
      if (!paused) return refused(401, "NoPausedSignIn");
      const offered = await passkeyOptions(ctx, paused);
      if (!offered) return refused(404, "NoPasskey");
      return { ...json({ options: offered.options }), cookies: [offered.cookie] };
    }
    if (subAction === "email-code") {
      if (method !== "POST") return refused(400, "BadRequest");
      const paused = await readPausedSignIn(ctx, TWO_FACTOR_STEP);
      if (!paused) return noPausedSignIn(ctx);
      const target = options.emailCode ? emailCodeTarget(ctx, paused) : null;
      if (!target) return refused(404, "EmailCodeUnavailable");
      try {
        await sendEmailCode(ctx, paused, target);
      } catch (error) {
        if (!(error instanceof RateLimited)) throw error;
        if (!wantsPage(ctx)) return refused(429, "RateLimited");
        const emailCode = { sent: false };
        return challengePage({
          ...pageContext(ctx, options),
          trustDays: trustDays(options),
          emailCode,
          error: TOO_MANY,
          status: 429,
        });
      }
      if (!wantsPage(ctx)) return json({ sent: true });
      return challengePage({
        ...pageContext(ctx, options),
        trustDays: trustDays(options),
        emailCode: { sent: true, address: maskAddress(target.email) },
      });
    }
    const enrolling = subAction === "enrol" || subAction === "activate";
    const who = await actor(ctx, enrolling);
    if (!who) {
      if (wantsPage(ctx)) return noPausedSignIn(ctx);
      return refused(401, "NotSignedIn");
    }
    // A paused sign-in of an enrolled user may not enrol again: it must pass the challenge.
    if (who.paused && !options.required) return refused(403, "TwoFactorChallengePending");
    switch (subAction) {
      case "enrol":
        if (method === "POST") return enrol(ctx, options, who);
        if (options.pages.enrol) return { redirect: new URL(options.pages.enrol, ctx.url).href };
        return enrolStartPage({ ...pageContext(ctx, options), required: Boolean(who.paused) });
      case "activate":
        if (method !== "POST") return refused(400, "BadRequest");
        return activate(ctx, options, who);
      case "disable":
        if (method !== "POST") return refused(400, "BadRequest");
        return withCode(ctx, options, who, async () => {
          await store(ctx).deleteTwoFactor(who.userId);
          await emit(ctx, options.events.twoFactorDisabled, { userId: who.userId });
          if (wantsPage(ctx)) return { redirect: `${ctx.url.href.replace(/\/$/, "")}/two-factor` };
          return json({ disabled: true });
        });
      case "forget-devices":
        if (method !== "POST") return refused(400, "BadRequest");
        await forgetTrustedDevices(ctx, who.userId, Math.max(options.trustMaxAge, 1));
        return json({ forgotten: true });
      case "backup-codes":
        if (method !== "POST") return refused(400, "BadRequest");
        return withCode(ctx, options, who, async () => {
          const codes = newBackupCodes(options.backupCodes);
          await store(ctx).setBackupCodes(
            who.userId,
            await Promise.all(codes.map((code) => hashBackupCode(who.userId, code))),
          );
          await emit(ctx, options.events.twoFactorBackupCodesRegenerated, { userId: who.userId });
          if (wantsPage(ctx))
            return backupCodesPage({
              ...pageContext(ctx, options),
              codes,
              next: `${ctx.url.href.replace(/\/$/, "")}/two-factor`,
              regenerated: true,
            });
          return json({ backupCodes: codes });
        });
      default:
        if (method !== "GET") return refused(400, "BadRequest");
        return status(ctx, options, who);
    }
  };
}

function stepFor(options: Resolved): SignInStep {
  return {
    name: TWO_FACTOR_STEP,
    phase: "challenge",
    async run(ctx, result) {
      const amr = firstFactorAmr(ctx, result.profile);
      // A passkey is a possessed key unlocked by the user: two factors, unless the app says not.
      if (ctx.provider?.type === "webauthn" && options.passkeyIsMultiFactor)
        return { continue: true, claims: authenticationClaims([...amr, "mfa"]) };
      const signedIn = { continue: true as const, claims: authenticationClaims(amr) };
      if (result.user.id === undefined) return signedIn;
      const record = await store(ctx).getTwoFactor(String(result.user.id));
      const base = ctx.url.href.replace(/\/$/, "");
      // A browser this user chose to trust, with this factor, since the last "forget".
      if (
        record?.enabledAt &&
        options.trustMaxAge > 0 &&
        (await isTrustedDevice(ctx, record, options.trustMaxAge))
      )
        return signedIn;
      if (record?.enabledAt) {
        const target = options.pages.challenge
          ? new URL(options.pages.challenge, ctx.url).href
          : `${base}/two-factor/verify`;
        return { pause: { redirect: target } };
      }
      if (options.required) {
        const target = options.pages.enrol
          ? new URL(options.pages.enrol, ctx.url).href
          : `${base}/two-factor/enrol`;
        return { pause: { redirect: target } };
      }
      return signedIn;
    },
  };
}

/**
 * Two-factor authentication (TOTP and backup codes) for `experimental.extensions`. Needs an
 * adapter with the two-factor methods (`@tessera/memory`, `@tessera/sql`, `@tessera/redis`).
 *
 * @example
 * ```ts
 * import { twoFactor } from "@tessera/core/two-factor"
 * const config = { adapter, providers, experimental: { extensions: [twoFactor({ issuer: "Example" })] } }
 * ```
 */
export function twoFactor(options: TwoFactorOptions = {}): TesseraExtension {
  const resolved: Resolved = {
    totp: { ...DEFAULT_TOTP, ...options.totp },
    drift: options.drift ?? 1,
    backupCodes: options.backupCodes ?? 10,
    required: options.required === true,
    passkeyIsMultiFactor: options.passkeyIsMultiFactor !== false,
    emailCode: options.emailCode === true,
    trustMaxAge:
      options.trustedDevice === false ? 0 : (options.trustedDevice?.maxAge ?? 30 * 24 * 60 * 60),
    ...(options.issuer !== undefined && { issuer: options.issuer }),
    pages: options.pages ?? {},
    events: options.events ?? {},
    ...(options.messages && { messages: options.messages }),
  };
  const row: ActionRow = {
    name: TWO_FACTOR_ACTION,
    methods: ["GET", "POST"],
    tail: [
      "verify",
      "enrol",
      "activate",
      "backup-codes",
      "disable",
      "status",
      "forget-devices",
      "email-code",
      "passkey-options",
      "reauthenticate",
    ],
    csrf: "all",
    page: true,
    // Resolved through the redirect callback: where step-up returns to.
    callbackUrl: true,
    reach: "both",
    handler: handlerFor(resolved),
  };
  return defineExtension({
    name: "two-factor",
    actions: [row],
    signInSteps: [stepFor(resolved)],
    sessionFields: authenticationFields,
    keptClaims: ["amr", "auth_time"],
    // "Sign out everywhere else" ends the trust of every other browser too.
    signedOutElsewhere: (ctx, userId) =>
      forgetTrustedDevices(ctx, userId, Math.max(resolved.trustMaxAge, 1)),
    // The account page shows whether the factor is on and links to the manage page.
    accountSection: async (ctx, userId) => {
      const adapter = store(ctx);
      const record = await adapter.getTwoFactor(userId);
      const enabled = Boolean(record?.enabledAt);
      return {
        twoFactor: {
          enabled,
          backupCodesLeft: enabled ? await adapter.countBackupCodes(userId) : 0,
          manageUrl: `${ctx.url.href.replace(/\/$/, "")}/${TWO_FACTOR_ACTION}/status`,
        },
      };
    },
    requires: [
      {
        of: "adapter",
        methods: TWO_FACTOR_ADAPTER_METHODS,
        implementedBy: "@tessera/memory, @tessera/sql, @tessera/redis",
      },
    ],
  });
}
