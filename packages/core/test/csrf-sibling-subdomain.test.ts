/**
 * The planted-pair attack over plain http. A page on a sibling subdomain (evil.example.test) can
 * set cookies for the parent domain, so it plants in the victim's browser a CSRF cookie the app
 * minted for the attacker (`GET /csrf`: the pair carries the app's own hash) and posts the
 * attacker's token to app.example.test. Both sites are one site, so SameSite=Lax lets the
 * session cookie go along; the double-submit token matches. The browser's `Sec-Fetch-Site`
 * (else `Origin`) still says where the post came from, and Tessera refuses it there.
 *
 * A real node:http server on 127.0.0.1 answers through `toNodeHandler`; requests carry
 * `Host: app.example.test` and the Cookie header a browser would send after the plant (the
 * attacker's cookie, set with `Path=/auth`, comes before the victim's own).
 */
import { once } from "node:events";
import http, { type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { AuthConfig } from "@tessera/core";
import { toNodeHandler } from "@tessera/core/node";
import Credentials from "@tessera/core/providers/credentials";
import { createMemoryStore, MemoryAdapter } from "@tessera/memory";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, recordingLogger, SECRET } from "./helpers.js";

const APP = "http://app.example.test";
const SIBLING = "http://evil.example.test";
const CSRF = "authjs.csrf-token";
const SESSION = "authjs.session-token";

/** What a browser on the sibling site adds to its post to the app. */
const FROM_SIBLING = { origin: SIBLING, "sec-fetch-site": "same-site" };
/** The same post from a browser that sends `Origin` but no fetch metadata… */
const FROM_SIBLING_OLD_BROWSER = { origin: SIBLING };
/** …and with fetch metadata but no `Origin`. */
const FROM_SIBLING_NO_ORIGIN = { "sec-fetch-site": "same-site" };

let server: Server;
let port: number;

const config: AuthConfig = {
  secret: SECRET,
  trustHost: true,
  logger: recordingLogger().logger,
  adapter: MemoryAdapter(createMemoryStore()),
  session: { strategy: "database" },
  providers: [
    Credentials({
      credentials: { username: {}, password: { type: "password" } },
      authorize: ({ username, password }) =>
        password === "lovelace"
          ? { id: String(username), name: String(username), email: `${username}@example.test` }
          : null,
    }),
  ],
};

