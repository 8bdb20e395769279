/**
 * `password(options)`: the account flows around a password, built as an extension. It adds one
 * action row, `password`, with the sub-paths `signin` (page), `signup`, `verify`, `forgot`,
 * `reset`, `change` and `delete`. Sign-in itself goes through the `Password` provider and the core's credentials path.
 *
 * No account enumeration: sign-up and "forgot password" answer the same page whether or not the
 * address has an account; the e-mail says what happened. Codes are six digits, kept hashed in the
 * shared store with the user's id (a code for one address never works for another), expire, and
 * are spent by one compare-and-delete (single use, even when two requests race).
 */
import type { AdapterUser } from "../../adapters.js";
import { EmailSignInError, InvalidExtension, RateLimited } from "../../errors.js";
import type { ActionRow, AuthContext, InternalEmailProvider } from "../../lib/config/internal.js";
import { sha256Hex } from "../../lib/crypto/encoding.js";
import { defineExtension } from "../../lib/extension.js";
import type { TesseraExtension } from "../../lib/extension-handle.js";
import { clearChunkedCookie } from "../../lib/http/cookies.js";
import { json } from "../../lib/http/response.js";
import { emailLanguage } from "../../lib/i18n/core/translator.js";
import type { MessageOverrides, Translator } from "../../lib/i18n/messages.js";
import { requestTranslator } from "../../lib/i18n/request.js";
import { endEverySession } from "../../lib/session/end-sessions.js";
import { limitSignInAttempt, sharedStoreOf } from "../../lib/session/rate-limit.js";
import { authorizeSignIn, completeSignIn, issueSession } from "../../lib/session/sign-in.js";
import { signedInUserId } from "../../lib/session/signed-in.js";
import type { Account, ResponseInternal, Theme } from "../../types.js";
import { type BreachedPasswordOptions, breachVerdict } from "./breached.js";
import {
  type PasswordEmailMessages,
  renderChangeEmail,
  renderEmailChangedNotice,
} from "./emails.js";
import {
  DEFAULT_SCRYPT,
  dummyCheck,
  hashPassword,
  type ScryptParams,
  verifyPassword,
} from "./hash.js";
import { type PasswordMessages, passwordMessages } from "./messages/index.js";
import {
  changeEmailPage,
  changePage,
  confirmEmailPage,
  deletePage,
  forgotPage,
  type PasswordPageContext,
  resetPage,
  type SignUpField,
  signInPage,
  signUpPage,
  verifyPage,
} from "./pages.js";
import { checkPassword, type PasswordPolicy, resolvePolicy } from "./policy.js";
import { canonicalEmail, NO_USER_ID } from "./provider.js";
import { PASSWORD_ADAPTER_METHODS, type PasswordAdapter } from "./storage.js";

/** The name of the action row: `<basePath>/password/<sub-path>`. */
export const PASSWORD_ACTION = "password";

/** One e-mail of the password flows. */
export interface PasswordEmail {
  /**
   * `verify`: the code after sign-up; `reset`: the code after "forgot password";
   * `exists`: someone tried to sign up with an address that has an account (it carries a reset
   * code, so the owner can get in); `change-email`: the code that confirms a new address, sent
   * to it; `email-changed`: the notice to the old address once the new one replaced it (if the
   * owner did not ask for it, "forgot password" on the old address tells them the account moved).
   */
  kind: "verify" | "reset" | "exists" | "change-email" | "email-changed";
  to: string;
  /** Six digits (empty in `email-changed`, which carries no code). */
  code: string;
  /** The link that fills the code in (in `email-changed`: the "forgot password" page). */
  url: string;
  expires: Date;
  /** In `change-email` and `email-changed`: the address the account moves to. */
  newEmail?: string;
}

