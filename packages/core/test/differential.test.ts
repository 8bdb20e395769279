/**
 * The differential test: the same requests — every action, the error paths, hostile inputs — go
 * to `Auth()` of `@auth/core` 0.41.3 and of Tessera, configured alike, and their answers are
 * compared: status, `Location` (random values masked), content type, JSON body shape, and the
 * session cookie (set, cleared or untouched, with its attributes). A case either matches, or
 * names the entry of docs/migrating-from-authjs.md that explains the difference and lists
 * exactly the fields that differ, so a difference that goes away (or a new one) fails the test.
 */
import { readFileSync } from "node:fs";
import { Auth as AuthJs } from "@auth/core";
import { decode as decodeAuthJs } from "@auth/core/jwt";
import AuthJsCredentials from "@auth/core/providers/credentials";
import AuthJsGitHub from "@auth/core/providers/github";
import AuthJsNodemailer from "@auth/core/providers/nodemailer";
import { Auth } from "@tessera/core";
import { decode } from "@tessera/core/jwt";
import Credentials from "@tessera/core/providers/credentials";
import GitHub from "@tessera/core/providers/github";
import Nodemailer from "@tessera/core/providers/nodemailer";
import { MemoryAdapter } from "@tessera/memory";
import { describe, expect, it } from "vitest";
import { ORIGIN, recordingLogger, SECRET } from "./helpers.js";

type Side = "authjs" | "tessera";
type Handler = (request: Request) => Promise<Response>;

const ADA = { id: "ada-1", name: "Ada", email: "ada@example.com" };
const authorize = (credentials: Partial<Record<string, unknown>>) =>
  credentials.password === "lovelace" ? ADA : null;
const failingSender = async () => {
  // @auth/core starts the send, then awaits a hash before it awaits the send: a rejection that
  // came sooner would be reported as unhandled. A refusal after a moment, as a server's would.
  await new Promise((resolve) => setTimeout(resolve, 50));
  throw new Error("the SMTP server refused the message");
};
const common = {
  secret: SECRET,
  trustHost: true,
  basePath: "/auth",
  session: { strategy: "jwt" as const },
  // Both sides log the errors the hostile and failing cases provoke on purpose: recorded, not
  // printed, where they buried the lines that matter. Only the answers are compared.
  logger: recordingLogger().logger,
};

/** The sign-in links a side's "mailbox" provider sent, newest last. */
const sent = new WeakMap<Handler, string[]>();

/** Both libraries with the same providers; a fresh memory adapter each (e-mail needs one). */
function handlers(): Record<Side, Handler> {
  const mailbox: Record<Side, string[]> = { authjs: [], tessera: [] };
  const deliverTo =
    (side: Side) =>
    async ({ url }: { url: string }) => {
      mailbox[side].push(url);
    };
  const authjsConfig = {
    ...common,
    adapter: MemoryAdapter() as never,
    providers: [
      AuthJsGitHub({ clientId: "id", clientSecret: "secret" }),
      AuthJsCredentials({ authorize }),
      AuthJsNodemailer({ server: "smtp://127.0.0.1:1", sendVerificationRequest: failingSender }),
      AuthJsNodemailer({
        id: "mailbox",
        server: "smtp://127.0.0.1:1",
        sendVerificationRequest: deliverTo("authjs"),
      }),
    ],
  };
  const tesseraConfig = {
    ...common,
    adapter: MemoryAdapter(),
    providers: [
      GitHub({ clientId: "id", clientSecret: "secret" }),
      Credentials({ authorize }),
      Nodemailer({ server: "smtp://127.0.0.1:1", sendVerificationRequest: failingSender }),
      Nodemailer({
        id: "mailbox",
        server: "smtp://127.0.0.1:1",
        sendVerificationRequest: deliverTo("tessera"),
      }),
    ],
  };
  const sides: Record<Side, Handler> = {
    authjs: (request) => AuthJs(request, authjsConfig),
    tessera: (request) => Auth(request, tesseraConfig),
  };
  sent.set(sides.authjs, mailbox.authjs);
  sent.set(sides.tessera, mailbox.tessera);
  return sides;
}

