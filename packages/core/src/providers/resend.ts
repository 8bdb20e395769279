/**
 * E-mail sign-in through [Resend](https://resend.com)'s HTTP API (`POST /emails`, bearer key).
 * The API key is read from `AUTH_RESEND_KEY` unless `apiKey` is given.
 *
 * @example
 * ```ts
 * import Resend from "@tessera/core/providers/resend"
 * const config = { adapter, providers: [Resend({ from: "Acme <no-reply@acme.test>" })] }
 * ```
 */
import { apiEndpoint, composeEmail, postToEmailApi, requireApiKey } from "../lib/email/http-api.js";
import type { EmailUserConfig } from "./email.js";
import type { EmailConfig, SendVerificationRequestParams } from "./index.js";

/** Sends the default e-mail with Resend's "send email" endpoint. */
async function sendVerificationRequest(params: SendVerificationRequestParams): Promise<void> {
  const { provider } = params;
  const apiKey = requireApiKey(provider);
  const email = composeEmail(params);
  await postToEmailApi(
    provider,
    "Resend",
    apiEndpoint(provider, "https://api.resend.com", "/emails"),
    {
      headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json" },
      body: JSON.stringify({
        from: email.fromHeader,
        to: [email.to],
        subject: email.subject,
        html: email.html,
        text: email.text,
      }),
    },
  );
}

/**
 * The Resend e-mail provider.
 *
 * @example
 * ```ts
 * Resend({ apiKey: process.env.RESEND_KEY, from: "no-reply@acme.test" })
 * ```
 */
export default function Resend(config: EmailUserConfig = {}): EmailConfig {
  return {
    id: "resend",
    type: "email",
    name: "Resend",
    maxAge: 24 * 60 * 60,
    sendVerificationRequest,
    options: config,
  };
}
