/**
 * E-mail sign-in through [SendGrid](https://sendgrid.com)'s v3 Mail Send API
 * (`POST /v3/mail/send`, bearer key). The API key is read from `AUTH_SENDGRID_KEY` unless
 * `apiKey` is given; EU sub-users set `apiUrl: "https://api.eu.sendgrid.com"`.
 *
 * @example
 * ```ts
 * import SendGrid from "@tessera/core/providers/sendgrid"
 * const config = { adapter, providers: [SendGrid({ from: "Acme <no-reply@acme.test>" })] }
 * ```
 */
import { composeEmail, emailApiProvider } from "../lib/email/http-api.js";
import type { EmailUserConfig } from "./email.js";
import type { EmailConfig } from "./index.js";

/**
 * The SendGrid e-mail provider.
 *
 * @example
 * ```ts
 * SendGrid({ apiKey: process.env.SENDGRID_KEY, from: "no-reply@acme.test" })
 * ```
 */
export default function SendGrid(config: EmailUserConfig = {}): EmailConfig {
  const service = { id: "sendgrid", name: "SendGrid", defaultBase: "https://api.sendgrid.com" };
  // One personalization; SendGrid requires `text/plain` to precede `text/html`.
  return emailApiProvider<EmailConfig>(service, config, async (_provider, params, apiKey) => {
    const email = await composeEmail(params);
    return {
      path: "/v3/mail/send",
      headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json" },
      body: JSON.stringify({
        personalizations: [{ to: [{ email: email.to }] }],
        from: email.from.name
          ? { email: email.from.address, name: email.from.name }
          : { email: email.from.address },
        subject: email.subject,
        content: [
          { type: "text/plain", value: email.text },
          { type: "text/html", value: email.html },
        ],
      }),
    };
  });
}
