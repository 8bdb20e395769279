/**
 * Credentials sign-in: `authorize` checks the submitted fields; the returned user gets a session
 * of the configured strategy — JWT or database (Tessera supports both).
 */
import type { AdapterUser } from "../../../adapters.js";
import { CredentialsSignin, MissingCSRF } from "../../../errors.js";
import type { Account, ResponseInternal, User } from "../../../types.js";
import { requireAdapter } from "../../config/adapter.js";
import type { AuthContext, InternalCredentialsProvider } from "../../config/internal.js";
import { createUserOrFind } from "../../session/first-create.js";
import {
  clearSignInLimit,
  credentialsIdentifier,
  limitSignInAttempt,
  nonStringCredential,
} from "../../session/rate-limit.js";
import { authorizeSignIn, completeSignIn } from "../../session/sign-in.js";

/** How a value that is not a string looks, for the log. */
function describeShape(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}

/** For database sessions, the stored user for `user` (created on first sign-in). */
async function storedUserFor(
  ctx: AuthContext,
  user: User,
): Promise<{ user: AdapterUser; isNewUser: boolean }> {
  const adapter = requireAdapter(ctx.config, "Credentials sign-in with database sessions");
  const id = user.id ? String(user.id) : undefined;
  const email = user.email || undefined;
  const stored = async () =>
    (id ? await adapter.getUser(id) : null) ?? (email ? await adapter.getUserByEmail(email) : null);
  const existing = await stored();
  if (existing) return { user: existing, isNewUser: false };
  // Two first sign-ins at once: the one whose create the store refuses finds the other's user.
  const created = await createUserOrFind(
    ctx,
    {
      id: id ?? crypto.randomUUID(),
      name: user.name ?? null,
      email: user.email ?? "",
      image: user.image ?? null,
      emailVerified: null,
    },
    stored,
  );
  if (created.isNewUser) await ctx.config.events.createUser?.({ user: created.user });
  return created;
}

/** Handles `POST /callback/<credentials id>`. */
export async function callbackWithCredentials(
  ctx: AuthContext,
  provider: InternalCredentialsProvider,
): Promise<ResponseInternal> {
  const { request } = ctx;
  if (request.method !== "POST") return { redirect: `${ctx.url.href}/signin` };
  // Login CSRF defence: a foreign site must not sign a victim into the attacker's account.
  if (!ctx.csrfTokenVerified)
    throw new MissingCSRF("The credentials form was posted without a valid csrfToken.");
  const credentials = { ...(request.body ?? {}) };
  // Rate-limit bypass: `{"username": ["ada"]}` is not counted under "ada", yet `authorize` may
  // read it as "ada". Forms post strings only, so any other shape is refused before counting.
  const malformed = nonStringCredential(provider.credentials, credentials);
  if (malformed !== undefined)
    throw new CredentialsSignin(
      `The credentials field "${malformed}" was posted as ${describeShape(credentials[malformed])}; credentials fields must be strings (a form always posts strings). Send each field as a string in a JSON body.`,
    );
  // Password guessing: attempts per identifier and per client IP are limited before authorize.
  const identifier = credentialsIdentifier(provider.credentials, credentials);
  await limitSignInAttempt(ctx, "credentials", identifier);
  // `authorize` gets a fresh Request: the original body stream has been read already.
  const forwarded = new Request(request.url, {
    method: "POST",
    headers: request.headers,
    body: JSON.stringify(credentials),
  });
  const authorized = await provider.authorize(credentials, forwarded);
  // The message names the provider only: the submitted credentials never reach the log.
  if (!authorized)
    throw new CredentialsSignin(
      `authorize() of the "${provider.id}" credentials provider returned null: the submitted credentials were refused.`,
    );

  let user: User | AdapterUser = {
    ...authorized,
    id: authorized.id?.toString() ?? crypto.randomUUID(),
  };
  let isNewUser = false;
  if (ctx.config.session.strategy === "database")
    ({ user, isNewUser } = await storedUserFor(ctx, user));
  const account: Account = {
    providerAccountId: String(user.id),
    type: "credentials",
    provider: provider.id,
  };
  const redirect = await authorizeSignIn(ctx, { user, account, credentials: credentials as never });
  if (redirect) return { redirect };
  const completed = await completeSignIn(ctx, { user, account, isNewUser });
  await clearSignInLimit(ctx, "credentials", identifier);
  return completed;
}
