/**
 * Fuzzing `Auth()` with hostile input in every field (path, query, form and JSON bodies, cookies,
 * headers) at every action, with several providers and both session strategies. The property:
 * `Auth()` resolves, never answers 5xx on a valid configuration, never redirects off-site, and no
 * answer carries a secret, a stack frame or a file path. Some cases carry a valid CSRF token, a
 * valid session or valid OAuth check cookies so that the fuzz reaches past the first check.
 *
 * The seed is random on every run; fast-check prints it (and the shrunk counterexample) when a
 * property fails, so a failure is reproduced with `{ seed, path }` in the failing `fc.assert`.
 */
import { Auth, type AuthConfig } from "@tessera/core";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import {
  bodyText,
  cookieName,
  cookieValue,
  FUZZ_ORIGIN,
  type FuzzCase,
  findLeak,
  formText,
  fuzzCase,
  fuzzConfig,
  hostileFields,
  IDP_ORIGIN,
  idpAnswer,
  MaliciousIdp,
  misconfiguredConfig,
  OIDC_ORIGIN,
  type SentLink,
  safeEncode,
  safeStringify,
  toHeaderValue,
  tokenAnswer,
  withCsrfToken,
} from "./fuzz-arbitraries.js";
import { parseSetCookie } from "./set-cookie.js";

const ALLOWED_REDIRECT_ORIGINS = new Set([FUZZ_ORIGIN, IDP_ORIGIN, OIDC_ORIGIN]);
const CONFIGURATION_MESSAGE =
  "There was a problem with the server configuration. Check the server logs for more information.";

/** Valid credentials a case may carry so the fuzz gets past CSRF and session checks. */
interface Fixture {
  csrfToken?: string;
  /** Cookies as `name=value` pairs. */
  csrfCookie?: string;
  sessionCookies?: string[];
}

/** A `Cookie` header from `Set-Cookie` headers (deleted cookies left out). */
function cookiesFrom(response: Response): string[] {
  return response.headers
    .getSetCookie()
    .map(parseSetCookie)
    .filter((cookie) => cookie.value !== "" && cookie.maxAge !== 0)
    .map((cookie) => `${cookie.name}=${cookie.value}`);
}

/** A CSRF token and cookie, and the cookies of a credentials sign-in as Ada. */
async function prepareFixture(config: AuthConfig): Promise<Fixture> {
  const csrf = await Auth(new Request(`${FUZZ_ORIGIN}/auth/csrf`), config);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const csrfCookie = cookiesFrom(csrf).join("; ");
  const signIn = await Auth(
    new Request(`${FUZZ_ORIGIN}/auth/callback/credentials`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: csrfCookie },
      body: new URLSearchParams({ csrfToken, username: "ada", password: "lovelace" }),
    }),
    config,
  );
  const sessionCookies = cookiesFrom(signIn).filter((c) => c.includes("session-token"));
  expect(sessionCookies, "the fixture sign-in must succeed").toHaveLength(1);
  return { csrfToken, csrfCookie, sessionCookies };
}

