/**
 * A passkey as another way through the challenge: authentication options limited to the paused
 * user's own credentials, and an assertion verified against one of them (its counter moved).
 * The challenge is sealed in the WebAuthn challenge cookie and spent on use, as for a passkey
 * sign-in; a credential of another user is no answer.
 */
import type { AdapterAuthenticator } from "../../adapters.js";
import { WebAuthnVerificationError } from "../../errors.js";
import type { AuthContext, InternalWebAuthnProvider } from "../../lib/config/internal.js";
import type { PausedSignIn } from "../../lib/session/sign-in.js";
import { consumeChallenge } from "../../lib/webauthn/challenge.js";
import { storedCredentialId } from "../../lib/webauthn/credential.js";
import { webauthnLibrary } from "../../lib/webauthn/library.js";
import { authenticationOptions } from "../../lib/webauthn/options.js";
import { relyingPartyFor } from "../../lib/webauthn/relying-party.js";
import { parseCredentialResponse, verifyAuthentication } from "../../lib/webauthn/verify.js";
import type { Cookie } from "../../types.js";

/** The WebAuthn provider of the config, when passkeys are on. */
export function passkeyProvider(ctx: AuthContext): InternalWebAuthnProvider | undefined {
  if (!ctx.config.experimental.enableWebAuthn) return undefined;
  return ctx.providers.find(
    (provider): provider is InternalWebAuthnProvider => provider.type === "webauthn",
  );
}

async function credentialsOf(ctx: AuthContext, userId: string): Promise<AdapterAuthenticator[]> {
  const adapter = ctx.config.adapter;
  if (!adapter) return [];
  return adapter.listAuthenticatorsByUserId(userId);
}

/** Whether the paused user has a passkey to answer the challenge with. */
export async function hasPasskey(ctx: AuthContext, paused: PausedSignIn): Promise<boolean> {
  if (!passkeyProvider(ctx)) return false;
  return (await credentialsOf(ctx, String(paused.result.user.id))).length > 0;
}

/** Options for the paused user's passkeys, or null when they have none (or passkeys are off). */
export async function passkeyOptions(
  ctx: AuthContext,
  paused: PausedSignIn,
): Promise<{ options: unknown; cookie: Cookie } | null> {
  const provider = passkeyProvider(ctx);
  if (!provider) return null;
  const userId = String(paused.result.user.id);
  if ((await credentialsOf(ctx, userId)).length === 0) return null;
  return authenticationOptions(ctx, provider, { ...paused.result.user, id: userId });
}

/**
 * Whether `data` (the serialised credential) is a valid assertion by one of `userId`'s passkeys
 * over the challenge this browser was given. The challenge cookie is spent either way.
 */
export async function verifyPasskey(
  ctx: AuthContext,
  userId: string,
  data: unknown,
): Promise<boolean> {
  const provider = passkeyProvider(ctx);
  const adapter = ctx.config.adapter;
  if (!provider || !adapter) return false;
  try {
    const challenge = await consumeChallenge(ctx, provider.id);
    if (challenge.registerData) return false;
    const response = parseCredentialResponse(data);
    const authenticator = await adapter.getAuthenticator(storedCredentialId(response.id));
    // Another user's passkey proves nothing about this user.
    if (!authenticator || authenticator.userId !== userId) return false;
    const counter = await verifyAuthentication(
      webauthnLibrary(provider),
      provider,
      relyingPartyFor(provider, ctx.url),
      challenge.challenge,
      response,
      authenticator,
    );
    await adapter.updateAuthenticatorCounter(authenticator.credentialID, counter);
    return true;
  } catch (error) {
    if (error instanceof WebAuthnVerificationError) {
      ctx.logger.debug(`two-factor passkey refused: ${error.message}`);
      return false;
    }
    throw error;
  }
}
