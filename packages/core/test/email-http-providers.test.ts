/**
 * The HTTP-API e-mail providers against a local server standing in for each service (no real
 * service can be reached from tests). The server checks each request as the service documents
 * it — method, path, authentication and body shape — and the test then follows the link from the
 * captured request to a signed-in session.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { AuthConfig } from "@tessera/core";
import type { EmailConfig } from "@tessera/core/providers";
import ForwardEmail from "@tessera/core/providers/forwardemail";
import Loops from "@tessera/core/providers/loops";
import Mailgun from "@tessera/core/providers/mailgun";
import Postmark from "@tessera/core/providers/postmark";
import Resend from "@tessera/core/providers/resend";
import SendGrid from "@tessera/core/providers/sendgrid";
import { memoryStore } from "@tessera/core/store";
import { MemoryAdapter } from "@tessera/memory";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  baseConfig,
  EMAIL_SIGNIN_ERROR,
  followLink,
  linkIn,
  ORIGIN,
  requestLink,
} from "./email-helpers.js";
import { Client, recordingLogger, SECRET } from "./helpers.js";

const API_KEY = "test-api-key-7f3c9d";
const FROM = "Tessera Test <no-reply@mg.tessera.test>";

interface Captured {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  raw: Buffer;
}

let server: Server;
let apiUrl: string;
const captured: Captured[] = [];
let reply: { status: number; body: string } = { status: 200, body: "{}" };

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      captured.push({
        method: request.method ?? "",
        path: request.url ?? "",
        headers: request.headers,
        raw: Buffer.concat(chunks),
      });
      response.writeHead(reply.status, { "content-type": "application/json" });
      response.end(reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
afterEach(() => {
  captured.length = 0;
  reply = { status: 200, body: "{}" };
  vi.unstubAllEnvs();
});

function json(request: Captured): Record<string, unknown> {
  expect(request.headers["content-type"]).toMatch(/^application\/json/);
  return JSON.parse(request.raw.toString("utf8")) as Record<string, unknown>;
}

async function form(request: Captured): Promise<FormData> {
  expect(request.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
  return new Response(new Uint8Array(request.raw), {
    headers: { "content-type": String(request.headers["content-type"]) },
  }).formData();
}

function basic(header: string | undefined): [string, string] {
  expect(header).toMatch(/^Basic /);
  const decoded = Buffer.from(String(header).slice(6), "base64").toString("utf8");
  const separator = decoded.indexOf(":");
  return [decoded.slice(0, separator), decoded.slice(separator + 1)];
}

function configFor(provider: EmailConfig, overrides: Partial<AuthConfig> = {}): AuthConfig {
  return baseConfig({
    secret: SECRET,
    adapter: MemoryAdapter(),
    providers: [provider],
    // Each test is an app of its own: without a store of its own, its links sent to one address
    // would add up with the other tests' in the default rate-limit store of their shared secret.
    rateLimit: { storage: memoryStore() },
    ...overrides,
  });
}

/** Requests a link, returns the one request the service received. */
async function send(config: AuthConfig, providerId: string, email = "ada@example.com") {
  const client = new Client(config);
  const response = await requestLink(client, providerId, email);
  expect(response.headers.get("location")).toBe(
    `${ORIGIN}/auth/verify-request?provider=${providerId}&type=email`,
  );
  expect(captured).toHaveLength(1);
  const [request] = captured;
  expect(request?.method).toBe("POST");
  return { client, request: request as Captured };
}

async function expectLinkSignsIn(client: Client, link: URL) {
  await followLink(client, link);
  expect((await client.session())?.user).toMatchObject({ email: "ada@example.com" });
}

describe("Resend", () => {
  it("POSTs /emails with a bearer key and from/to/subject/html/text", async () => {
    const config = configFor(Resend({ apiKey: API_KEY, from: FROM, apiUrl }));
    const { client, request } = await send(config, "resend");
    expect(request.path).toBe("/emails");
    expect(request.headers.authorization).toBe(`Bearer ${API_KEY}`);
    const body = json(request);
    expect(body).toMatchObject({
      from: '"Tessera Test" <no-reply@mg.tessera.test>',
      to: ["ada@example.com"],
      subject: "Sign in to localhost:3000",
    });
    expect(body.html).toContain(">Sign in</a>");
    await expectLinkSignsIn(client, linkIn(String(body.text)));
  });

  it("infers the key from AUTH_RESEND_KEY", async () => {
    vi.stubEnv("AUTH_RESEND_KEY", "key-from-env");
    const { request } = await send(configFor(Resend({ from: FROM, apiUrl })), "resend");
    expect(request.headers.authorization).toBe("Bearer key-from-env");
  });
});