/** Builds the request of a case, and the text it carries (for telling echoes from leaks). */
function buildRequest(c: FuzzCase, fixture: Fixture): { request: Request; sent: string } {
  const url = new URL(`${FUZZ_ORIGIN}/auth/${c.path}`);
  const query = formText(c.query);
  url.search = [query, c.rawQuery].filter(Boolean).join("&");

  const cookiePairs = c.cookies.map(
    ([name, value, encode]) => `${name}=${encode ? safeEncode(value) : value}`,
  );
  if (c.withCsrf && fixture.csrfCookie) cookiePairs.push(fixture.csrfCookie);
  if (c.withSession && fixture.sessionCookies) cookiePairs.push(...fixture.sessionCookies);

  const headers = new Headers();
  if (cookiePairs.length) headers.set("cookie", toHeaderValue(cookiePairs.join("; ")));
  for (const [name, value] of c.headers) headers.append(name, toHeaderValue(value));

  const upper = c.method.toUpperCase();
  let body: string | undefined;
  if (c.body && upper !== "GET" && upper !== "HEAD") {
    const withToken =
      c.withCsrf && fixture.csrfToken ? withCsrfToken(c.body, fixture.csrfToken) : c.body;
    body = bodyText(withToken);
    if (!headers.has("content-type") && withToken.contentType)
      headers.set("content-type", toHeaderValue(withToken.contentType));
  }
  const request = new Request(url, { method: c.method, headers, body });
  const sent = [url.href, decodeURIComponentSafe(url.href), ...headers.values(), body ?? ""].join(
    "\n",
  );
  return { request, sent: sent + (body ? safeStringify(c.body) : "") };
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Everything a client sees of `response`: status, headers, body. */
async function answerText(response: Response): Promise<{ text: string; body: string }> {
  const body = await response.text();
  const headers = [...response.headers].map(([name, value]) => `${name}: ${value}`).join("\n");
  return { text: `${response.status}\n${headers}\n\n${body}`, body };
}

/** Redirects (302 `Location` or `{url}` for X-Auth-Return-Redirect) stay on the allowed origins. */
function expectNoOpenRedirect(response: Response, body: string): void {
  const targets: string[] = [];
  const location = response.headers.get("location");
  if (location !== null) targets.push(location);
  if (response.headers.get("content-type")?.includes("application/json")) {
    const parsed: unknown = JSON.parse(body);
    if (parsed && typeof parsed === "object" && "url" in parsed && typeof parsed.url === "string")
      targets.push(parsed.url);
  }
  for (const target of targets) {
    expect(ALLOWED_REDIRECT_ORIGINS, `redirect to ${target}`).toContain(new URL(target).origin);
  }
}

/** Every address given to `sendVerificationRequest` is one plain canonical address. */
function expectCanonicalRecipients(sent: SentLink[]): void {
  for (const { identifier, url } of sent.splice(0)) {
    expect(identifier).toMatch(/^[^\s,;:"<>()[\]\\@]+@[^\s,;:"<>()[\]\\@]+$/u);
    expect(identifier).toBe(identifier.normalize("NFKC").toLowerCase());
    expect(new URL(url).origin).toBe(FUZZ_ORIGIN);
  }
}

const mostlyTrue = fc.oneof(
  { weight: 4, arbitrary: fc.constant(true) },
  { weight: 1, arbitrary: fc.constant(false) },
);

const RUNS = { jwt: 1500, database: 1500, oauth: 500, misconfigured: 300 };
const TIMEOUT = 60_000;

describe.each(["jwt", "database"] as const)("Auth() fuzzed with %s sessions", (strategy) => {
  const idp = new MaliciousIdp();
  const sent: SentLink[] = [];
  const config = fuzzConfig({ strategy, idp, sent });
  let fixture: Fixture;
  beforeAll(async () => {
    fixture = await prepareFixture(config);
  });

  it(
    `resolves, never answers 5xx, never redirects off-site, never shows a secret, stack or path (${strategy})`,
    async () => {
      await fc.assert(
        fc.asyncProperty(fuzzCase, idpAnswer, async (c, answer) => {
          idp.answers = [answer];
          const { request, sent: requestText } = buildRequest(c, fixture);
          const response = await Auth(request, config);
          const { text, body } = await answerText(response);
          expect(response.status, text.slice(0, 500)).toBeLessThan(500);
          expect(findLeak(text, requestText)).toBeUndefined();
          expectNoOpenRedirect(response, body);
          expectCanonicalRecipients(sent);
        }),
        { numRuns: RUNS[strategy] },
      );
    },
    TIMEOUT,
  );
});

describe("OAuth and OIDC callbacks fuzzed past the state, PKCE and nonce checks", () => {
  const idp = new MaliciousIdp();
  const sent: SentLink[] = [];
  const config = fuzzConfig({ strategy: "jwt", idp, sent });
  /** Per provider: the valid `state` parameter and check cookies of a started sign-in. */
  const started = new Map<string, { state: string; cookies: string[] }>();

  beforeAll(async () => {
    const fixture = await prepareFixture(config);
    for (const provider of ["fuzz-oauth", "fuzz-oidc"]) {
      const response = await Auth(
        new Request(`${FUZZ_ORIGIN}/auth/signin/${provider}`, {
          method: "POST",
          headers: {
            "content-type": "application/x-www-form-urlencoded",
            cookie: fixture.csrfCookie ?? "",
          },
          body: new URLSearchParams({ csrfToken: fixture.csrfToken ?? "" }),
        }),
        config,
      );
      const location = new URL(response.headers.get("location") ?? "");
      const state = location.searchParams.get("state") ?? "";
      expect(state, `${provider} sign-in must start`).not.toBe("");
      started.set(provider, { state, cookies: cookiesFrom(response) });
    }
  });

  const callbackCase = fc.record({
    provider: fc.constantFrom("fuzz-oauth", "fuzz-oidc"),
    method: fc.constantFrom("GET", "POST"),
    params: fc.oneof(fc.constant<[string, unknown][]>([]), hostileFields),
    validState: mostlyTrue,
    dropCookie: fc.oneof(
      { weight: 3, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: fc.nat({ max: 3 }) },
    ),
    extraCookies: fc.array(fc.tuple(cookieName, cookieValue), { maxLength: 2 }),
    answers: fc
      .tuple(tokenAnswer, fc.array(idpAnswer, { minLength: 1, maxLength: 2 }))
      .map(([token, rest]) => [token, ...rest]),
  });

  it(
    "a malicious identity provider cannot make Auth() fail or forge an ID token",
    async () => {
      await fc.assert(
        fc.asyncProperty(callbackCase, async (c) => {
          idp.answers = [...c.answers];
          const flow = started.get(c.provider);
          if (!flow) throw new Error("sign-in not started");
          const params = new URLSearchParams(formText(c.params));
          if (c.validState) params.set("state", flow.state);
          if (!params.has("code")) params.set("code", "fuzz-code");
          const cookies = flow.cookies.filter((_, i) => i !== c.dropCookie);
          cookies.push(...c.extraCookies.map(([n, v]) => `${n}=${safeEncode(v)}`));
          const url = new URL(`${FUZZ_ORIGIN}/auth/callback/${c.provider}`);
          const headers = new Headers({ cookie: toHeaderValue(cookies.join("; ")) });
          let body: string | undefined;
          if (c.method === "GET") url.search = params.toString();
          else {
            headers.set("content-type", "application/x-www-form-urlencoded");
            body = params.toString();
          }
          const request = new Request(url, { method: c.method, headers, body });
          const response = await Auth(request, config);
          const { text, body: responseBody } = await answerText(response);
          expect(response.status, text.slice(0, 500)).toBeLessThan(500);
          expect(findLeak(text, `${url.href}\n${body ?? ""}`)).toBeUndefined();
          expectNoOpenRedirect(response, responseBody);
          if (c.provider === "fuzz-oidc") {
            // No JWKS the fuzzer can produce matches a signature it can produce: no session.
            const session = response.headers
              .getSetCookie()
              .map(parseSetCookie)
              .find((cookie) => cookie.name.includes("session-token") && cookie.value !== "");
            expect(session).toBeUndefined();
          }
        }),
        { numRuns: RUNS.oauth },
      );
    },
    TIMEOUT,
  );
});

describe("a misconfigured Auth() fuzzed", () => {
  const config = misconfiguredConfig();

  it(
    "answers at most 500 with a generic {message} or the error page, never a stack or secret",
    async () => {
      await fc.assert(
        fc.asyncProperty(fuzzCase, async (c) => {
          const { request, sent } = buildRequest(c, {});
          const response = await Auth(request, config);
          const { text, body } = await answerText(response);
          expect(response.status, text.slice(0, 500)).toBeLessThanOrEqual(500);
          expect(findLeak(text, sent)).toBeUndefined();
          expectNoOpenRedirect(response, body);
          if (response.status === 500) {
            const type = response.headers.get("content-type") ?? "";
            if (type.includes("application/json"))
              expect(JSON.parse(body)).toEqual({ message: CONFIGURATION_MESSAGE });
            else expect(type).toContain("text/html");
          }
        }),
        { numRuns: RUNS.misconfigured },
      );
    },
    TIMEOUT,
  );
});