/** Options of {@link password}. */
export interface PasswordOptions<Fields = Record<string, never>> {
  /** scrypt parameters for new hashes (use the same as `Password({ scrypt })`). */
  scrypt?: ScryptParams;
  policy?: PasswordPolicy;
  /**
   * Refuse new passwords found in known breaches ("Have I Been Pwned" range API, k-anonymity:
   * only a 5-character SHA-1 prefix leaves the server); on by default, failing open with a
   * warning when the service is unreachable. `false` turns the check off.
   */
  breachedPasswords?: BreachedPasswordOptions | false;
  /**
   * E-mail the address a code before the first sign-in; default true. With `false` sign-up signs
   * in at once, and so tells whoever signs up whether the address was free.
   */
  verifyEmail?: boolean;
  /** Minutes a code stays valid; default 15. */
  codeMaxAge?: number;
  /**
   * Sends the e-mails. Default: the configured e-mail provider's `sendVerificationRequest`, with
   * the code as `token` and the link as `url`.
   */
  send?: (email: PasswordEmail, ctx: { request: Request }) => Promise<void>;
  /**
   * Words for the change-of-address e-mails in every language, by the keys of
   * `PASSWORD_EMAIL_MESSAGES`.
   *
   * @deprecated The e-mails speak the reader's language; change their texts by language with
   * `messages` (`password.changeEmailMail.*`, `password.emailChangedMail.*`). Words given here
   * still apply, in every language.
   */
  emailMessages?: Partial<PasswordEmailMessages>;
  /**
   * Receives each e-mail's sending, which runs off the response path (so that the answer takes as
   * long whether or not the address has an account). Default: it runs in the background and a
   * failure is logged. On a platform that stops work once the response is sent (serverless
   * functions, Workers), hand it to the platform's `waitUntil`.
   *
   * @example
   * ```ts
   * password({ deliver: (sending) => waitUntil(sending) }) // @vercel/functions
   * ```
   */
  deliver?: (sending: Promise<void>) => void;
  /**
   * More inputs on the sign-up form, validated by the app (see {@link SignUpFields}); what
   * `validate` returns reaches `events.signUp` as `fields`.
   */
  signUpFields?: SignUpFields<Fields>;
  /** Events; a handler that throws is logged, never breaks the flow. */
  events?: PasswordEvents<Fields>;
  /**
   * Your texts for the password pages and their refusals, by locale: keys are those of the
   * English dictionary (`password.signIn.title`, …; a typo does not compile). See
   * docs/guides/languages.md.
   *
   * @example
   * ```ts
   * password({ messages: { de: { "password.signIn.forgot": "Passwort verloren?" } } })
   * ```
   */
  messages?: MessageOverrides<PasswordMessages>;
}

/**
 * Extra sign-up inputs and their validation: `fields` draws them (by form name), `validate` gets
 * the posted values (strings; an absent or non-string one as `""`) and answers what to keep, or
 * a message shown above the form.
 *
 * @example
 * ```ts
 * password({
 *   signUpFields: {
 *     fields: { company: { label: "Company", required: true }, terms: { label: "I accept the terms", type: "checkbox", required: true } },
 *     validate: ({ company, terms }) =>
 *       terms === "on" && company ? { data: { company } } : { error: "Name your company and accept the terms." },
 *   },
 *   events: { signUp: ({ user, fields }) => saveCompany(user.id, fields.company) },
 * })
 * ```
 */
export interface SignUpFields<Fields> {
  fields: Record<string, SignUpField>;
  validate(
    values: Record<string, string>,
  ): { data: Fields } | { error: string } | Promise<{ data: Fields } | { error: string }>;
}

/**
 * What happened in the password flows, after it happened. Handlers run in the request; one that
 * throws is logged and the flow goes on.
 */
export interface PasswordEvents<Fields = Record<string, never>> {
  /** A new account was made (before its address is verified); `fields` as `validate` returned. */
  signUp?(message: { user: AdapterUser; fields: Fields | undefined }): void | Promise<void>;
  /** The sign-up code (or link) proved the address. */
  emailVerified?(message: { user: AdapterUser }): void | Promise<void>;
  /** A reset code set a new password (every session of the user was ended). */
  passwordReset?(message: { user: AdapterUser }): void | Promise<void>;
  /** The signed-in user changed their password. */
  passwordChanged?(message: { user: AdapterUser }): void | Promise<void>;
  /** The signed-in user's new address was verified and replaced the old one. */
  emailChanged?(message: { user: AdapterUser; previousEmail: string }): void | Promise<void>;
  /** A user deleted their account (after it was removed from the adapter). */
  accountDeleted?(message: { user: AdapterUser }): void | Promise<void>;
}

interface Resolved {
  scrypt: ScryptParams;
  policy: Required<PasswordPolicy>;
  verifyEmail: boolean;
  codeMaxAge: number;
  send?: PasswordOptions["send"];
  emailMessages: Partial<PasswordEmailMessages>;
  deliver: (sending: Promise<void>) => void;
  events: PasswordEvents<unknown>;
  signUpFields?: SignUpFields<unknown>;
  breached: BreachedPasswordOptions | false;
  messages?: MessageOverrides<PasswordMessages>;
}

type Store = PasswordAdapter & {
  getUser(id: string): Promise<AdapterUser | null> | AdapterUser | null;
  deleteUser(id: string): Promise<unknown> | unknown;
  getUserByEmail(email: string): Promise<AdapterUser | null> | AdapterUser | null;
  createUser(user: AdapterUser): Promise<AdapterUser> | AdapterUser;
  updateUser(
    user: Partial<AdapterUser> & Pick<AdapterUser, "id">,
  ): Promise<AdapterUser> | AdapterUser;
};

/** The adapter's methods (present: the config check made sure). */
function store(ctx: AuthContext): Store {
  return ctx.config.rawAdapter as unknown as Store;
}

