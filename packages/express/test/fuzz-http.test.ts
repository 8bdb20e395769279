/**
 * Fuzzing @tessera/express over real HTTP: hand-written request bytes on a raw TCP socket (odd
 * methods and request targets, non-ASCII and control bytes in headers, hostile cookies, lying
 * content types, chunked bodies, very long values) to one Express server for the whole file. The
 * property: the server answers every request, stays up, never answers 5xx on a valid
 * configuration, and never sends a secret, a stack frame or a file path. The app has no error
 * handler of its own, so anything ExpressAuth passed to `next(error)` would show Express's
 * development error page (with its stack) and fail the property.
 *
 * The seed is random on every run; fast-check prints it when the property fails.
 */
import { once } from "node:events";
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import express from "express";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toNodeHandler } from "../../core/src/node.js";
import {
  actionPath,
  bodyText,
  findLeak,
  formText,
  fuzzCase,
  fuzzConfig,
  HEADER_NAMES,
  hostileCallbackUrl,
  hostileString,
  longText,
  MaliciousIdp,
  type SentLink,
  safeEncode,
  withCsrfToken,
} from "../../core/test/fuzz-arbitraries.js";
import { ExpressAuth } from "../src/index.js";
import { HttpClient } from "./http-client.js";

let server: http.Server;
let port: number;

/** Sends `bytes` on a fresh connection and returns everything the server wrote before closing. */
function exchange(bytes: Buffer, timeoutMs = 10_000): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", () => {}); // a reset after the answer is fine; an empty answer fails below
    socket.on("close", () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks));
    });
    socket.write(bytes);
  });
}

/** A string's UTF-8 bytes as a "binary" string (one char per byte), without CR and LF. */
function utf8Bytes(value: string): string {
  return Buffer.from(value, "utf8")
    .toString("latin1")
    .replace(/[\r\n]/g, "");
}

/**
 * Bytes an HTTP/1.1 parser accepts in a header value (RFC 9110 §5.5: visible ASCII, space, tab
 * and obs-text 0x80–0xFF): the UTF-8 of any string, controls removed, at most 2 kB.
 */
function fieldBytes(value: string): string {
  let out = "";
  for (const char of utf8Bytes(value)) {
    const code = char.charCodeAt(0);
    if (code === 0x09 || (code >= 0x20 && code !== 0x7f)) out += char;
  }
  return out.slice(0, 2048);
}

/** Raw bytes, which the parser may refuse: controls, any byte, values beyond the header limit. */
const rawHeaderValue = fc.oneof(
  { weight: 2, arbitrary: fc.oneof(hostileString, hostileCallbackUrl).map(utf8Bytes) },
  {
    weight: 2,
    arbitrary: fc
      .array(fc.integer({ min: 0, max: 255 }), { maxLength: 30 })
      .map((codes) => String.fromCharCode(...codes).replace(/[\r\n]/g, "")),
  },
  { weight: 1, arbitrary: longText.map(utf8Bytes) },
);

/** Host headers: the real one, hostile ones (path injection, IPv6, ports), none at all. */
const hostHeader = fc.oneof(
  { weight: 6, arbitrary: fc.constant("real") },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "evil.test",
      "evil.test/x?",
      "evil.test#",
      "evil.test:99999",
      "[::1",
      "[::1]:3000",
      "localhost:3000@evil.test",
      "a b",
      "",
      "\u00fcn\u00efc\u00f6d\u00e9.test",
      "%65vil.test",
    ),
  },
  { weight: 1, arbitrary: hostileString },
  { weight: 1, arbitrary: fc.constant(undefined) },
);

/** Request targets in other forms than a plain path (Node's parser accepts them). */
const oddTarget = fc.constantFrom(
  "http://evil.test/auth/session",
  "http://127.0.0.1/auth/signin",
  "//auth/session",
  "/auth/../auth/session",
  "/auth/%2e%2e/auth/session",
  "/AUTH/session",
  "/auth/session?",
  `/auth/session?x=${"a".repeat(12_000)}`,
);