describe("SendGrid", () => {
  it("POSTs /v3/mail/send with personalizations, a from object and text before html", async () => {
    const config = configFor(SendGrid({ apiKey: API_KEY, from: FROM, apiUrl }));
    const { client, request } = await send(config, "sendgrid");
    expect(request.path).toBe("/v3/mail/send");
    expect(request.headers.authorization).toBe(`Bearer ${API_KEY}`);
    const body = json(request) as {
      personalizations: unknown;
      from: unknown;
      subject: string;
      content: { type: string; value: string }[];
    };
    expect(body.personalizations).toEqual([{ to: [{ email: "ada@example.com" }] }]);
    expect(body.from).toEqual({ email: "no-reply@mg.tessera.test", name: "Tessera Test" });
    expect(body.subject).toBe("Sign in to localhost:3000");
    expect(body.content.map((c) => c.type)).toEqual(["text/plain", "text/html"]);
    await expectLinkSignsIn(client, linkIn(body.content[0]?.value ?? ""));
  });
});

describe("Postmark", () => {
  it("POSTs /email with X-Postmark-Server-Token and PascalCase fields", async () => {
    const config = configFor(Postmark({ apiKey: API_KEY, from: FROM, apiUrl }));
    const { client, request } = await send(config, "postmark");
    expect(request.path).toBe("/email");
    expect(request.headers["x-postmark-server-token"]).toBe(API_KEY);
    expect(request.headers.authorization).toBeUndefined();
    const body = json(request);
    expect(body).toMatchObject({
      From: '"Tessera Test" <no-reply@mg.tessera.test>',
      To: "ada@example.com",
      Subject: "Sign in to localhost:3000",
      MessageStream: "outbound",
    });
    expect(body.HtmlBody).toContain(">Sign in</a>");
    await expectLinkSignsIn(client, linkIn(String(body.TextBody)));
  });
});

describe("Mailgun", () => {
  it("POSTs /v3/<domain of from>/messages as multipart with Basic api:<key>", async () => {
    const config = configFor(Mailgun({ apiKey: API_KEY, from: FROM, apiUrl }));
    const { client, request } = await send(config, "mailgun");
    expect(request.path).toBe("/v3/mg.tessera.test/messages");
    expect(basic(request.headers.authorization)).toEqual(["api", API_KEY]);
    const fields = await form(request);
    expect(fields.get("from")).toBe('"Tessera Test" <no-reply@mg.tessera.test>');
    expect(fields.get("to")).toBe("ada@example.com");
    expect(fields.get("subject")).toBe("Sign in to localhost:3000");
    expect(String(fields.get("html"))).toContain(">Sign in</a>");
    await expectLinkSignsIn(client, linkIn(String(fields.get("text"))));
  });

  it("uses an explicit `domain`", async () => {
    const config = configFor(
      Mailgun({ apiKey: API_KEY, from: FROM, apiUrl, domain: "mail.acme.test" }),
    );
    const { request } = await send(config, "mailgun");
    expect(request.path).toBe("/v3/mail.acme.test/messages");
  });
});

describe("Loops", () => {
  it("POSTs /api/v1/transactional with transactionalId, email and dataVariables.url", async () => {
    const config = configFor(Loops({ apiKey: API_KEY, transactionalId: "clx123", apiUrl }));
    const { client, request } = await send(config, "loops");
    expect(request.path).toBe("/api/v1/transactional");
    expect(request.headers.authorization).toBe(`Bearer ${API_KEY}`);
    const body = json(request) as { dataVariables: { url: string } };
    expect(body).toMatchObject({ transactionalId: "clx123", email: "ada@example.com" });
    expect(Object.keys(body.dataVariables)).toEqual(["url"]);
    await expectLinkSignsIn(client, new URL(body.dataVariables.url));
  });

  it("names the missing transactionalId in the log", async () => {
    const { logger, errors } = recordingLogger();
    const config = configFor(Loops({ apiKey: API_KEY, apiUrl }), { logger });
    const response = await requestLink(new Client(config), "loops", "ada@example.com");
    expect(response.headers.get("location")).toMatch(EMAIL_SIGNIN_ERROR);
    expect(errors.at(-1)?.message).toContain("transactionalId");
    expect(captured).toHaveLength(0);
  });
});