const codeKey = (kind: "verify" | "reset" | "change-email", email: string) =>
  `tessera:password:${kind}:${email}`;

async function codeHash(kind: string, userId: string, code: string): Promise<string> {
  return sha256Hex(`tessera.password.${kind}\0${userId}\0${code}`);
}

/** Six random digits (a 32-bit draw modulo 10^6: a bias below one in four thousand). */
function newCode(): string {
  const [draw = 0] = crypto.getRandomValues(new Uint32Array(1));
  return String(draw % 1_000_000).padStart(6, "0");
}

/** Why a new password is refused (policy, a known breach), or null when it may be set. */
interface PasswordRefusal {
  status: number;
  error: string;
  message: string;
}

async function newPasswordRefusal(
  ctx: AuthContext,
  options: Resolved,
  t: Translator<PasswordMessages>,
  typed: string,
): Promise<PasswordRefusal | null> {
  const problem = checkPassword(typed, options.policy);
  if (problem)
    return {
      status: 400,
      error: "PasswordPolicy",
      message:
        problem === "too-short"
          ? t("password.error.tooShort", { minLength: options.policy.minLength })
          : t("password.error.tooLong", { maxLength: options.policy.maxLength }),
    };
  if (!options.breached) return null;
  const verdict = await breachVerdict(typed, options.breached, ctx.logger);
  if (verdict === "breached")
    return {
      status: 400,
      error: "PasswordBreached",
      message: t("password.error.breached"),
    };
  if (verdict === "unavailable" && options.breached.failOpen === false)
    return {
      status: 503,
      error: "BreachCheckUnavailable",
      message: t("password.error.checkUnavailable"),
    };
  return null;
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** A plausible address: one @, something either side, no spaces, short enough to store. */
function validEmail(email: string): boolean {
  return email.length <= 320 && /^[^\s@]+@[^\s@]+$/.test(email);
}

function wantsPage(ctx: AuthContext): boolean {
  if (ctx.request.inProcess) return false;
  return (ctx.request.headers.get("accept") ?? "").includes("text/html");
}

/**
 * Stores a new code of `kind` for `email` and sends it, off the response path: the answer must
 * take as long whether or not the address has an account (account enumeration by timing), and a
 * mail server's round trips would give it away. `user` is null for an address without an
 * account: then the same store writes are made (under a hash bound to no user, so it never
 * matches a code) and no e-mail leaves.
 */
async function send(
  ctx: AuthContext,
  options: Resolved,
  kind: PasswordEmail["kind"],
  email: string,
  user: AdapterUser | null,
): Promise<void> {
  const stored = kind === "verify" ? "verify" : "reset";
  const code = newCode();
  const shared = sharedStoreOf(ctx.config);
  await shared.delete(codeKey(stored, email));
  await shared.add(
    codeKey(stored, email),
    await codeHash(stored, user?.id ?? NO_USER_ID, code),
    options.codeMaxAge,
  );
  // The sender is resolved before the answer, so a config without one fails loudly here.
  const deliver = senderOf(ctx, options);
  if (!user) return;
  const query = new URLSearchParams({ email, code });
  dispatch(ctx, options, deliver, {
    kind,
    to: email,
    code,
    url: `${ctx.url.href.replace(/\/$/, "")}/password/${stored}?${query}`,
    expires: new Date(Date.now() + options.codeMaxAge * 1000),
  });
}

/** Sends `message` off the response path; a failure is logged. */
function dispatch(
  ctx: AuthContext,
  options: Resolved,
  deliver: (email: PasswordEmail) => Promise<void>,
  message: PasswordEmail,
): void {
  // Started in a later task, so that not even the sender's synchronous start (building a
  // transport, rendering the e-mail) is paid on the response path of an address with an account.
  const started = new Promise<void>((resolve) => setTimeout(resolve, 0));
  const sending = started
    .then(() => deliver(message))
    .catch((error: unknown) => {
      const cause = error instanceof Error ? error : new Error(String(error));
      ctx.logger.error(
        new EmailSignInError(
          `Sending the password e-mail (${message.kind}) failed: ${cause.message}`,
          { cause },
        ),
      );
    });
  options.deliver(sending);
}

/**
 * The e-mails whose wording is not a sign-in's get their own: the code for a new address, and the
 * notice to the old one. The others (verify, reset, exists) are a code and a link, which the
 * provider's e-mail says well.
 */
function dedicatedMessage(email: PasswordEmail, theme: Theme, options: Resolved, locale: string) {
  if (email.kind !== "change-email" && email.kind !== "email-changed") return undefined;
  const input = {
    url: email.url,
    newEmail: email.newEmail ?? email.to,
    expires: email.expires,
    theme,
    locale,
    ...(options.messages && { overrides: options.messages }),
    messages: options.emailMessages,
    ...(email.code && { code: email.code }),
  };
  return email.kind === "change-email" ? renderChangeEmail(input) : renderEmailChangedNotice(input);
}

/** How the e-mails leave: `password({ send })`, else the configured e-mail provider. */
function senderOf(ctx: AuthContext, options: Resolved): (email: PasswordEmail) => Promise<void> {
  const request = ctx.request.request;
  const custom = options.send;
  if (custom) return async (email) => custom(email, { request });
  const provider = ctx.providers.find(
    (candidate): candidate is InternalEmailProvider => candidate.type === "email",
  );
  if (!provider)
    throw new InvalidExtension(
      "password() sends codes by e-mail and the config has no e-mail provider: add one (Nodemailer, Resend, …) or pass password({ send }).",
    );
  const theme = ctx.config.theme;
  const language = emailLanguage(ctx);
  // The reader's language, chosen as for the sign-in e-mail (the request's locale).
  const locale = requestTranslator(ctx, passwordMessages, options.messages).locale;
  return async (email) => {
    const message = dedicatedMessage(email, theme, options, locale);
    await provider.sendVerificationRequest({
      identifier: email.to,
      token: email.code,
      expires: email.expires,
      url: email.url,
      provider,
      theme,
      request,
      ...language,
      ...(message && { message }),
    });
  };
}

/** Runs the app's handler of `name`; one that throws is logged and the flow goes on. */
async function emit<Name extends keyof PasswordEvents<unknown>>(
  ctx: AuthContext,
  options: Resolved,
  name: Name,
  message: Parameters<NonNullable<PasswordEvents<unknown>[Name]>>[0],
): Promise<void> {
  const handler = options.events[name] as
    | ((message: Parameters<NonNullable<PasswordEvents<unknown>[Name]>>[0]) => unknown)
    | undefined;
  try {
    await handler?.(message);
  } catch (error) {
    ctx.logger.error(error instanceof Error ? error : new Error(String(error)));
  }
}

/**
 * The extra sign-up values as the app's `validate` judged them: `data` to keep, or the message
 * for the form. Only declared names are read, and only strings (a form posts nothing else).
 */
async function validateSignUpFields(
  options: Resolved,
  body: Record<string, unknown>,
): Promise<{ data: unknown } | { error: string }> {
  const declared = options.signUpFields;
  if (!declared) return { data: undefined };
  const values = Object.fromEntries(
    Object.keys(declared.fields).map((name) => [name, text(body[name]).slice(0, 1000)]),
  );
  return declared.validate(values);
}

/** Spends the code of `kind` for `email` when it is the right one: true once. */
async function useCode(
  ctx: AuthContext,
  kind: "verify" | "reset",
  user: AdapterUser | null,
  email: string,
  code: string,
): Promise<boolean> {
  const digits = code.replace(/\s/g, "");
  if (!user || !/^\d{6}$/.test(digits)) return false;
  return sharedStoreOf(ctx.config).deleteIf(
    codeKey(kind, email),
    await codeHash(kind, user.id, digits),
  );
}

/**
 * The account a password sign-in or re-issue presents to the core, with the request's provider
 * set to the password provider (the callbacks and events see which provider signed in).
 */
function passwordAccount(ctx: AuthContext, user: AdapterUser): Account {
  const provider = ctx.providers.find((candidate) => candidate.id === "password");
  if (provider) ctx.provider = provider;
  return { providerAccountId: user.id, type: "credentials", provider: provider?.id ?? "password" };
}

/** Signs `user` in through the core's path: `signIn` callback, sign-in steps, session. */
async function signIn(ctx: AuthContext, user: AdapterUser, isNewUser: boolean) {
  const account = passwordAccount(ctx, user);
  const redirect = await authorizeSignIn(ctx, { user, account });
  if (redirect) return { redirect };
  return completeSignIn(ctx, { user, account, isNewUser });
}

/**
 * Step-up for the account changes (password, address, deletion): the signed-in user re-enters
 * their password, since a session left open, or stolen, must not be enough. Answers the user when
 * `typed` is their password, else null (a user without a password pays for one scrypt all the
 * same). Guesses are counted per user and per IP.
 */
async function provePassword(
  ctx: AuthContext,
  options: Resolved,
  userId: string,
  typed: string,
): Promise<AdapterUser | null> {
  await limitSignInAttempt(ctx, "credentials", `user:${userId}`);
  const adapter = store(ctx);
  const stored = await adapter.getPasswordHash(userId);
  const valid = stored
    ? (await verifyPassword(typed, stored, options.scrypt)).valid
    : await dummyCheck(typed, options.scrypt);
  return valid ? adapter.getUser(userId) : null;
}

/**
 * A new session for `user` in this browser through the core's one session-issuing path, after
 * every session was ended: its claims (the e-mail in a JWT) are read afresh from `user`.
 */
async function reissueSession(ctx: AuthContext, user: AdapterUser) {
  const account = passwordAccount(ctx, user);
  return issueSession(ctx, { user, account });
}

/**
 * `POST change`: the signed-in user sets a new password, proving the current one first (a
 * session left open, or stolen, must not be enough). Every session of the user ends, and this
 * browser gets a new one.
 */
async function changePassword(
  ctx: AuthContext,
  options: Resolved,
  base: PasswordPageContext,
  refuse: (status: number, error: string, page: ResponseInternal<string>) => ResponseInternal,
): Promise<ResponseInternal> {
  const userId = await signedInUserId(ctx);
  if (!userId)
    return refuse(
      401,
      "NotSignedIn",
      changePage({ ...base, error: base.t("password.error.signInFirst") }),
    );
  const body = ctx.request.body ?? {};
  const typed = text(body.password);
  // The current password first: its guesses are counted, and only its owner reaches the
  // breached-password check.
  const user = await provePassword(ctx, options, userId, text(body.currentPassword));
  const adapter = store(ctx);
  if (!user)
    return refuse(
      403,
      "CurrentPasswordWrong",
      changePage({ ...base, error: base.t("password.error.wrongCurrentPassword") }),
    );
  const refusal = await newPasswordRefusal(ctx, options, base.t, typed);
  if (refusal)
    return refuse(refusal.status, refusal.error, changePage({ ...base, error: refusal.message }));
  await adapter.setPasswordHash(userId, await hashPassword(typed, options.scrypt));
  await endEverySession(ctx, userId);
  await emit(ctx, options, "passwordChanged", { user });
  // Signed in afresh here, without the sign-in steps: this browser just proved the password.
  const cookies = await reissueSession(ctx, user);
  if (!wantsPage(ctx)) return { ...json({ changed: true }), cookies };
  return { redirect: ctx.callbackUrl, cookies };
}

/**
 * `POST delete`: the signed-in user deletes their account, confirming with their password (a
 * session left open, or stolen, must not be enough). Every session ends first; the adapter's
 * `deleteUser` removes the user with their accounts, sessions and password.
 */
async function deleteAccount(
  ctx: AuthContext,
  options: Resolved,
  base: PasswordPageContext,
  refuse: (status: number, error: string, page: ResponseInternal<string>) => ResponseInternal,
): Promise<ResponseInternal> {
  const userId = await signedInUserId(ctx);
  if (!userId)
    return refuse(
      401,
      "NotSignedIn",
      deletePage({ ...base, error: base.t("password.error.signInFirst") }),
    );
  const user = await provePassword(ctx, options, userId, text(ctx.request.body?.currentPassword));
  const adapter = store(ctx);
  if (!user)
    return refuse(
      403,
      "CurrentPasswordWrong",
      deletePage({ ...base, error: base.t("password.error.wrongPassword") }),
    );
  await endEverySession(ctx, userId);
  await adapter.deleteUser(userId);
  await emit(ctx, options, "accountDeleted", { user });
  const cookies = clearChunkedCookie(ctx.request.cookies, ctx.cookies.sessionToken);
  if (!wantsPage(ctx)) return { ...json({ deleted: true }), cookies };
  return { redirect: `${ctx.url.origin}/`, cookies };
}

/**
 * `POST change-email`: the signed-in user asks to move the account to a new address, with their
 * password (step-up). The new address gets a code (and a link filling it in); the old one stays
 * until the code is entered. A new address that has an account gets nothing, and the answer is
 * the same (the signed-in user learns nothing about other accounts).
 */
async function requestEmailChange(
  ctx: AuthContext,
  options: Resolved,
  base: PasswordPageContext,
  refuse: (status: number, error: string, page: ResponseInternal<string>) => ResponseInternal,
): Promise<ResponseInternal> {
  const userId = await signedInUserId(ctx);
  if (!userId)
    return refuse(
      401,
      "NotSignedIn",
      changeEmailPage({ ...base, error: base.t("password.error.signInFirst") }),
    );
  const body = ctx.request.body ?? {};
  const newEmail = canonicalEmail(text(body.email));
  if (!validEmail(newEmail))
    return refuse(
      400,
      "InvalidEmail",
      changeEmailPage({ ...base, error: base.t("password.error.emailRequired") }),
    );
  const user = await provePassword(ctx, options, userId, text(body.currentPassword));
  if (!user)
    return refuse(
      403,
      "CurrentPasswordWrong",
      changeEmailPage({ ...base, email: newEmail, error: base.t("password.error.wrongPassword") }),
    );
  if (newEmail === user.email)
    return refuse(
      400,
      "SameEmail",
      changeEmailPage({ ...base, error: base.t("password.error.sameEmail") }),
    );
  // Mail bombing of the new address: per address and per IP.
  await limitSignInAttempt(ctx, "email-signin", newEmail);
  const adapter = store(ctx);
  const taken = await adapter.getUserByEmail(newEmail);
  const code = newCode();
  const shared = sharedStoreOf(ctx.config);
  const key = codeKey("change-email", newEmail);
  await shared.delete(key);
  // The code is bound to the user and the new address; the user's id travels with it, so the
  // link may be opened on another device.
  await shared.add(
    key,
    `${await codeHash("change-email", `${userId}\0${newEmail}`, code)}${userId}`,
    options.codeMaxAge,
  );
  const deliver = senderOf(ctx, options);
  if (!taken) {
    const query = new URLSearchParams({ email: newEmail, code });
    dispatch(ctx, options, deliver, {
      kind: "change-email",
      to: newEmail,
      newEmail,
      code,
      url: `${ctx.url.href.replace(/\/$/, "")}/password/confirm-email?${query}`,
      expires: new Date(Date.now() + options.codeMaxAge * 1000),
    });
  }
  if (!wantsPage(ctx)) return json({ sent: true });
  return confirmEmailPage({ ...base, email: newEmail, notice: base.t("password.notice.sent") });
}

/**
 * `POST confirm-email`: the code from the new address's e-mail moves the account there (the
 * address is verified by it) and the old address is told. The code proves the new mailbox; the
 * request that made it proved the password.
 */
async function confirmEmailChange(
  ctx: AuthContext,
  options: Resolved,
  base: PasswordPageContext,
  refuse: (status: number, error: string, page: ResponseInternal<string>) => ResponseInternal,
): Promise<ResponseInternal> {
  const body = ctx.request.body ?? {};
  const newEmail = canonicalEmail(text(body.email));
  const again = { ...base, email: newEmail, error: base.t("password.error.wrongCode") };
  await limitSignInAttempt(ctx, "email-callback", newEmail);
  const digits = text(body.code).replace(/\s/g, "");
  const shared = sharedStoreOf(ctx.config);
  const key = codeKey("change-email", newEmail);
  const pending = validEmail(newEmail) ? await shared.get(key) : null;
  const userId = pending?.slice(64) ?? "";
  const expected =
    pending && /^\d{6}$/.test(digits)
      ? await codeHash("change-email", `${userId}\0${newEmail}`, digits)
      : "";
  // Spent by one compare-and-delete: single use, even when two requests race.
  if (!pending || !expected || !(await shared.deleteIf(key, `${expected}${userId}`)))
    return refuse(400, "CodeInvalid", confirmEmailPage(again));
  const adapter = store(ctx);
  const user = await adapter.getUser(userId);
  // The address was taken meanwhile (a sign-up, another change): the account stays where it is.
  if (!user || (await adapter.getUserByEmail(newEmail)))
    return refuse(400, "CodeInvalid", confirmEmailPage(again));
  const previousEmail = user.email;
  // Read before the sessions end: whether this browser is the one of the account's owner.
  const confirmingUserId = await signedInUserId(ctx);
  const moved = await adapter.updateUser({
    id: user.id,
    email: newEmail,
    emailVerified: new Date(),
  });
  const deliver = senderOf(ctx, options);
  // Account takeover shows: the old address learns where its account went, and how to get it back.
  dispatch(ctx, options, deliver, {
    kind: "email-changed",
    to: previousEmail,
    newEmail,
    code: "",
    url: `${ctx.url.href.replace(/\/$/, "")}/password/forgot`,
    expires: new Date(Date.now() + options.codeMaxAge * 1000),
  });
  await emit(ctx, options, "emailChanged", { user: moved, previousEmail });
  // Every session ends, as at a reset: a JWT carries the old address until it is re-issued (and
  // the app may key its data on it), and a session of whoever took the account over through the
  // old address is cut. The browser signed in as the user gets a session with the new address.
  await endEverySession(ctx, user.id);
  // The browser of another account (or of none) keeps what it has.
  const cookies = confirmingUserId === user.id ? await reissueSession(ctx, moved) : [];
  if (!wantsPage(ctx)) return { ...json({ changed: true }), cookies };
  return { redirect: ctx.callbackUrl, cookies };
}

function handlerFor(options: Resolved) {
  return async function passwordAction(ctx: AuthContext): Promise<ResponseInternal> {
    const { method, subAction } = ctx.request;
    const body = ctx.request.body ?? {};
    const query = ctx.request.query;
    const asPage = wantsPage(ctx);
    const base: PasswordPageContext = {
      url: ctx.url,
      theme: ctx.config.theme,
      csrfToken: ctx.csrfToken ?? "",
      callbackUrl: ctx.callbackUrl,
      minLength: options.policy.minLength,
      t: requestTranslator(ctx, passwordMessages, options.messages),
      ...(options.signUpFields && { signUpFields: options.signUpFields.fields }),
    };
    // CSRF: sign-up, verification and reset change state (and sign in); a forged post from
    // another site carries no matching token.
    if (method === "POST" && !ctx.csrfTokenVerified) return json({ error: "MissingCSRF" }, 403);
    if (method === "GET") {
      const email = text(query.email);
      const code = /^\d{6}$/.test(text(query.code)) ? text(query.code) : undefined;
      switch (subAction) {
        case "signup":
          return signUpPage(base);
        case "forgot":
          return forgotPage(base);
        case "verify":
          return verifyPage({ ...base, email, ...(code && { code }) });
        case "reset":
          return resetPage({ ...base, email, ...(code && { code }) });
        case "change":
          return changePage(base);
        case "change-email":
          return changeEmailPage(base);
        case "confirm-email":
          return confirmEmailPage({ ...base, email, ...(code && { code }) });
        case "delete":
          return deletePage(base);
        default:
          return signInPage(base);
      }
    }
    const email = canonicalEmail(text(body.email));
    const refuse = (status: number, error: string, page: ResponseInternal<string>) =>
      asPage ? { ...page, status } : json({ error }, status);
    try {
      switch (subAction) {
        case "signup": {
          const typed = text(body.password);
          const name = text(body.name).trim().slice(0, 200);
          const values = Object.fromEntries(
            Object.keys(base.signUpFields ?? {}).map((field) => [field, text(body[field])]),
          );
          const again = { ...base, email, name, values, status: 400 };
          if (!validEmail(email))
            return refuse(
              400,
              "InvalidEmail",
              signUpPage({ ...again, error: base.t("password.error.emailRequired") }),
            );
          // Mail bombing and mass sign-up: per address and per IP, through the shared store;
          // counted before the breached-password check, so the range API is not ours to flood.
          await limitSignInAttempt(ctx, "email-signin", email);
          const extra = await validateSignUpFields(options, body);
          if ("error" in extra)
            return refuse(400, "SignUpFields", signUpPage({ ...again, error: extra.error }));
          const refusal = await newPasswordRefusal(ctx, options, base.t, typed);
          if (refusal)
            return refuse(
              refusal.status,
              refusal.error,
              signUpPage({ ...again, status: refusal.status, error: refusal.message }),
            );
          const adapter = store(ctx);
          const existing = await adapter.getUserByEmail(email);
          // Enumeration: the owner gets an e-mail, the answer below is the same.
          if (existing) {
            // Enumeration by timing: a new account costs one scrypt, so a taken address does too.
            await hashPassword(typed, options.scrypt);
            await send(ctx, options, "exists", email, existing);
          } else {
            const user = await adapter.createUser({
              id: crypto.randomUUID(),
              email,
              name: name || null,
              image: null,
              emailVerified: options.verifyEmail ? null : new Date(),
            });
            await adapter.setPasswordHash(user.id, await hashPassword(typed, options.scrypt));
            await ctx.config.events.createUser?.({ user });
            await emit(ctx, options, "signUp", { user, fields: extra.data });
            if (!options.verifyEmail) return signIn(ctx, user, true);
            await send(ctx, options, "verify", email, user);
          }
          if (!asPage) return json({ sent: true });
          return verifyPage({ ...base, email, notice: base.t("password.notice.sent") });
        }
        case "verify": {
          await limitSignInAttempt(ctx, "email-callback", email);
          const adapter = store(ctx);
          const user = email ? await adapter.getUserByEmail(email) : null;
          if (!(await useCode(ctx, "verify", user, email, text(body.code))) || !user)
            return refuse(
              400,
              "CodeInvalid",
              verifyPage({ ...base, email, error: base.t("password.error.wrongCode") }),
            );
          const verified = await adapter.updateUser({ id: user.id, emailVerified: new Date() });
          await emit(ctx, options, "emailVerified", { user: verified });
          return signIn(ctx, verified, true);
        }
        case "forgot": {
          if (!validEmail(email))
            return refuse(
              400,
              "InvalidEmail",
              forgotPage({ ...base, error: base.t("password.error.emailRequired") }),
            );
          await limitSignInAttempt(ctx, "email-signin", email);
          const user = await store(ctx).getUserByEmail(email);
          await send(ctx, options, "reset", email, user);
          if (!asPage) return json({ sent: true });
          return resetPage({ ...base, email, notice: base.t("password.notice.sent") });
        }
        case "reset": {
          // Counted first, so neither code guesses nor the breached-password check go unlimited.
          await limitSignInAttempt(ctx, "email-callback", email);
          const typed = text(body.password);
          // The password is checked before the code is spent, so a refused one keeps the code.
          const refusal = await newPasswordRefusal(ctx, options, base.t, typed);
          if (refusal)
            return refuse(
              refusal.status,
              refusal.error,
              resetPage({ ...base, email, code: text(body.code), error: refusal.message }),
            );
          const adapter = store(ctx);
          const user = email ? await adapter.getUserByEmail(email) : null;
          if (!(await useCode(ctx, "reset", user, email, text(body.code))) || !user)
            return refuse(
              400,
              "CodeInvalid",
              resetPage({ ...base, email, error: base.t("password.error.wrongCode") }),
            );
          await adapter.setPasswordHash(user.id, await hashPassword(typed, options.scrypt));
          // A reset proves the mailbox, as the sign-up code does.
          const current = user.emailVerified
            ? user
            : await adapter.updateUser({ id: user.id, emailVerified: new Date() });
          await endEverySession(ctx, user.id);
          await emit(ctx, options, "passwordReset", { user: current });
          return signIn(ctx, current, false);
        }
        case "change":
          return await changePassword(ctx, options, base, refuse);
        case "change-email":
          return await requestEmailChange(ctx, options, base, refuse);
        case "confirm-email":
          return await confirmEmailChange(ctx, options, base, refuse);
        case "delete":
          return await deleteAccount(ctx, options, base, refuse);
        default:
          return json({ error: "BadRequest" }, 400);
      }
    } catch (error) {
      if (!(error instanceof RateLimited)) throw error;
      if (!asPage) return json({ error: "RateLimited" }, 429);
      if (subAction === "change")
        return changePage({ ...base, error: base.t("password.error.tooMany"), status: 429 });
      if (subAction === "change-email")
        return changeEmailPage({ ...base, error: base.t("password.error.tooMany"), status: 429 });
      if (subAction === "confirm-email")
        return confirmEmailPage({
          ...base,
          email,
          error: base.t("password.error.tooMany"),
          status: 429,
        });
      if (subAction === "delete")
        return deletePage({ ...base, error: base.t("password.error.tooMany"), status: 429 });
      const page = subAction === "signup" ? signUpPage : subAction === "forgot" ? forgotPage : null;
      if (page)
        return page({ ...base, email, error: base.t("password.error.tooMany"), status: 429 });
      const codePage = subAction === "verify" ? verifyPage : resetPage;
      return codePage({ ...base, email, error: base.t("password.error.tooMany"), status: 429 });
    }
  };
}

/**
 * Password accounts for `experimental.extensions`: sign-up with e-mail verification, and reset.
 * Needs an adapter with the password methods (`@tessera/memory`, `@tessera/sql`,
 * `@tessera/redis`) and, for the e-mails, an e-mail provider or `send`.
 *
 * @example
 * ```ts
 * import { Password, password } from "@tessera/core/password"
 * const config = { adapter, providers: [Password({ adapter }), Nodemailer({ server })], experimental: { extensions: [password()] } }
 * ```
 */
export function password<Fields = Record<string, never>>(
  options: PasswordOptions<Fields> = {},
): TesseraExtension {
  const resolved: Resolved = {
    scrypt: options.scrypt ?? DEFAULT_SCRYPT,
    policy: resolvePolicy(options.policy),
    verifyEmail: options.verifyEmail !== false,
    codeMaxAge: Math.round((options.codeMaxAge ?? 15) * 60),
    ...(options.send && { send: options.send }),
    emailMessages: options.emailMessages ?? {},
    deliver: options.deliver ?? (() => {}),
    events: (options.events ?? {}) as PasswordEvents<unknown>,
    ...(options.signUpFields && { signUpFields: options.signUpFields }),
    breached: options.breachedPasswords ?? {},
    ...(options.messages && { messages: options.messages }),
  };
  const row: ActionRow = {
    name: PASSWORD_ACTION,
    methods: ["GET", "POST"],
    tail: [
      "signin",
      "signup",
      "verify",
      "forgot",
      "reset",
      "change",
      "change-email",
      "confirm-email",
      "delete",
    ],
    csrf: "all",
    page: true,
    callbackUrl: true,
    reach: "both",
    handler: handlerFor(resolved),
  };
  return defineExtension({
    name: "password",
    actions: [row],
    // The account page shows whether the user has a password and links to change and delete.
    accountSection: async (ctx, userId) => {
      const base = `${ctx.url.href.replace(/\/$/, "")}/${PASSWORD_ACTION}`;
      return {
        password: {
          set: Boolean(await store(ctx).getPasswordHash(userId)),
          changeUrl: `${base}/change`,
          changeEmailUrl: `${base}/change-email`,
          deleteUrl: `${base}/delete`,
        },
      };
    },
    requires: [
      {
        of: "adapter",
        methods: [
          ...PASSWORD_ADAPTER_METHODS,
          "getUser",
          "getUserByEmail",
          "createUser",
          "updateUser",
          "deleteUser",
        ],
        implementedBy: "@tessera/memory, @tessera/sql, @tessera/redis",
      },
    ],
  });
}
