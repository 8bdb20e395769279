/**
 * Registration and authentication options (W3C WebAuthn §5.4 PublicKeyCredentialCreationOptions,
 * §5.5 PublicKeyCredentialRequestOptions) and the decision which of the two a request gets.
 */
import type { AdapterUser } from "../../adapters.js";
import type { Cookie, User } from "../../types.js";
import { requireAdapter } from "../config/adapter.js";
import type { AuthContext } from "../config/internal.js";
import type {
  WebAuthnConfig,
  WebAuthnUserInfoOptions,
  WebAuthnUserInfoRequest,
} from "../provider-types.js";
import { type RegisterData, registerDataOf, sealChallenge } from "./challenge.js";
import { descriptorOf } from "./credential.js";
import { webauthnLibrary } from "./library.js";
import { relyingPartyFor } from "./relying-party.js";

/** The two ceremonies. */
export type WebAuthnAction = "register" | "authenticate";

/** What `getUserInfo` returns: a user, and whether it exists already. */
export interface UserInfo {
  user: User | AdapterUser;
  exists: boolean;
}

/** Longest e-mail address accepted (RFC 5321 §4.5.3.1 path limit). */
const MAX_EMAIL_LENGTH = 320;

/** Normalises a typed address; `undefined` when it is not plausibly one. */
export function normalizeEmail(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const email = value.trim().toLowerCase();
  if (email.length > MAX_EMAIL_LENGTH || !/^[^\s@]+@[^\s@]+$/.test(email)) return undefined;
  return email;
}

/**
 * The default `getUserInfo`: the user named by the `email` parameter (query of a GET, body of a
 * POST), existing or not; `null` without a usable address.
 */
export async function defaultGetUserInfo(
  options: WebAuthnUserInfoOptions,
  request: WebAuthnUserInfoRequest,
): Promise<UserInfo | null> {
  const email = normalizeEmail(
    request.method === "POST" ? request.body?.email : request.query.email,
  );
  if (!email) return null;
  const existing = await options.adapter.getUserByEmail(email);
  return existing ? { user: existing, exists: true } : { user: { email }, exists: false };
}

/**
 * Which ceremony an options request gets (the rules Auth.js applies):
 * - `authenticate` is always allowed;
 * - `register` needs a user, and either a session (adding a passkey) or an unknown user (sign-up);
 * - without `action`, a signed-out request authenticates, or registers an unknown user.
 * Returns `null` when the request makes no sense (e.g. registering someone else's address).
 */
export function inferAction(
  requested: string | undefined,
  signedIn: boolean,
  info: UserInfo | null,
): WebAuthnAction | null {
  const exists = info?.exists ?? false;
  switch (requested) {
    case "authenticate":
      return "authenticate";
    case "register":
      return info?.user && signedIn === exists ? "register" : null;
    case undefined:
      if (signedIn) return null;
      return info?.user && !exists ? "register" : "authenticate";
    default:
      return null;
  }
}

/** Options JSON for the browser plus the challenge cookie. */
export interface OptionsResult<T> {
  options: T;
  cookie: Cookie;
}

/**
 * Registration options for `user` (the signed-in user adding a passkey, or a new user). The
 * user's existing credentials are excluded so an authenticator is not registered twice.
 */
export async function registrationOptions(
  ctx: AuthContext,
  provider: WebAuthnConfig,
  user: User | AdapterUser,
) {
  const library = webauthnLibrary(provider);
  const rp = relyingPartyFor(provider, ctx.url);
  const registerData: RegisterData = registerDataOf(user);
  const existing = registerData.id
    ? await requireAdapter(ctx.config, "WebAuthn").listAuthenticatorsByUserId(registerData.id)
    : [];
  const userName = registerData.email || registerData.name || registerData.id || "";
  // The user handle is random (the library's default): it never reveals the user id, and the
  // credential is tied to the user through the stored authenticator instead.
  const options = await library.generateRegistrationOptions({
    ...(provider.registrationOptions as object),
    rpID: rp.id,
    rpName: rp.name,
    userName,
    userDisplayName: registerData.name || userName,
    excludeCredentials: existing.map(descriptorOf),
  });
  const cookie = await sealChallenge(ctx, provider.id, {
    challenge: options.challenge,
    registerData,
    userHandle: options.user.id,
  });
  return { options, cookie };
}

/**
 * Authentication options: the user's credentials when the user is known, otherwise none, which
 * lets the browser offer any discoverable credential (passkeys, conditional UI).
 */
export async function authenticationOptions(
  ctx: AuthContext,
  provider: WebAuthnConfig,
  user?: User | AdapterUser,
) {
  const library = webauthnLibrary(provider);
  const rp = relyingPartyFor(provider, ctx.url);
  const userId = user?.id;
  const credentials = userId
    ? await requireAdapter(ctx.config, "WebAuthn").listAuthenticatorsByUserId(String(userId))
    : [];
  const options = await library.generateAuthenticationOptions({
    ...(provider.authenticationOptions as object),
    rpID: rp.id,
    allowCredentials: credentials.map(descriptorOf),
  });
  const cookie = await sealChallenge(ctx, provider.id, { challenge: options.challenge });
  return { options, cookie };
}
