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
import {
  apiEndpoint,
  basicAuthorization,
  composeEmail,
  postToEmailApi,
  requireApiKey,
} from "../lib/email/http-api.js";
import type { EmailUserConfig } from "./email.js";
import type { EmailConfig, SendVerificationRequestParams } from "./index.js";

/** Sends the default e-mail with Forward Email's "create email" endpoint. */
async function sendVerificationRequest(params: SendVerificationRequestParams): Promise<void> {
  const { provider } = params;
  const apiKey = requireApiKey(provider);
  const email = composeEmail(params);
  await postToEmailApi(
    provider,
    "Forward Email",
    apiEndpoint(provider, "https://api.forwardemail.net", "/v1/emails"),
    {
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
    },
  );
}

/**
 * The Forward Email e-mail provider.
 *
 * @example
 * ```ts
 * ForwardEmail({ apiKey: process.env.FORWARDEMAIL_KEY, from: "no-reply@acme.test" })
 * ```
 */
export default function ForwardEmail(config: EmailUserConfig = {}): EmailConfig {
  return {
    id: "forwardemail",
    type: "email",
    name: "Forward Email",
    maxAge: 24 * 60 * 60,
    sendVerificationRequest,
    options: config,
  };
}