/** Request targets with raw bytes (non-ASCII, spaces, controls) and odd forms. */
const rawRequestTarget = fc.oneof(
  fc
    .tuple(actionPath, fc.string({ unit: "binary", maxLength: 20 }))
    .map(([path, raw]) => `/auth/${path}?callbackUrl=${utf8Bytes(raw)}`),
  fc.constantFrom("*", "/auth/\u00ff", "/auth/\u0080session", "/auth/session#frag", "/auth/\0"),
);

/**
 * One request: the same hostile requests as the in-process fuzz, written as well-formed
 * HTTP/1.1 so they reach ExpressAuth; `raw` ones break the wire format itself (odd methods, raw
 * bytes in the target and headers, obsolete line folding), for Node's parser and whatever
 * passes it.
 */
const rawCase = fc.record({
  request: fuzzCase,
  /** Long queries cut to fit Node's 16 kB header limit (uncut ones are answered 431). */
  cutQuery: fc.oneof(
    { weight: 5, arbitrary: fc.constant(true) },
    { weight: 1, arbitrary: fc.constant(false) },
  ),
  oddTarget: fc.oneof(
    { weight: 9, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: oddTarget },
  ),
  raw: fc.oneof(
    { weight: 6, arbitrary: fc.constant(false) },
    { weight: 1, arbitrary: fc.constant(true) },
  ),
  rawMethod: fc.constantFrom("get", "M-SEARCH", "FOO", "CONNECT", "TRACE", "GET\u00ff", "POST "),
  rawTarget: rawRequestTarget,
  rawHeaders: fc.array(
    fc.tuple(
      fc.oneof(
        fc.constantFrom(...HEADER_NAMES),
        fc.constantFrom("bad header", "x\u00e9", ":authority", ""),
      ),
      rawHeaderValue,
    ),
    { minLength: 1, maxLength: 3 },
  ),
  version: fc.constantFrom("HTTP/1.1", "HTTP/1.1", "HTTP/1.1", "HTTP/1.0"),
  host: hostHeader,
  chunked: fc.boolean(),
  obsFold: fc.boolean(),
});
type RawCase = typeof rawCase extends fc.Arbitrary<infer T> ? T : never;

/** Valid cookies and token a case may carry, so hostile values get past the CSRF check. */
interface Fixture {
  csrfToken: string;
  csrfCookie: string;
  sessionCookie: string;
}
let fixture: Fixture;

/** The request target of a case: path and query, percent-encoded as a client would. */
function targetOf(c: RawCase): string {
  const { path, query, rawQuery } = c.request;
  let search = [formText(query), rawQuery].filter(Boolean).join("&");
  if (c.cutQuery) search = search.slice(0, 4096);
  return `/auth/${path}${search ? `?${search}` : ""}`;
}

/** The bytes of a case's request (always complete, and asking the server to close after it). */
function requestBytes(c: RawCase): Buffer {
  const r = c.request;
  const field = c.raw ? utf8Bytes : fieldBytes;
  const method = c.raw ? c.rawMethod : r.method.toUpperCase();
  const target = c.raw ? utf8Bytes(c.rawTarget) : (c.oddTarget ?? targetOf(c));
  const lines = [`${utf8Bytes(method)} ${target} ${c.version}`];
  if (c.host === "real") lines.push(`Host: 127.0.0.1:${port}`);
  else if (c.host !== undefined) lines.push(`Host: ${field(c.host)}`);
  const cookies = r.cookies.map(
    ([name, value, encode]) => `${name}=${encode ? safeEncode(value) : value}`,
  );
  if (r.withCsrf) cookies.push(fixture.csrfCookie);
  if (r.withSession) cookies.push(fixture.sessionCookie);
  if (cookies.length) lines.push(`Cookie: ${field(cookies.join("; "))}`);
  const headers: [string, string][] = [
    ...r.headers.map(([name, value]): [string, string] => [name, fieldBytes(value)]),
    ...(c.raw ? c.rawHeaders : []),
  ];
  for (const [name, value] of headers) {
    const lower = name.toLowerCase();
    if (lower === "content-length" || lower === "transfer-encoding" || lower === "connection")
      continue; // framing stays honest so every request ends and gets an answer
    lines.push(`${name}: ${value}`);
  }
  // Obsolete line folding (RFC 9112 §5.2): a header value continued on the next line.
  if (c.raw && c.obsFold) lines.push("X-Folded: first", " second");
  let body = Buffer.alloc(0);
  const sendsBody = r.body !== undefined && method !== "GET" && method !== "HEAD";
  if (r.body && sendsBody) {
    const withToken = r.withCsrf ? withCsrfToken(r.body, fixture.csrfToken) : r.body;
    if (!headers.some(([name]) => name.toLowerCase() === "content-type"))
      lines.push(`Content-Type: ${field(withToken.contentType)}`);
    body = Buffer.from(bodyText(withToken), "utf8");
  }
  lines.push("Connection: close");
  if (sendsBody && c.chunked) {
    lines.push("Transfer-Encoding: chunked");
    const half = body.subarray(0, Math.floor(body.length / 2));
    const rest = body.subarray(half.length);
    const chunk = (part: Buffer) =>
      part.length
        ? [Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from("\r\n")]
        : [];
    body = Buffer.concat([...chunk(half), ...chunk(rest), Buffer.from("0\r\n\r\n")]);
  } else if (sendsBody) lines.push(`Content-Length: ${body.length}`);
  return Buffer.concat([Buffer.from(`${lines.join("\r\n")}\r\n\r\n`, "latin1"), body]);
}