/** A browser of one side: a cookie jar, the CSRF token, form posts. */
class Browser {
  readonly jar = new Map<string, string>();
  constructor(readonly handle: Handler) {}

  async request(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.jar.size && !headers.has("cookie"))
      headers.set("cookie", [...this.jar].map(([n, v]) => `${n}=${v}`).join("; "));
    const response = await this.handle(new Request(new URL(path, ORIGIN), { ...init, headers }));
    for (const line of response.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const name = pair.slice(0, pair.indexOf("="));
      const value = pair.slice(pair.indexOf("=") + 1);
      if (value === "" || /max-age=0/i.test(line)) this.jar.delete(name);
      else this.jar.set(name, value);
    }
    return response;
  }

  async csrfToken(): Promise<string> {
    const body = (await (await this.request("/auth/csrf")).json()) as { csrfToken: string };
    return body.csrfToken;
  }

  post(path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
    return this.request(path, {
      method: "POST",
      body: new URLSearchParams(fields),
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    });
  }

  /** Asks for a sign-in link for `email` and returns it (path and query, on this origin). */
  async emailLink(email: string): Promise<string> {
    await this.post("/auth/signin/mailbox", { csrfToken: await this.csrfToken(), email });
    const link = sent.get(this.handle)?.at(-1);
    if (!link) throw new Error("no sign-in link was sent");
    const url = new URL(link);
    return `${url.pathname}${url.search}`;
  }

  async signIn(): Promise<void> {
    const csrfToken = await this.csrfToken();
    await this.post("/auth/callback/credentials", {
      csrfToken,
      username: "ada",
      password: "lovelace",
    });
  }
}

/** What is compared of an answer. */
interface Shape {
  status: number;
  location: string | null;
  contentType: string;
  body: unknown;
  sessionCookie: string;
}
type Field = keyof Shape;

/** Query parameters whose values are random on every request. */
const RANDOM_PARAMS = ["state", "code_challenge", "nonce"];

function maskedLocation(location: string | null): string | null {
  if (!location) return location;
  const url = new URL(location, ORIGIN);
  for (const name of RANDOM_PARAMS) if (url.searchParams.has(name)) url.searchParams.set(name, "*");
  return url.href;
}

/** The JSON body with every value replaced by its type: the shape clients depend on. */
function bodyShape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(bodyShape);
  if (value && typeof value === "object")
    return Object.fromEntries(
      Object.entries(value)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([key, inner]) => [key, bodyShape(inner)]),
    );
  return value === null ? "null" : typeof value;
}

/** The session cookie the answer sets: none, cleared, or set with these attributes. */
function sessionCookieOf(response: Response): string {
  const line = response.headers
    .getSetCookie()
    .find((cookie) => cookie.startsWith("authjs.session-token="));
  if (!line) return "untouched";
  const [pair = "", ...attributes] = line.split(";").map((part) => part.trim());
  const cleared = pair.endsWith("=") || /max-age=0/i.test(line);
  const kept = attributes
    .map((attribute) => attribute.split("=")[0]?.toLowerCase() ?? "")
    .filter((name) => ["path", "httponly", "samesite", "secure"].includes(name))
    .sort();
  return `${cleared ? "cleared" : "set"} ${kept.join(",")}`;
}

async function shapeOf(response: Response): Promise<Shape> {
  const contentType = (response.headers.get("content-type") ?? "").split(";")[0] ?? "";
  const text = await response.text();
  return {
    status: response.status,
    location: maskedLocation(response.headers.get("location")),
    contentType,
    body: contentType === "application/json" ? bodyShape(JSON.parse(text)) : text ? "text" : "",
    sessionCookie: sessionCookieOf(response),
  };
}

interface Case {
  name: string;
  run: (browser: Browser) => Promise<Response>;
  /** The documented difference: the guide entry's bold title and the fields that differ. */
  differs?: { guide: string; fields: Field[] };
}

const SIGN_IN_FAILURES = "Sign-in failures go back to the sign-in page";
const EVIL = "https://evil.example/steal";