beforeAll(async () => {
  server = http.createServer(toNodeHandler(config)).listen(0, "127.0.0.1");
  await once(server, "listening");
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

interface Answer {
  status: number;
  location: string | undefined;
  cookies: Map<string, string>;
  body: string;
}

/** One HTTP request to the app as `Host: app.example.test`. */
function send(
  method: "GET" | "POST",
  path: string,
  {
    cookie,
    form,
    json,
    headers = {},
  }: {
    cookie?: string;
    form?: Record<string, string>;
    json?: unknown;
    headers?: Record<string, string>;
  } = {},
): Promise<Answer> {
  const body =
    form !== undefined
      ? new URLSearchParams(form).toString()
      : json !== undefined
        ? JSON.stringify(json)
        : undefined;
  const contentType = form ? "application/x-www-form-urlencoded" : "application/json";
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: "127.0.0.1",
        port,
        method,
        path,
        headers: {
          host: "app.example.test",
          ...(cookie && { cookie }),
          ...(body !== undefined && { "content-type": contentType }),
          ...headers,
        },
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          text += chunk;
        });
        response.on("end", () => {
          const cookies = new Map<string, string>();
          for (const header of response.headers["set-cookie"] ?? []) {
            const [pair = ""] = header.split(";");
            const separator = pair.indexOf("=");
            cookies.set(pair.slice(0, separator), pair.slice(separator + 1));
          }
          resolve({
            status: response.statusCode ?? 0,
            location: response.headers.location,
            cookies,
            body: text,
          });
        });
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

/** A CSRF pair minted by the app: the cookie value and its token. */
async function mintedPair(): Promise<{ cookie: string; token: string }> {
  const answer = await send("GET", "/auth/csrf");
  const { csrfToken } = JSON.parse(answer.body) as { csrfToken: string };
  return { cookie: answer.cookies.get(CSRF) ?? "", token: csrfToken };
}

/** Signs `name` in on a device of their own; answers that device's session cookie. */
async function signedIn(name: string): Promise<string> {
  const own = await mintedPair();
  const answer = await send("POST", "/auth/callback/credentials", {
    cookie: `${CSRF}=${own.cookie}`,
    form: { csrfToken: own.token, username: name, password: "lovelace" },
    headers: { origin: APP, "sec-fetch-site": "same-origin" },
  });
  const session = answer.cookies.get(SESSION);
  if (!session) throw new Error(`sign-in failed: ${answer.status} ${answer.location}`);
  return session;
}

/** The user name of the session behind `session`, or null when it reads as signed out. */
async function sessionUser(session: string): Promise<string | null> {
  const answer = await send("GET", "/auth/session", { cookie: `${SESSION}=${session}` });
  const body = JSON.parse(answer.body) as { user?: { name?: string } } | null;
  return body?.user?.name ?? null;
}

/**
 * The victim's Cookie header after the plant: the attacker's pair first (its `Path=/auth` is
 * longer), then the victim's own CSRF cookie and session.
 */
async function victimWithPlantedPair(name: string) {
  const session = await signedIn(name);
  const victimsOwn = await mintedPair();
  const planted = await mintedPair();
  return {
    session,
    token: planted.token,
    cookie: `${CSRF}=${planted.cookie}; ${CSRF}=${victimsOwn.cookie}; ${SESSION}=${session}`,
  };
}

describe("a CSRF pair planted from a sibling subdomain over http", () => {
  it("does not let the sibling revoke the victim's other sessions (POST /sessions/revoke others=true)", async () => {
    const victim = await victimWithPlantedPair("ada-revoke");
    const otherDevice = await signedIn("ada-revoke");
    for (const headers of [FROM_SIBLING, FROM_SIBLING_OLD_BROWSER, FROM_SIBLING_NO_ORIGIN]) {
      const answer = await send("POST", "/auth/sessions/revoke", {
        cookie: victim.cookie,
        form: { csrfToken: victim.token, others: "true" },
        headers,
      });
      expect(answer.status).toBe(403);
    }
    expect(await sessionUser(otherDevice)).toBe("ada-revoke");
  });

  it("does not let the sibling sign the victim out", async () => {
    const victim = await victimWithPlantedPair("ada-signout");
    for (const headers of [FROM_SIBLING, FROM_SIBLING_OLD_BROWSER, FROM_SIBLING_NO_ORIGIN]) {
      const answer = await send("POST", "/auth/signout", {
        cookie: victim.cookie,
        form: { csrfToken: victim.token },
        headers,
      });
      expect(answer.location).toBe(`${APP}/auth/signin?error=MissingCSRF`);
      expect(answer.cookies.get(SESSION)).toBeUndefined();
    }
    expect(await sessionUser(victim.session)).toBe("ada-signout");
  });

  it("does not let the sibling update the victim's session (POST /session)", async () => {
    const victim = await victimWithPlantedPair("ada-update");
    const answer = await send("POST", "/auth/session", {
      cookie: victim.cookie,
      json: { csrfToken: victim.token, data: { name: "mallory" } },
      headers: FROM_SIBLING,
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toBe("null");
  });

  it("does not let the sibling sign the victim into the attacker's account (login CSRF)", async () => {
    const planted = await mintedPair();
    const answer = await send("POST", "/auth/callback/credentials", {
      cookie: `${CSRF}=${planted.cookie}`,
      form: { csrfToken: planted.token, username: "mallory", password: "lovelace" },
      headers: FROM_SIBLING,
    });
    expect(answer.location).toBe(`${APP}/auth/signin?error=MissingCSRF`);
    expect(answer.cookies.get(SESSION)).toBeUndefined();
  });

  it("still accepts a post from another port of the app's host (a development front end)", async () => {
    // Cookies are shared by every port of a host, so another port is no other party.
    const victim = await victimWithPlantedPair("ada-dev-server");
    const answer = await send("POST", "/auth/signout", {
      cookie: victim.cookie,
      form: { csrfToken: victim.token },
      headers: { origin: "http://app.example.test:5173", "sec-fetch-site": "same-site" },
    });
    expect(answer.location).toBe(APP);
  });

  it("still accepts the token from the app's own pages and from clients that send no origin", async () => {
    // The planted pair is a valid pair: only where the post comes from tells the attack apart.
    const sameOrigin = await victimWithPlantedPair("ada-own-page");
    const fromOwnPage = await send("POST", "/auth/signout", {
      cookie: sameOrigin.cookie,
      form: { csrfToken: sameOrigin.token },
      headers: { origin: APP, "sec-fetch-site": "same-origin" },
    });
    expect(fromOwnPage.location).toBe(APP);
    expect(await sessionUser(sameOrigin.session)).toBeNull();
    // A server-side client (no Origin, no Sec-Fetch-Site) keeps the double-submit check alone.
    const serverSide = await victimWithPlantedPair("ada-server-side");
    const fromServer = await send("POST", "/auth/signout", {
      cookie: serverSide.cookie,
      form: { csrfToken: serverSide.token },
    });
    expect(fromServer.location).toBe(APP);
  });
});

describe("over https, where the CSRF cookie is __Host-", () => {
  it("accepts a post from a front end on another sub-domain, as Auth.js does: no sibling can plant a __Host- cookie", async () => {
    const https = new Client(config, "https://app.example.test");
    const csrfToken = await https.csrfToken();
    expect(https.jar.has("__Host-authjs.csrf-token")).toBe(true);
    const answer = await https.post(
      "/auth/signout",
      { csrfToken },
      { origin: "https://front.example.test", "sec-fetch-site": "same-site" },
    );
    expect(answer.headers.get("location")).toBe("https://app.example.test");
  });
});