async function serverIsUp(): Promise<boolean> {
  const response = await fetch(`http://127.0.0.1:${port}/auth/providers`);
  await response.arrayBuffer();
  return response.status === 200;
}

/** The servers under test: the same cases run through ExpressAuth and through toNodeHandler. */
const SERVERS = {
  ExpressAuth: (config: ReturnType<typeof fuzzConfig>) => {
    const app = express();
    app.use("/auth", ExpressAuth(config));
    return app.listen(0, "127.0.0.1");
  },
  toNodeHandler: (config: ReturnType<typeof fuzzConfig>) => {
    const handler = toNodeHandler({ ...config, basePath: "/auth" });
    return http.createServer((req, res) => void handler(req, res)).listen(0, "127.0.0.1");
  },
};

async function startServer(kind: keyof typeof SERVERS): Promise<void> {
  const sent: SentLink[] = [];
  server = SERVERS[kind](fuzzConfig({ strategy: "jwt", idp: new MaliciousIdp(), sent }));
  await once(server, "listening");
  port = (server.address() as AddressInfo).port;
  const client = new HttpClient(`http://127.0.0.1:${port}`);
  const csrfToken = await client.csrfToken();
  const csrfCookie = [...client.jar].map(([name, value]) => `${name}=${value}`).join("; ");
  await client.postForm("/auth/callback/credentials", {
    csrfToken,
    username: "ada",
    password: "lovelace",
  });
  const session = client.jar.get("authjs.session-token");
  if (!session) throw new Error("the fixture sign-in failed");
  fixture = { csrfToken, csrfCookie, sessionCookie: `authjs.session-token=${session}` };
}

async function stopServer(): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

describe.each(Object.keys(SERVERS) as (keyof typeof SERVERS)[])(
  "%s fuzzed over raw HTTP",
  (kind) => {
    beforeAll(() => startServer(kind));
    afterAll(stopServer);

    it("answers every request without 5xx, secret, stack or path, and stays up", async () => {
      await fc.assert(
        fc.asyncProperty(rawCase, async (c) => {
          const request = requestBytes(c);
          const answer = await exchange(request);
          const text = answer.toString("latin1");
          const status = /^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1];
          // Node's HTTP server closes CONNECT requests itself when the app has no "connect"
          // listener; they never reach Express.
          if (c.raw && c.rawMethod === "CONNECT" && text === "") return;
          expect(status, `answer: ${text.slice(0, 300)}`).toBeDefined();
          expect(Number(status), text.slice(0, 600)).toBeLessThan(500);
          expect(findLeak(text, request.toString("latin1"))).toBeUndefined();
          expect(await serverIsUp()).toBe(true);
        }),
        { numRuns: 600 },
      );
    }, 60_000);
  },
);
