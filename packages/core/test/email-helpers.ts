/**
 * Helpers of the e-mail sign-in tests: a real SMTP server on 127.0.0.1 that captures messages,
 * a recorder of `sendVerificationRequest` calls, and link extraction.
 */
import type { AddressInfo } from "node:net";
import type { AuthConfig } from "@tessera/core";
import type { SendVerificationRequestParams } from "@tessera/core/providers";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import { type Client, ORIGIN } from "./helpers.js";

/** A message the SMTP server accepted. */
export interface CapturedMail {
  from: string;
  to: string[];
  raw: string;
  subject: string;
  text: string;
  html: string;
}

/** A local SMTP server capturing every message it accepts. Refuses recipients in `refuse`. */
export async function startSmtpServer(refuse: ReadonlySet<string> = new Set()) {
  const messages: CapturedMail[] = [];
  const waiting: ((mail: CapturedMail) => void)[] = [];
  let taken = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (refuse.has(address.address)) {
        const error = Object.assign(new Error("Mailbox unavailable"), { responseCode: 550 });
        callback(error);
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", async () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const parsed = await simpleParser(raw);
        const mail: CapturedMail = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          subject: parsed.subject ?? "",
          text: parsed.text ?? "",
          html: typeof parsed.html === "string" ? parsed.html : "",
        };
        messages.push(mail);
        waiting.shift()?.(mail);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    messages,
    /** The next message (or the oldest not yet taken). */
    nextMail(): Promise<CapturedMail> {
      const ready = messages[taken];
      if (ready) {
        taken++;
        return Promise.resolve(ready);
      }
      return new Promise((resolve) =>
        waiting.push((mail) => {
          taken++;
          resolve(mail);
        }),
      );
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Records the parameters of every `sendVerificationRequest` call (the public hook). */
export function recordingSender() {
  const sent: SendVerificationRequestParams[] = [];
  return {
    sent,
    sendVerificationRequest: async (params: SendVerificationRequestParams) => {
      sent.push(params);
    },
    /** The last link sent to `email`. */
    lastLink(email?: string): URL {
      const params = [...sent].reverse().find((p) => !email || p.identifier === email);
      if (!params) throw new Error(`no link was sent${email ? ` to ${email}` : ""}`);
      return new URL(params.url);
    },
  };
}

/** The first sign-in link in a text body. */
export function linkIn(text: string): URL {
  const match = /https?:\/\/\S+\/auth\/callback\/\S+/.exec(text);
  if (!match) throw new Error(`no sign-in link in:\n${text}`);
  return new URL(match[0]);
}

/** Asks for a link for `email` the way the built-in sign-in page does. */
export async function requestLink(
  client: Client,
  providerId: string,
  email: string,
  extra: Record<string, string> = {},
): Promise<Response> {
  const csrfToken = await client.csrfToken();
  return client.post(`/auth/signin/${providerId}`, { csrfToken, email, ...extra });
}

/** Follows a sign-in link with `client` (path and query only, as a browser on ORIGIN would). */
export function followLink(client: Client, link: URL): Promise<Response> {
  return client.get(`${link.pathname}${link.search}`);
}

/**
 * Where a refused e-mail sign-in sends the browser: the sign-in page with `error=EmailSignin`
 * (a refused address adds `&code=` and the typed `&email=`).
 */
export const EMAIL_SIGNIN_ERROR = /^http:\/\/localhost:3000\/auth\/signin\?error=EmailSignin(&|$)/;

/** The base of a test config. */
export function baseConfig(overrides: Partial<AuthConfig>): AuthConfig {
  return { trustHost: true, basePath: "/auth", ...overrides } as AuthConfig;
}

export { ORIGIN };
