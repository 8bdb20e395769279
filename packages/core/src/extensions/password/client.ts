/**
 * `@tessera/core/password/client`: the password-account functions for the browser, over
 * `callAuthAction`, so they work with every integration's endpoint unchanged. Sign-in itself is
 * the core client's `signIn("password", { email, password })`. Nothing here imports server code.
 *
 * @example
 * ```ts
 * import { passwordClient } from "@tessera/core/password/client"
 * const accounts = passwordClient({ baseUrl: "", basePath: "/auth" })
 * await accounts.signUp({ email: "ada@example.com", password: "correct horse battery staple" })
 * ```
 */
import { callAuthAction } from "../../lib/client/action.js";
import type { AuthEndpoint } from "../../lib/client/endpoint.js";

/** The outcome of a password call from the browser. */
export interface PasswordClientResult {
  ok: boolean;
  /** Why it was refused: `CodeInvalid`, `PasswordPolicy`, `RateLimited`, `CurrentPasswordWrong`, … */
  error?: string;
  /** Where to go next, after a call that signed in (verify, reset). */
  url?: string;
}

/** The password functions for one endpoint. */
export interface PasswordClient {
  /** Sign-up; the answer is the same whether or not the address was free (see the e-mail). */
  signUp(input: { email: string; password: string; name?: string }): Promise<PasswordClientResult>;
  /** The code from the sign-up e-mail; signs in. */
  verify(input: { email: string; code: string }): Promise<PasswordClientResult>;
  /** "Forgot password?": the same answer whether or not the address has an account. */
  requestReset(email: string): Promise<PasswordClientResult>;
  /** The code from the reset e-mail and a new password; signs in. */
  reset(input: { email: string; code: string; password: string }): Promise<PasswordClientResult>;
  /** The signed-in user's new password, with the current one. */
  change(input: { currentPassword: string; password: string }): Promise<PasswordClientResult>;
  /** A code to the signed-in user's new address; the password confirms the request. */
  changeEmail(input: { email: string; currentPassword: string }): Promise<PasswordClientResult>;
  /** The code from the new address's e-mail: the account moves there. */
  confirmEmail(input: { email: string; code: string }): Promise<PasswordClientResult>;
  /** Deletes the signed-in user's account; the password confirms it. */
  deleteAccount(currentPassword: string): Promise<PasswordClientResult>;
}

/**
 * The password client for `endpoint` (where the auth routes live).
 *
 * @example
 * ```ts
 * const outcome = await passwordClient(endpoint).verify({ email, code: "123456" })
 * if (outcome.ok && outcome.url) window.location.href = outcome.url
 * ```
 */
export function passwordClient(endpoint: AuthEndpoint): PasswordClient {
  const post = async (path: string, body: Record<string, unknown>) => {
    const answer = await callAuthAction<{ error?: unknown }>(endpoint, `password/${path}`, body);
    const error = answer.data?.error;
    return {
      ok: answer.ok,
      ...(typeof error === "string" && { error }),
      ...(answer.url !== null && { url: answer.url }),
    };
  };
  return {
    signUp: (input) => post("signup", input),
    verify: (input) => post("verify", input),
    requestReset: (email) => post("forgot", { email }),
    reset: (input) => post("reset", input),
    change: (input) => post("change", input),
    changeEmail: (input) => post("change-email", input),
    confirmEmail: (input) => post("confirm-email", input),
    deleteAccount: (currentPassword) => post("delete", { currentPassword }),
  };
}
