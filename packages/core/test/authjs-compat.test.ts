/**
 * The same requests sent to `@auth/core` and to Tessera, compared answer by answer: status,
 * `Location`, and the JSON body. Each case is a behaviour Auth.js v5 apps rely on.
 */
import { Auth as AuthJs } from "@auth/core";
import AuthJsCredentials from "@auth/core/providers/credentials";
import AuthJsGitHub from "@auth/core/providers/github";
import { Auth } from "@tessera/core";
import Credentials from "@tessera/core/providers/credentials";
import GitHub from "@tessera/core/providers/github";
import { describe, expect, it } from "vitest";
import { ORIGIN, recordingLogger, SECRET } from "./helpers.js";
import { setCookies } from "./set-cookie.js";

type Handler = (request: Request) => Promise<Response>;

const common = {
  secret: SECRET,
  trustHost: true,
  basePath: "/auth",
  // The CSRF failures these cases provoke on purpose are recorded, not printed by both sides.
  logger: recordingLogger().logger,
};
/** A user with an e-mail address only: no name, no image. */
const authorize = () => ({ id: "user-1", email: "ada@example.com" });
/** Both libraries, configured alike; `extra` goes into both configs. */
function sidesWith(
  extra: { redirectProxyUrl?: string } = {},
): Record<"authjs" | "tessera", Handler> {
  return {
    authjs: (request) =>
      AuthJs(request, {
        ...common,
        ...extra,
        providers: [
          AuthJsGitHub({ clientId: "id", clientSecret: "secret" }),
          AuthJsCredentials({ authorize }),
        ],
      }),
    tessera: (request) =>
      Auth(request, {
        ...common,
        ...extra,
        providers: [GitHub({ clientId: "id", clientSecret: "secret" }), Credentials({ authorize })],
      }),
  };
}
const sides = sidesWith();

/** A browser of one side: keeps the cookies it is given. */
function browser(handle: Handler) {
  const jar = new Map<string, string>();
  return async (path: string, init: RequestInit = {}): Promise<Response> => {
    const headers = new Headers(init.headers);
    if (jar.size) headers.set("cookie", [...jar].map(([n, v]) => `${n}=${v}`).join("; "));
    const response = await handle(new Request(new URL(path, ORIGIN), { ...init, headers }));
    for (const [name, cookie] of setCookies(response)) jar.set(name, cookie.value);
    return response;
  };
}

function form(fields: Record<string, string>, headers: Record<string, string> = {}): RequestInit {
  return {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
  };
}

interface Answer {
  status: number;
  location: string | null;
  body: unknown;
}

async function answerOf(response: Response): Promise<Answer> {
  const text = await response.text();
  let body: unknown = text;
  if (response.headers.get("content-type")?.startsWith("application/json")) body = JSON.parse(text);
  return { status: response.status, location: response.headers.get("location"), body };
}

/** Runs `scenario` against both libraries and returns the two answers. */
async function both(
  scenario: (request: ReturnType<typeof browser>) => Promise<Response>,
  on = sides,
): Promise<Record<"authjs" | "tessera", Answer>> {
  return {
    authjs: await answerOf(await scenario(browser(on.authjs))),
    tessera: await answerOf(await scenario(browser(on.tessera))),
  };
}

async function csrfTokenOf(request: ReturnType<typeof browser>): Promise<string> {
  const { csrfToken } = (await (await request("/auth/csrf")).json()) as { csrfToken: string };
  return csrfToken;
}

const returnRedirect = { "X-Auth-Return-Redirect": "1" };

describe("answers that match @auth/core", () => {
  it("login CSRF: a sign-in POST without the CSRF token lands on the sign-in page with error=MissingCSRF", async () => {
    const { authjs, tessera } = await both((request) => request("/auth/signin/github", form({})));
    expect(authjs).toEqual({
      status: 302,
      location: `${ORIGIN}/auth/signin?error=MissingCSRF`,
      body: "",
    });
    expect(tessera).toEqual(authjs);
  });

  it("logout CSRF: a sign-out POST with a foreign CSRF token lands on the sign-in page with error=MissingCSRF", async () => {
    const { authjs, tessera } = await both(async (request) => {
      await csrfTokenOf(request);
      return request("/auth/signout", form({ csrfToken: "planted-by-another-site" }));
    });
    expect(authjs.location).toBe(`${ORIGIN}/auth/signin?error=MissingCSRF`);
    expect(tessera).toEqual(authjs);
  });

  it("answers a client's CSRF failure as JSON { url } when it asks with X-Auth-Return-Redirect", async () => {
    const { authjs, tessera } = await both((request) =>
      request("/auth/signout", form({}, returnRedirect)),
    );
    expect(authjs.body).toEqual({ url: `${ORIGIN}/auth/signin?error=MissingCSRF` });
    expect(tessera.status).toBe(authjs.status);
    expect(tessera.body).toEqual(authjs.body);
  });

  it("answers X-Auth-Return-Redirect with 200 JSON { url } and the Location header too", async () => {
    const { authjs, tessera } = await both(async (request) => {
      const csrfToken = await csrfTokenOf(request);
      return request("/auth/signout", form({ csrfToken, callbackUrl: "/bye" }, returnRedirect));
    });
    expect(authjs).toEqual({
      status: 200,
      location: `${ORIGIN}/bye`,
      body: { url: `${ORIGIN}/bye` },
    });
    expect(tessera).toEqual(authjs);
  });

  it("answers a session update without the CSRF token with 400 null, not a redirect", async () => {
    const { authjs, tessera } = await both((request) =>
      request("/auth/session", {
        method: "POST",
        body: JSON.stringify({ data: { name: "x" } }),
        headers: { "content-type": "application/json" },
      }),
    );
    expect(authjs).toEqual({ status: 400, location: null, body: null });
    expect(tessera).toEqual(authjs);
  });

  it("omits name and image from the session of a user who has none, instead of null", async () => {
    const { authjs, tessera } = await both(async (request) => {
      const csrfToken = await csrfTokenOf(request);
      await request("/auth/callback/credentials", form({ csrfToken }));
      return request("/auth/session");
    });
    expect(authjs.body).toMatchObject({ user: { email: "ada@example.com" } });
    expect(Object.keys((authjs.body as { user: object }).user)).toEqual(["email"]);
    expect({ ...(tessera.body as object), expires: "" }).toEqual({
      ...(authjs.body as object),
      expires: "",
    });
  });

  it("lists this deployment's callback URL under GET /providers behind a redirect proxy", async () => {
    const proxied = sidesWith({ redirectProxyUrl: "https://proxy.example.com/auth" });
    const { authjs, tessera } = await both((request) => request("/auth/providers"), proxied);
    expect(authjs.body).toMatchObject({
      github: { callbackUrl: `${ORIGIN}/auth/callback/github` },
    });
    expect(tessera).toEqual(authjs);
  });
});
