/**
 * E-mail sign-in through [Postmark](https://postmarkapp.com)'s HTTP API (`POST /email`,
 * `X-Postmark-Server-Token`). The server token is read from `AUTH_POSTMARK_KEY` unless `apiKey`
 * is given.
 *
 * @example
 * ```ts
 * import Postmark from "@tessera/core/providers/postmark"
 * const config = { adapter, providers: [Postmark({ from: "Acme <no-reply@acme.test>" })] }
 * ```
 */
import { composeEmail, emailApiProvider } from "../lib/email/http-api.js";
import type { EmailUserConfig } from "./email.js";
import type { EmailConfig } from "./index.js";

/** Configuration of the Postmark provider. */
export interface PostmarkConfig extends EmailConfig {
  /** Message stream to send through. Default `outbound` (transactional). */
  messageStream?: string;
  options?: PostmarkUserConfig;
}

/** What users pass to {@link Postmark}. */
export type PostmarkUserConfig = EmailUserConfig & { messageStream?: string };

/**
 * The Postmark e-mail provider.
 *
 * @example
 * ```ts
 * Postmark({ apiKey: process.env.POSTMARK_TOKEN, from: "no-reply@acme.test" })
 * ```
 */
export default function Postmark(config: PostmarkUserConfig = {}): PostmarkConfig {
  const service = { id: "postmark", name: "Postmark", defaultBase: "https://api.postmarkapp.com" };
  // Postmark's "send a single email" endpoint, authenticated by the server token.
  return emailApiProvider<PostmarkConfig>(service, config, async (provider, params, apiKey) => {
    const email = await composeEmail(params);
    return {
      path: "/email",
      headers: { "X-Postmark-Server-Token": apiKey, "Content-Type": "application/json" },
      body: JSON.stringify({
        From: email.fromHeader,
        To: email.to,
        Subject: email.subject,
        HtmlBody: email.html,
        TextBody: email.text,
        MessageStream: provider.messageStream ?? "outbound",
      }),
    };
  });
}