const cases: Case[] = [
  { name: "GET /providers", run: (b) => b.request("/auth/providers") },
  { name: "GET /csrf", run: (b) => b.request("/auth/csrf") },
  { name: "GET /session, signed out", run: (b) => b.request("/auth/session") },
  { name: "GET /signin (page)", run: (b) => b.request("/auth/signin") },
  {
    name: "GET /signin/<unknown provider> goes to the error page (Configuration)",
    run: (b) => b.request("/auth/signin/nope"),
  },
  {
    name: "GET /signin/github (a provider's sign-in starts with a POST)",
    run: (b) => b.request("/auth/signin/github"),
  },
  { name: "GET /signout (page)", run: (b) => b.request("/auth/signout") },
  { name: "GET /verify-request (page)", run: (b) => b.request("/auth/verify-request") },
  {
    name: "GET /error?error=Verification",
    run: (b) => b.request("/auth/error?error=Verification"),
  },
  {
    name: "GET /error?error=AccessDenied",
    run: (b) => b.request("/auth/error?error=AccessDenied"),
  },
  { name: "GET /error with an unknown error", run: (b) => b.request("/auth/error?error=Nonsense") },
  { name: "GET an unknown action", run: (b) => b.request("/auth/nope") },
  {
    name: "POST /signin/github starts the authorization redirect",
    run: async (b) => b.post("/auth/signin/github", { csrfToken: await b.csrfToken() }),
  },
  {
    name: "POST /signin/github without the CSRF token (login CSRF)",
    run: (b) => b.post("/auth/signin/github", {}),
  },
  {
    name: "POST /signin/<unknown provider>",
    run: async (b) => b.post("/auth/signin/nope", { csrfToken: await b.csrfToken() }),
    differs: { guide: SIGN_IN_FAILURES, fields: ["location"] },
  },
  {
    name: "GET /callback/<unknown provider>",
    run: (b) => b.request("/auth/callback/nope"),
    differs: { guide: SIGN_IN_FAILURES, fields: ["location"] },
  },
  {
    name: "GET /callback/github with a forged state (no state cookie)",
    run: (b) => b.request("/auth/callback/github?code=forged&state=forged"),
    differs: { guide: SIGN_IN_FAILURES, fields: ["location"] },
  },
  {
    name: "GET /callback/github with the provider's error=access_denied",
    run: (b) => b.request("/auth/callback/github?error=access_denied&state=x"),
  },
  {
    name: "POST /callback/credentials with a wrong password",
    run: async (b) =>
      b.post("/auth/callback/credentials", {
        csrfToken: await b.csrfToken(),
        username: "ada",
        password: "wrong",
      }),
  },
  {
    name: "POST /callback/credentials without the CSRF token",
    run: (b) => b.post("/auth/callback/credentials", { username: "ada", password: "lovelace" }),
  },
  {
    name: "POST /callback/credentials signs in",
    run: async (b) =>
      b.post("/auth/callback/credentials", {
        csrfToken: await b.csrfToken(),
        username: "ada",
        password: "lovelace",
        callbackUrl: "/dashboard",
      }),
  },
  {
    name: "POST /callback/credentials with a callbackUrl to another site (open redirect)",
    run: async (b) =>
      b.post("/auth/callback/credentials", {
        csrfToken: await b.csrfToken(),
        username: "ada",
        password: "lovelace",
        callbackUrl: EVIL,
      }),
  },
  {
    name: "GET /session, signed in",
    run: async (b) => {
      await b.signIn();
      return b.request("/auth/session");
    },
    differs: {
      guide: "A JWT session read re-issues the cookie only when it is due",
      fields: ["sessionCookie"],
    },
  },
  {
    name: "GET /session with a tampered session cookie",
    run: (b) =>
      b.request("/auth/session", { headers: { cookie: "authjs.session-token=not.a.jwe.at.all" } }),
  },
  {
    name: "POST /session without the CSRF token",
    run: (b) =>
      b.request("/auth/session", {
        method: "POST",
        body: JSON.stringify({ data: { name: "x" } }),
        headers: { "content-type": "application/json" },
      }),
  },
  {
    name: "POST /signout, signed in, with a callbackUrl to another site",
    run: async (b) => {
      await b.signIn();
      return b.post("/auth/signout", { csrfToken: await b.csrfToken(), callbackUrl: EVIL });
    },
  },
  {
    name: "POST /signout with a foreign CSRF token (logout CSRF)",
    run: async (b) => {
      await b.signIn();
      return b.post("/auth/signout", { csrfToken: "planted" });
    },
  },
  {
    name: "POST /signout as a client (X-Auth-Return-Redirect)",
    run: async (b) =>
      b.post(
        "/auth/signout",
        { csrfToken: await b.csrfToken(), callbackUrl: "/bye" },
        { "X-Auth-Return-Redirect": "1" },
      ),
  },
  {
    name: "POST /signin/nodemailer when sending fails",
    run: async (b) =>
      b.post("/auth/signin/nodemailer", {
        csrfToken: await b.csrfToken(),
        email: "ada@example.com",
      }),
    differs: { guide: SIGN_IN_FAILURES, fields: ["location"] },
  },
  {
    name: "GET /callback/nodemailer with an unknown token",
    run: (b) => b.request("/auth/callback/nodemailer?token=guess&email=ada%40example.com"),
  },
  {
    name: "PUT /session (a method no action takes)",
    run: (b) => b.request("/auth/session", { method: "PUT" }),
  },
  {
    name: "POST /callback/credentials with a malformed JSON body",
    run: (b) =>
      b.request("/auth/callback/credentials", {
        method: "POST",
        body: '{"csrfToken": "x", "password": ',
        headers: { "content-type": "application/json" },
      }),
  },
  {
    name: "POST /callback/credentials with a body of the wrong type",
    run: (b) =>
      b.request("/auth/callback/credentials", {
        method: "POST",
        body: "\u0000\u0001 not a form",
        headers: { "content-type": "text/plain" },
      }),
  },
  {
    name: "POST /signin/mailbox sends a link and goes to verify-request",
    run: async (b) =>
      b.post("/auth/signin/mailbox", { csrfToken: await b.csrfToken(), email: "ada@example.com" }),
  },
  {
    name: "GET the e-mailed link signs in",
    run: async (b) => b.request(await b.emailLink("ada@example.com")),
  },
  {
    name: "GET the e-mailed link a second time (a used link)",
    run: async (b) => {
      const link = await b.emailLink("ada@example.com");
      await b.request(link);
      return b.request(link);
    },
  },
  {
    name: "GET /webauthn-options for a provider that is not WebAuthn",
    run: (b) => b.request("/auth/webauthn-options/github"),
    differs: { guide: SIGN_IN_FAILURES, fields: ["status", "location", "contentType", "body"] },
  },
];

