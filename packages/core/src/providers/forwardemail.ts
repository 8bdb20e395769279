/**
 * E-mail sign-in through [Forward Email](https://forwardemail.net)'s API (`POST /v1/emails`,
 * Basic authentication with the API key as user name). The key is read from
 * `AUTH_FORWARDEMAIL_KEY` unless `apiKey` is given.
 *
 * @example
 * ```ts
 * import ForwardEmail from "@tessera/core/providers/forwardemail"
 * const config = { adapter, providers: [ForwardEmail({ from: "no-reply@acme.test" })] }
 * ```
 */
import { basicAuthorization, composeEmail, emailApiProvider } from "../lib/email/http-api.js";
import type { EmailUserConfig } from "./email.js";
import type { EmailConfig } from "./index.js";

/**
 * The Forward Email e-mail provider.
 *
 * @example
 * ```ts
 * ForwardEmail({ apiKey: process.env.FORWARDEMAIL_KEY, from: "no-reply@acme.test" })
 * ```
 */
export default function ForwardEmail(config: EmailUserConfig = {}): EmailConfig {
  const service = {
    id: "forwardemail",
    name: "Forward Email",
    defaultBase: "https://api.forwardemail.net",
  };
  // Forward Email's "create email" endpoint: Basic authentication, the key as user name.
  return emailApiProvider<EmailConfig>(service, config, async (_provider, params, apiKey) => {
    const email = await composeEmail(params);
    return {
      path: "/v1/emails",
      headers: {
        Authorization: basicAuthorization(apiKey, ""),
        "Content-Type": "application/json",
      },
      body: JSON.stringify({
        from: email.fromHeader,
        to: email.to,
        subject: email.subject,
        html: email.html,
        text: email.text,
      }),
    };
  });
}
