/**
 * `POST /callback/<webauthn id>` with `{ action: "register" | "authenticate", data }`, where
 * `data` is the serialised credential (a JSON string in forms, or an object in JSON bodies).
 * Verifies the registration or assertion, then signs in through the one session issuer.
 *
 * No CSRF token is required here, as in Auth.js (whose WebAuthn clients do not all send one).
 * Login CSRF needs a response signed over the challenge in the *victim's* cookie, and that cookie
 * is HttpOnly, encrypted, bound to this provider, single use and — being SameSite=Lax — not even
 * sent with a cross-site POST; a response the attacker made with their own authenticator is
 * signed over their own challenge and fails verification. The challenge cookie therefore binds
 * the ceremony to the browser that started it, which is what the CSRF token would do.
 */
import type { AdapterAccount, AdapterUser } from "../../../adapters.js";
import { AccountNotLinked, WebAuthnVerificationError } from "../../../errors.js";
import type { Account, ResponseInternal } from "../../../types.js";
import { requireAdapter } from "../../config/adapter.js";
import type { AuthContext, InternalWebAuthnProvider } from "../../config/internal.js";
import { limitSignInAttempt } from "../../session/rate-limit.js";
import { authorizeSignIn, completeSignIn, resolveUser } from "../../session/sign-in.js";
import { currentSessionUser } from "../../session/signed-in.js";
import { type ChallengeData, consumeChallenge } from "../../webauthn/challenge.js";
import { storedCredentialId } from "../../webauthn/credential.js";
import { webauthnLibrary } from "../../webauthn/library.js";
import { recordPasskeyUse } from "../../webauthn/passkeys.js";
import { relyingPartyFor } from "../../webauthn/relying-party.js";
import {
  parseCredentialResponse,
  verifyAuthentication,
  verifyRegistration,
} from "../../webauthn/verify.js";

type CredentialResponse = ReturnType<typeof parseCredentialResponse>;

/** Signs in the owner of the credential that made the assertion. */
async function authenticate(
  ctx: AuthContext,
  provider: InternalWebAuthnProvider,
  challenge: ChallengeData,
  response: CredentialResponse,
): Promise<ResponseInternal> {
  const adapter = requireAdapter(ctx.config, "WebAuthn");
  if (challenge.registerData)
    throw new WebAuthnVerificationError(
      "A registration challenge cannot complete a sign-in: request authentication options.",
    );
  const credentialID = storedCredentialId(response.id);
  const authenticator = await adapter.getAuthenticator(credentialID);
  if (!authenticator)
    throw new WebAuthnVerificationError("No registered authenticator has this credential id.");

  const newCounter = await verifyAuthentication(
    webauthnLibrary(provider),
    provider,
    relyingPartyFor(provider, ctx.url),
    challenge.challenge,
    response,
    authenticator,
  );
  await adapter.updateAuthenticatorCounter(authenticator.credentialID, newCounter);

  // The account ties the credential to this provider: a credential registered through another
  // WebAuthn provider (with other verification rules) does not sign in here.
  const account = await adapter.getAccount(authenticator.providerAccountId, provider.id);
  if (!account || account.userId !== authenticator.userId)
    throw new WebAuthnVerificationError(
      `The credential is not linked to an account of the provider "${provider.id}".`,
    );
  const user = await adapter.getUser(account.userId);
  if (!user) throw new WebAuthnVerificationError("The credential's user no longer exists.");
  const signedIn = await currentSessionUser(ctx);
  // Account confusion defence: a session never silently switches to another user's passkey.
  if (signedIn && signedIn.id !== user.id)
    throw new AccountNotLinked("This passkey belongs to another user. Sign out first.");

  const redirect = await authorizeSignIn(ctx, { user, account });
  if (redirect) return { redirect };
  const userHandle = response.response.userHandle;
  await recordPasskeyUse(
    ctx,
    { userId: user.id, credentialID: authenticator.credentialID },
    {
      lastUsedAt: new Date(),
      // Fills in the handle of a passkey registered before it was recorded.
      ...(typeof userHandle === "string" && userHandle.length <= 128 && { userHandle }),
    },
  );
  return completeSignIn(ctx, { user, account, isNewUser: false });
}

/** Stores a new credential for a new user or for the signed-in user, then signs in. */
async function register(
  ctx: AuthContext,
  provider: InternalWebAuthnProvider,
  challenge: ChallengeData,
  response: CredentialResponse,
): Promise<ResponseInternal> {
  const adapter = requireAdapter(ctx.config, "WebAuthn");
  const registerData = challenge.registerData;
  if (!registerData)
    throw new WebAuthnVerificationError(
      "An authentication challenge cannot complete a registration: request registration options.",
    );
  const authenticator = await verifyRegistration(
    webauthnLibrary(provider),
    provider,
    relyingPartyFor(provider, ctx.url),
    challenge.challenge,
    response,
  );

  // The options were issued for a session (registerData.id) or for a signed-out sign-up; the
  // passkey must land with that same user, not with whoever is signed in by now.
  const signedIn = await currentSessionUser(ctx);
  if ((registerData.id ?? null) !== (signedIn?.id ?? null))
    throw new WebAuthnVerificationError(
      "The session changed while the passkey was being created. Start again.",
    );

  const account: Account = {
    type: "webauthn",
    provider: provider.id,
    providerAccountId: authenticator.providerAccountId,
  };
  const profile = {
    ...(registerData.id !== undefined && { id: registerData.id }),
    email: registerData.email ?? null,
    name: registerData.name ?? null,
    image: registerData.image ?? null,
  };
  const redirect = await authorizeSignIn(ctx, {
    user: signedIn ?? profile,
    account,
  });
  if (redirect) return { redirect };

  const resolved = await resolveUser(ctx, profile, account);
  const user = resolved.user as AdapterUser;
  await adapter.createAuthenticator({ ...authenticator, userId: user.id });
  await recordPasskeyUse(
    ctx,
    { userId: user.id, credentialID: authenticator.credentialID },
    { createdAt: new Date(), userHandle: challenge.userHandle ?? null },
  );
  return completeSignIn(ctx, {
    user,
    account: resolved.account as AdapterAccount,
    isNewUser: resolved.isNewUser,
  });
}

/** Handles `/callback/<id>` of a WebAuthn provider. */
export async function callbackWithWebAuthn(
  ctx: AuthContext,
  provider: InternalWebAuthnProvider,
): Promise<ResponseInternal> {
  const { request } = ctx;
  if (request.method !== "POST") return { redirect: `${ctx.url.href}/signin` };
  const action = request.body?.action;
  if (action !== "register" && action !== "authenticate")
    throw new WebAuthnVerificationError(
      'The WebAuthn callback needs `action` "register" or "authenticate".',
    );
  // Consumed first, so the cookie is deleted whatever happens next.
  const challenge = await consumeChallenge(ctx, provider.id);
  const response = parseCredentialResponse(request.body?.data);
  // Assertion floods: attempts per client IP are limited. Not per credential id: an assertion is
  // a signature over a fresh challenge and cannot be guessed, while credential ids are not secret
  // (webauthn-options lists them for a known address), so such a limit would only let anyone
  // lock a user out of their passkeys.
  await limitSignInAttempt(ctx, "webauthn", undefined);
  return action === "authenticate"
    ? authenticate(ctx, provider, challenge, response)
    : register(ctx, provider, challenge, response);
}