const guide = readFileSync(
  new URL("../../../docs/migrating-from-authjs.md", import.meta.url),
  "utf8",
);

describe("the same requests to @auth/core and to Tessera", () => {
  it.each(cases)("$name", async ({ run, differs }) => {
    const sides = handlers();
    const authjs = await shapeOf(await run(new Browser(sides.authjs)));
    const tessera = await shapeOf(await run(new Browser(sides.tessera)));
    const differing = (Object.keys(authjs) as Field[]).filter(
      (field) => JSON.stringify(authjs[field]) !== JSON.stringify(tessera[field]),
    );
    if (!differs) {
      expect(tessera).toEqual(authjs);
      return;
    }
    expect(guide).toContain(`**${differs.guide}`);
    expect(differing, JSON.stringify({ authjs, tessera })).toEqual(differs.fields);
  });

  it("reads each other's session tokens (same cookie, same secret)", async () => {
    const sides = handlers();
    const tokens: Partial<Record<Side, string>> = {};
    for (const side of ["authjs", "tessera"] as const) {
      const browser = new Browser(sides[side]);
      await browser.signIn();
      tokens[side] = browser.jar.get("authjs.session-token");
    }
    const salt = "authjs.session-token";
    const byAuthJs = await decodeAuthJs({ token: tokens.tessera, secret: SECRET, salt });
    const byTessera = await decode({ token: tokens.authjs, secret: SECRET, salt });
    expect(byAuthJs).toMatchObject({ email: ADA.email, name: ADA.name, sub: ADA.id });
    expect(byTessera).toMatchObject({ email: ADA.email, name: ADA.name, sub: ADA.id });
  });
});
