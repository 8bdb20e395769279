/**
 * E-mail sign-in over SMTP (or any nodemailer transport). `nodemailer` is an optional peer
 * dependency: it is loaded only when the first e-mail is sent.
 *
 * @example
 * ```ts
 * import Nodemailer from "@tessera/core/providers/nodemailer"
 * const config = {
 *   adapter,
 *   providers: [Nodemailer({ server: process.env.EMAIL_SERVER, from: "Acme <no-reply@acme.test>" })],
 * }
 * ```
 */
import { composeEmail } from "../lib/email/http-api.js";
import type { EmailConfig, SendVerificationRequestParams } from "./index.js";

/** A nodemailer transport: a connection URL (`smtp://user:pass@host:587`) or transport options. */
export type NodemailerServer = string | object;

/** Configuration of the Nodemailer provider. */
export interface NodemailerConfig extends EmailConfig {
  /** Where mail is handed over: an SMTP URL, or options/transport given to `createTransport`. */
  server?: NodemailerServer;
  options?: NodemailerUserConfig;
}

/** What users pass to {@link Nodemailer}. */
export type NodemailerUserConfig = Omit<Partial<NodemailerConfig>, "options" | "type">;

type Address = string | { address?: string };

interface SentMessageInfo {
  accepted?: Address[];
  rejected?: Address[];
  pending?: Address[];
}

interface NodemailerModule {
  createTransport(server: NodemailerServer): {
    sendMail(message: {
      to: string;
      from: string;
      subject: string;
      text: string;
      html: string;
    }): Promise<SentMessageInfo>;
  };
}

async function loadNodemailer(): Promise<NodemailerModule> {
  try {
    const loaded = (await import("nodemailer")) as unknown as {
      default?: NodemailerModule;
    } & Partial<NodemailerModule>;
    const module = loaded.default ?? (loaded as NodemailerModule);
    if (typeof module.createTransport !== "function") throw new TypeError("no createTransport");
    return module;
  } catch (error) {
    throw new Error(
      'Sending sign-in e-mails over SMTP needs the "nodemailer" package: run `npm install nodemailer`.',
      { cause: error },
    );
  }
}

function addresses(list: Address[] | undefined): string[] {
  return (list ?? []).map((a) => (typeof a === "string" ? a : (a.address ?? String(a))));
}

/**
 * The default `sendVerificationRequest` of the Nodemailer and Email providers: renders the
 * default e-mail and sends it with `nodemailer.createTransport(server).sendMail(…)`. Throws when
 * the server refuses the recipient or the message.
 *
 * @example
 * ```ts
 * Nodemailer({ server, sendVerificationRequest: (params) => sendWithNodemailer(params) })
 * ```
 */
export async function sendWithNodemailer(params: SendVerificationRequestParams): Promise<void> {
  const provider = params.provider as NodemailerConfig;
  if (!provider.server)
    throw new TypeError(
      `The e-mail provider "${provider.id}" has no \`server\`: pass an SMTP URL (smtp://user:pass@host:587) or nodemailer transport options.`,
    );
  const nodemailer = await loadNodemailer();
  const email = await composeEmail(params);
  const info = await nodemailer.createTransport(provider.server).sendMail({
    to: email.to,
    from: email.fromHeader,
    subject: email.subject,
    text: email.text,
    html: email.html,
  });
  const failed = [...addresses(info.rejected), ...addresses(info.pending)];
  if (failed.length)
    throw new Error(`The mail server did not accept the sign-in e-mail for ${failed.join(", ")}.`);
}

/**
 * The Nodemailer e-mail provider: magic links sent through your SMTP server.
 *
 * @example
 * ```ts
 * Nodemailer({
 *   server: { host: "smtp.acme.test", port: 587, auth: { user, pass } },
 *   from: "Acme <no-reply@acme.test>",
 *   maxAge: 60 * 60, // links work for one hour
 * })
 * ```
 */
export default function Nodemailer(config: NodemailerUserConfig = {}): NodemailerConfig {
  return {
    id: "nodemailer",
    type: "email",
    name: "Nodemailer",
    maxAge: 24 * 60 * 60,
    sendVerificationRequest: sendWithNodemailer,
    options: config,
  };
}
