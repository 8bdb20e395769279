/**
 * `@tessera/core/two-factor/client`: the two-factor functions for the browser, over
 * `callAuthAction`, so they work with every integration's endpoint unchanged. Nothing here
 * imports server code.
 *
 * @example
 * ```ts
 * import { twoFactorClient } from "@tessera/core/two-factor/client"
 * const twoFactor = twoFactorClient({ baseUrl: "", basePath: "/auth" })
 * const { qrSvg } = await twoFactor.enrol()
 * ```
 */
import { callAuthAction } from "../../lib/client/action.js";
import type { AuthEndpoint } from "../../lib/client/endpoint.js";
import { passkeyAssertion } from "../../lib/client/webauthn.js";

/** The signed-in user's factor. */
export interface TwoFactorClientStatus {
  enabled: boolean;
  pending: boolean;
  backupCodesLeft: number;
}

/** The outcome of a code posted from the browser. */
export interface TwoFactorClientResult {
  ok: boolean;
  /** Why it was refused: `TwoFactorCodeInvalid`, `RateLimited`, `NoPausedSignIn`, … */
  error?: string;
  /** Where to go next (the end of the sign-in), when the server named a place. */
  url?: string;
  /** New backup codes (activation, regeneration): show them once. */
  backupCodes?: string[];
}

/** The two-factor functions for one endpoint. */
export interface TwoFactorClient {
  /** The signed-in user's factor, or null when signed out. */
  status(): Promise<TwoFactorClientStatus | null>;
  /** Starts enrolment: the key, its `otpauth://` URI and its QR code as SVG markup. */
  enrol(): Promise<{ secret: string; uri: string; qrSvg: string } | null>;
  activate(code: string): Promise<TwoFactorClientResult>;
  /** The challenge of a paused sign-in: an authenticator code or a backup code. */
  /** `trustDevice: true`: don't ask again on this browser (when the server offers it). */
  verify(
    code: ({ code: string } | { backupCode: string }) & { trustDevice?: boolean },
  ): Promise<TwoFactorClientResult>;
  /**
   * The challenge answered with one of the user's passkeys (the browser asks the authenticator).
   * `error: "NoPasskey"` when the user has none.
   */
  verifyWithPasskey(options?: { trustDevice?: boolean }): Promise<TwoFactorClientResult>;
  regenerateBackupCodes(code: string): Promise<TwoFactorClientResult>;
  disable(code: string): Promise<TwoFactorClientResult>;
  /** Stops trusting every browser of the signed-in user. */
  forgetTrustedDevices(): Promise<TwoFactorClientResult>;
}

function result(answer: { ok: boolean; data: unknown; url: string | null }): TwoFactorClientResult {
  const data = (answer.data ?? {}) as { error?: unknown; backupCodes?: unknown };
  return {
    ok: answer.ok,
    ...(typeof data.error === "string" && { error: data.error }),
    ...(answer.url !== null && { url: answer.url }),
    ...(Array.isArray(data.backupCodes) && { backupCodes: data.backupCodes as string[] }),
  };
}

/**
 * The two-factor client for `endpoint` (where the auth routes live).
 *
 * @example
 * ```ts
 * const outcome = await twoFactorClient(endpoint).verify({ code: "123456" })
 * if (outcome.ok && outcome.url) window.location.href = outcome.url
 * ```
 */
export function twoFactorClient(endpoint: AuthEndpoint): TwoFactorClient {
  const post = async (path: string, body: Record<string, unknown>) =>
    result(await callAuthAction(endpoint, `two-factor/${path}`, body));
  return {
    async status() {
      const answer = await callAuthAction<TwoFactorClientStatus>(endpoint, "two-factor/status");
      return answer.ok ? answer.data : null;
    },
    async enrol() {
      const answer = await callAuthAction<{ secret: string; uri: string; qrSvg: string }>(
        endpoint,
        "two-factor/enrol",
        {},
      );
      return answer.ok ? answer.data : null;
    },
    activate: (code) => post("activate", { code }),
    verify: (code) => post("verify", code),
    async verifyWithPasskey(extra = {}) {
      const offered = await callAuthAction<{ options?: Record<string, unknown>; error?: string }>(
        endpoint,
        "two-factor/passkey-options",
      );
      if (!offered.ok || !offered.data?.options)
        return { ok: false, error: offered.data?.error ?? "NoPasskey" };
      const passkey = await passkeyAssertion(offered.data.options);
      return post("verify", { passkey, ...extra });
    },
    regenerateBackupCodes: (code) => post("backup-codes", { code }),
    disable: (code) => post("disable", { code }),
    forgetTrustedDevices: () => post("forget-devices", {}),
  };
}