describe("Forward Email", () => {
  it("POSTs /v1/emails with the key as Basic user name", async () => {
    const config = configFor(ForwardEmail({ apiKey: API_KEY, from: FROM, apiUrl }));
    const { client, request } = await send(config, "forwardemail");
    expect(request.path).toBe("/v1/emails");
    expect(basic(request.headers.authorization)).toEqual([API_KEY, ""]);
    const body = json(request);
    expect(body).toMatchObject({
      from: '"Tessera Test" <no-reply@mg.tessera.test>',
      to: "ada@example.com",
      subject: "Sign in to localhost:3000",
    });
    await expectLinkSignsIn(client, linkIn(String(body.text)));
  });
});

describe("API failures", () => {
  const providers: [string, () => EmailConfig, string][] = [
    [
      "resend",
      () => Resend({ apiKey: API_KEY, from: FROM, apiUrl }),
      '{"statusCode":422,"name":"validation_error","message":"Invalid `to` field"}',
    ],
    [
      "sendgrid",
      () => SendGrid({ apiKey: API_KEY, from: FROM, apiUrl }),
      '{"errors":[{"message":"The from address does not match a verified Sender Identity","field":"from"}]}',
    ],
    [
      "postmark",
      () => Postmark({ apiKey: API_KEY, from: FROM, apiUrl }),
      '{"ErrorCode":300,"Message":"Invalid \'From\' address"}',
    ],
    [
      "mailgun",
      () => Mailgun({ apiKey: API_KEY, from: FROM, apiUrl }),
      '{"message":"Domain not found"}',
    ],
    [
      "loops",
      () => Loops({ apiKey: API_KEY, transactionalId: "clx123", apiUrl }),
      '{"success":false,"message":"Transactional email not found"}',
    ],
    [
      "forwardemail",
      () => ForwardEmail({ apiKey: API_KEY, from: FROM, apiUrl }),
      '{"statusCode":400,"error":"Bad Request","message":"Invalid recipients"}',
    ],
  ];

  it.each(providers)(
    "%s: a non-2xx answer becomes EmailSignInError naming status and message",
    async (id, make, body) => {
      reply = { status: 422, body };
      const { logger, errors } = recordingLogger();
      const response = await requestLink(
        new Client(configFor(make(), { logger })),
        id,
        "ada@example.com",
      );
      expect(response.headers.get("location")).toMatch(EMAIL_SIGNIN_ERROR);
      const error = errors.at(-1);
      expect(error?.name).toBe("EmailSignInError");
      expect(error?.message).toContain("HTTP 422");
      const expected = /"(?:message|Message)":"([^"]*)"/.exec(body)?.[1] ?? "";
      expect(error?.message).toContain(expected.replace(/\\'/g, "'"));
      expect(error?.message).not.toContain(API_KEY);
    },
  );

  it("never repeats the API key, even when the service echoes it", async () => {
    reply = { status: 401, body: JSON.stringify({ message: `API key ${API_KEY} is not valid` }) };
    const { logger, errors } = recordingLogger();
    await requestLink(
      new Client(configFor(Resend({ apiKey: API_KEY, from: FROM, apiUrl }), { logger })),
      "resend",
      "ada@example.com",
    );
    expect(errors.at(-1)?.message).toContain("API key [redacted] is not valid");
    const cause = (errors.at(-1) as { cause?: { err?: Error } } | undefined)?.cause?.err;
    expect(cause?.message).toContain("[redacted]");
    expect(`${cause?.message} ${cause?.stack}`).not.toContain(API_KEY);
  });

  it("names the environment variable when no key is configured", async () => {
    const { logger, errors } = recordingLogger();
    await requestLink(
      new Client(configFor(SendGrid({ from: FROM, apiUrl }), { logger })),
      "sendgrid",
      "ada@example.com",
    );
    expect(errors.at(-1)?.message).toContain("AUTH_SENDGRID_KEY");
    expect(captured).toHaveLength(0);
  });

  it("reports an unreachable service instead of hanging or crashing", async () => {
    const { logger, errors } = recordingLogger();
    // A port that was just free: nothing listens there any more.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const closed = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const response = await requestLink(
      new Client(configFor(Resend({ apiKey: API_KEY, from: FROM, apiUrl: closed }), { logger })),
      "resend",
      "ada@example.com",
    );
    expect(response.headers.get("location")).toMatch(EMAIL_SIGNIN_ERROR);
    expect(errors.at(-1)?.message).toContain("could not be reached");
  });
});
