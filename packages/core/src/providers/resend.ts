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
import { composeEmail, emailApiProvider } from "../lib/email/http-api.js";
import type { EmailUserConfig } from "./email.js";
import type { EmailConfig } from "./index.js";

/**
 * The Resend e-mail provider.
 *
 * @example
 * ```ts
 * Resend({ apiKey: process.env.RESEND_KEY, from: "no-reply@acme.test" })
 * ```
 */
export default function Resend(config: EmailUserConfig = {}): EmailConfig {
  const service = { id: "resend", name: "Resend", defaultBase: "https://api.resend.com" };
  // Resend's "send email" endpoint; `to` is a list.
  return emailApiProvider<EmailConfig>(service, config, async (_provider, params, apiKey) => {
    const email = await composeEmail(params);
    return {
      path: "/emails",
      headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json" },
      body: JSON.stringify({
        from: email.fromHeader,
        to: [email.to],
        subject: email.subject,
        html: email.html,
        text: email.text,
      }),
    };
  });
}
