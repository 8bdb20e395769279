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
import { apiEndpoint, composeEmail, postToEmailApi, requireApiKey } from "../lib/email/http-api.js";
import type { EmailUserConfig } from "./email.js";
import type { EmailConfig, SendVerificationRequestParams } from "./index.js";

/** Sends the default e-mail with one personalization; `text/plain` must precede `text/html`. */
async function sendVerificationRequest(params: SendVerificationRequestParams): Promise<void> {
  const { provider } = params;
  const apiKey = requireApiKey(provider);
  const email = composeEmail(params);
  await postToEmailApi(
    provider,
    "SendGrid",
    apiEndpoint(provider, "https://api.sendgrid.com", "/v3/mail/send"),
    {
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
    },
  );
}

/**
 * The SendGrid e-mail provider.
 *
 * @example
 * ```ts
 * SendGrid({ apiKey: process.env.SENDGRID_KEY, from: "no-reply@acme.test" })
 * ```
 */
export default function SendGrid(config: EmailUserConfig = {}): EmailConfig {
  return {
    id: "sendgrid",
    type: "email",
    name: "SendGrid",
    maxAge: 24 * 60 * 60,
    sendVerificationRequest,
    options: config,
  };
}
