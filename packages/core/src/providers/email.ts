/**
 * The generic e-mail (magic link) provider, id `email`. It sends over SMTP when given a `server`
 * (like {@link Nodemailer}); give it your own `sendVerificationRequest` to deliver the link any
 * other way.
 *
 * @example
 * ```ts
 * import Email from "@tessera/core/providers/email"
 * Email({
 *   async sendVerificationRequest({ identifier, url }) {
 *     await myMailer.send({ to: identifier, subject: "Your sign-in link", text: url })
 *   },
 * })
 * ```
 */
import {
  type NodemailerConfig,
  type NodemailerUserConfig,
  sendWithNodemailer,
} from "./nodemailer.js";

export type {
  EmailConfig,
  EmailProviderSendVerificationRequestParams,
  EmailProviderType,
  EmailUserConfig,
} from "./index.js";

/**
 * The generic e-mail provider. Sends the default e-mail through `server` (SMTP, via the optional
 * `nodemailer` peer) unless `sendVerificationRequest` is given.
 *
 * @example
 * ```ts
 * Email({ server: process.env.EMAIL_SERVER, from: "Acme <no-reply@acme.test>" })
 * ```
 */
export default function Email(config: NodemailerUserConfig = {}): NodemailerConfig {
  return {
    id: "email",
    type: "email",
    name: "Email",
    maxAge: 24 * 60 * 60,
    sendVerificationRequest: sendWithNodemailer,
    options: config,
  };
}
