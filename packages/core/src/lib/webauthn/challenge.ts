/**
 * The WebAuthn challenge cookie: the options request seals the challenge (and, for a
 * registration, who is registering) into an encrypted, provider-bound cookie that lives 15
 * minutes; the callback consumes it once.
 *
 * The format is Auth.js's, so a ceremony started on one library finishes on the other during a
 * switch: the cookie (salt = its own name) holds `{ value, provider }`, where `value` is a second
 * JWE (salt `encodedWebauthnChallenge`) of `{ challenge, registerData }`.
 */
import type { AdapterUser } from "../../adapters.js";
import { WebAuthnVerificationError } from "../../errors.js";
import type { Cookie, User } from "../../types.js";
import type { AuthContext } from "../config/internal.js";
import { decodeJwt, encodeJwt } from "../crypto/jwe.js";
import { CHECK_COOKIE_MAX_AGE } from "../http/cookies.js";

/** Seconds a challenge stays usable (the cookie's lifetime). */
export const CHALLENGE_MAX_AGE = CHECK_COOKIE_MAX_AGE;

const INNER_SALT = "encodedWebauthnChallenge";

/** Who is registering: the new user's details, or the signed-in user (with `id`). */
export type RegisterData = Pick<User, "email" | "name" | "image"> & { id?: string };

/** What the options request stored for the callback. */
export interface ChallengeData {
  /** base64url challenge, as sent to the browser. */
  challenge: string;
  registerData?: RegisterData;
  /** A registration's random WebAuthn user handle (base64url), kept for the Signal API calls. */
  userHandle?: string;
}

/** Keeps only the user fields a registration needs (never tokens or flags of an adapter user). */
export function registerDataOf(user: User | AdapterUser): RegisterData {
  const data: RegisterData = {};
  if (user.id !== undefined && user.id !== null) data.id = String(user.id);
  if (typeof user.email === "string") data.email = user.email;
  if (typeof user.name === "string") data.name = user.name;
  if (typeof user.image === "string") data.image = user.image;
  return data;
}

const MAX_CONSUMED = 10_000;

/**
 * Records `challenge` as used by the app (`consumed`, its state in this process) until it
 * expires; false when it already was. The cookie is deleted on use, but a captured request could
 * be sent again with the same cookie: this refuses that replay even for authenticators whose
 * signature counter stays at 0 (most passkeys). Bounded per app, so another app in the process
 * cannot push this one's entries out; on several servers the counter and the cookie's expiry
 * remain the defence.
 */
function markConsumed(
  consumed: Map<string, number>,
  challenge: string,
  expiresAt: number,
): boolean {
  const now = Date.now();
  const seen = consumed.get(challenge);
  if (seen !== undefined && seen > now) return false;
  if (consumed.size >= MAX_CONSUMED) {
    for (const [key, expiry] of consumed) if (expiry <= now) consumed.delete(key);
    // Still full: forget the oldest entries (insertion order) rather than grow without bound.
    for (const key of consumed.keys()) {
      if (consumed.size < MAX_CONSUMED) break;
      consumed.delete(key);
    }
  }
  consumed.set(challenge, expiresAt);
  return true;
}

/**
 * The cookie carrying `data` for the provider `providerId`.
 *
 * @example
 * ```ts
 * ctx.responseCookies.push(await sealChallenge(ctx, "passkey", { challenge: options.challenge }))
 * ```
 */
export async function sealChallenge(
  ctx: AuthContext,
  providerId: string,
  data: ChallengeData,
): Promise<Cookie> {
  const secret = ctx.config.secrets;
  const option = ctx.cookies.webauthnChallenge;
  const inner = await encodeJwt({
    secret,
    salt: INNER_SALT,
    maxAge: CHALLENGE_MAX_AGE,
    token: {
      challenge: data.challenge,
      ...(data.registerData && { registerData: data.registerData }),
      ...(data.userHandle && { userHandle: data.userHandle }),
    },
  });
  const value = await encodeJwt({
    secret,
    salt: option.name,
    maxAge: CHALLENGE_MAX_AGE,
    token: { value: inner, provider: providerId },
  });
  return {
    name: option.name,
    value,
    options: { ...option.options, expires: new Date(Date.now() + CHALLENGE_MAX_AGE * 1000) },
  };
}

function refuse(message: string, cause?: unknown): never {
  throw new WebAuthnVerificationError(
    message,
    cause === undefined ? undefined : { cause: cause as Error },
  );
}

/**
 * Reads and consumes the challenge cookie for `providerId`: the cookie is deleted on every
 * outcome (single use) and a challenge is accepted once per app and process. Throws
 * `WebAuthnVerificationError` when the cookie is missing, expired, tampered, made for another
 * provider, or already used.
 */
export async function consumeChallenge(
  ctx: AuthContext,
  providerId: string,
): Promise<ChallengeData> {
  const option = ctx.cookies.webauthnChallenge;
  const cookieValue = ctx.request.cookies[option.name];
  if (cookieValue !== undefined)
    ctx.responseCookies.push({
      name: option.name,
      value: "",
      options: { ...option.options, maxAge: 0 },
    });
  if (!cookieValue)
    refuse(
      "The WebAuthn challenge cookie is missing: request options first (a challenge lives 15 minutes).",
    );

  const secret = ctx.config.secrets;
  let outer: Record<string, unknown> | null;
  let inner: Record<string, unknown> | null;
  try {
    outer = await decodeJwt({ token: cookieValue, secret, salt: option.name });
    inner =
      typeof outer?.value === "string"
        ? await decodeJwt({ token: outer.value, secret, salt: INNER_SALT })
        : null;
  } catch (error) {
    refuse("The WebAuthn challenge cookie is invalid or expired.", error);
  }
  // Cross-provider defence: a challenge issued for one provider never completes another's
  // ceremony (their verification options, e.g. user verification, differ).
  if (outer?.provider !== providerId)
    refuse(`The WebAuthn challenge was issued for another provider than "${providerId}".`);
  const challenge = inner?.challenge;
  if (typeof challenge !== "string" || challenge === "")
    refuse("The WebAuthn challenge cookie holds no challenge.");
  const registerData = inner?.registerData;
  if (registerData !== undefined && (registerData === null || typeof registerData !== "object"))
    refuse("The WebAuthn challenge cookie holds malformed registration data.");

  const expiresAt =
    typeof inner?.exp === "number" ? inner.exp * 1000 : Date.now() + CHALLENGE_MAX_AGE * 1000;
  // Replay defence: the same challenge (and thus the same signed response) is accepted once.
  if (!markConsumed(ctx.config.state.consumedChallenges, challenge, expiresAt))
    refuse("This WebAuthn challenge was already used.");
  const userHandle = inner?.userHandle;
  return {
    challenge,
    ...(registerData !== undefined && { registerData: registerData as RegisterData }),
    ...(typeof userHandle === "string" && userHandle.length <= 128 && { userHandle }),
  };
}
