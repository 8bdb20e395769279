/**
 * The demo's mail catcher: a real SMTP server (`smtp-server`) on 127.0.0.1 that accepts every
 * message and keeps it in memory, so magic links can be delivered with no mail account and no
 * network. The demo shows the inbox at /dev/mailbox.
 */
import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

/** A received message, parsed. */
export interface CaughtMail {
  /** Sequence number, starting at 1. */
  id: number;
  receivedAt: Date;
  from: string;
  to: string[];
  subject: string;
  text: string;
  /** The HTML part, or "" when there is none. */
  html: string;
}

/** A running catcher. */
export interface Mailbox {
  /** `smtp://127.0.0.1:<port>`, for nodemailer. */
  url: string;
  /** Newest first. */
  list(): readonly CaughtMail[];
  get(id: number): CaughtMail | undefined;
  /** Resolves with the next message that arrives (tests wait on it). */
  next(): Promise<CaughtMail>;
  close(): Promise<void>;
}

/** Messages beyond this are dropped, oldest first (the catcher never grows without bound). */
const MAX_MESSAGES = 100;
/** Larger messages are refused: sign-in e-mails are a few kilobytes. */
const MAX_MESSAGE_BYTES = 1024 * 1024;

/**
 * Starts the catcher on 127.0.0.1 (`port` 0 picks a free one).
 *
 * @example
 * ```ts
 * const mailbox = await startMailbox()
 * Nodemailer({ server: mailbox.url, from: "demo@tessera.local" })
 * ```
 */
export async function startMailbox(port = 0): Promise<Mailbox> {
  const messages: CaughtMail[] = [];
  const waiting: ((mail: CaughtMail) => void)[] = [];
  let sequence = 0;

  const server = new SMTPServer({
    authOptional: true,
    // Loopback only; there is nothing to protect with TLS.
    disabledCommands: ["STARTTLS", "AUTH"],
    size: MAX_MESSAGE_BYTES,
    logger: false,
    banner: "Tessera demo mail catcher",
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          if (stream.sizeExceeded) {
            callback(Object.assign(new Error("Message too large"), { responseCode: 552 }));
            return;
          }
          const mail: CaughtMail = {
            id: ++sequence,
            receivedAt: new Date(),
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            to: session.envelope.rcptTo.map((recipient) => recipient.address),
            subject: parsed.subject ?? "(no subject)",
            text: parsed.text ?? "",
            html: typeof parsed.html === "string" ? parsed.html : "",
          };
          messages.unshift(mail);
          messages.length = Math.min(messages.length, MAX_MESSAGES);
          for (const resolve of waiting.splice(0)) resolve(mail);
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  // A client dropping the connection must not crash the demo.
  server.on("error", () => {});

  await new Promise<void>((resolve, reject) => {
    server.server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const { port: actualPort } = server.server.address() as AddressInfo;

  return {
    url: `smtp://127.0.0.1:${actualPort}`,
    list: () => messages,
    get: (id) => messages.find((mail) => mail.id === id),
    next: () => new Promise((resolve) => waiting.push(resolve)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
