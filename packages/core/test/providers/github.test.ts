/**
 * GitHub against a local server answering like GitHub's documented OAuth and REST endpoints
 * (github.com/login/oauth/*, api.github.com/user and /user/emails).
 */
import { customFetch } from "@tessera/core";
import GitHub, { pickGitHubEmail } from "@tessera/core/providers/github";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { locationOf, startSignIn } from "../fixtures/oauth-flow.js";
import { answerAuthorization, providerConfig, tokenResponse } from "../fixtures/provider-flow.js";
import { type ProviderServer, startProviderServer } from "../fixtures/provider-server.js";
import { Client, ORIGIN } from "../helpers.js";

let server: ProviderServer;
beforeAll(async () => {
  server = await startProviderServer();
});
afterAll(() => server?.close());
beforeEach(() => server.reset());

const USER = {
  login: "octocat",
  id: 583231,
  avatar_url: "https://avatars.githubusercontent.com/u/583231?v=4",
  name: null,
  email: null,
};

function github(options: Parameters<typeof GitHub>[0] = {}) {
  return GitHub({
    clientId: "gh-id",
    clientSecret: "gh-secret",
    [customFetch]: server.fetch,
    ...options,
  });
}

function serveGitHub(
  base = "https://github.com",
  api = "https://api.github.com",
  emails?: unknown,
) {
  server.on(`POST ${base}/login/oauth/access_token`, () =>
    // GitHub answers JSON only when asked to, and calls its token type "bearer".
    tokenResponse({ token_type: "bearer", scope: "read:user,user:email", expires_in: undefined }),
  );
  server.on(`GET ${api}/user`, () => Response.json(USER));
  server.on(`GET ${api}/user/emails`, () =>
    Response.json(
      emails ?? [
        { email: "old@example.com", primary: false, verified: true, visibility: null },
        { email: "Octo@Example.com", primary: true, verified: true, visibility: "private" },
        { email: "unverified@example.com", primary: false, verified: false, visibility: null },
      ],
    ),
  );
}

describe("GitHub", () => {
  it("signs in, finding the private e-mail in /user/emails", async () => {
    serveGitHub();
    const { config } = providerConfig(github());
    const client = new Client(config);
    const authorizationUrl = await startSignIn(client, "github");
    expect(`${authorizationUrl.origin}${authorizationUrl.pathname}`).toBe(
      "https://github.com/login/oauth/authorize",
    );
    expect(authorizationUrl.searchParams.get("scope")).toBe("read:user user:email");
    expect(authorizationUrl.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorizationUrl.searchParams.get("redirect_uri")).toBe(
      `${ORIGIN}/auth/callback/github`,
    );

    const response = await answerAuthorization(client, authorizationUrl);
    expect(locationOf(response).origin).toBe(ORIGIN);

    const [token] = server.requestsTo("https://github.com/login/oauth/access_token");
    expect(token?.headers.get("accept")).toBe("application/json");
    expect(token?.headers.get("authorization")).toBe(`Basic ${btoa("gh-id:gh-secret")}`);
    expect(token?.form.get("code")).toBe("provider-code");
    expect(token?.form.get("code_verifier")).toBeTruthy();
    for (const request of [
      ...server.requestsTo("https://api.github.com/user"),
      ...server.requestsTo("https://api.github.com/user/emails"),
    ]) {
      expect(request.headers.get("authorization")).toBe("Bearer provider-access-token");
      expect(request.headers.get("user-agent")).toBe("tessera");
    }
    expect(server.requestsTo("https://api.github.com/user/emails")).toHaveLength(1);

    expect((await client.session())?.user).toEqual({
      name: "octocat", // login stands in for a missing name
      email: "octo@example.com",
      image: USER.avatar_url,
    });
  });

  it("uses the public e-mail without asking for the list", async () => {
    serveGitHub();
    server.on("GET https://api.github.com/user", () =>
      Response.json({ ...USER, name: "The Octocat", email: "public@example.com" }),
    );
    const { config } = providerConfig(github());
    const client = new Client(config);
    await answerAuthorization(client, await startSignIn(client, "github"));
    expect(server.requestsTo("https://api.github.com/user/emails")).toHaveLength(0);
    expect((await client.session())?.user).toMatchObject({
      name: "The Octocat",
      email: "public@example.com",
    });
  });

  it("keeps the e-mail empty when GitHub vouches for none", async () => {
    serveGitHub(undefined, undefined, [
      { email: "a@example.com", primary: true, verified: false, visibility: "private" },
    ]);
    const subs: unknown[] = [];
    const { config } = providerConfig(github(), {
      callbacks: {
        jwt: ({ token }) => {
          subs.push(token.sub);
          return token;
        },
      },
    });
    const client = new Client(config);
    await answerAuthorization(client, await startSignIn(client, "github"));
    expect((await client.session())?.user).toMatchObject({ email: null });
    expect(subs[0]).toBe("583231"); // the numeric id, as a string
  });

  it("picks the primary verified address, else any verified one", () => {
    expect(pickGitHubEmail("nope")).toBeNull();
    expect(
      pickGitHubEmail([
        { email: "x@example.com", primary: true, verified: false, visibility: null },
        { email: "y@example.com", primary: false, verified: true, visibility: null },
      ]),
    ).toBe("y@example.com");
  });

  it("reports GitHub's HTTP 200 token error as OAuthCallbackError", async () => {
    serveGitHub();
    server.on("POST https://github.com/login/oauth/access_token", () =>
      Response.json({
        error: "bad_verification_code",
        error_description: "The code passed is incorrect or expired.",
      }),
    );
    const { config, log } = providerConfig(github());
    const client = new Client(config);
    const response = await answerAuthorization(client, await startSignIn(client, "github"));
    expect(locationOf(response).href).toBe(`${ORIGIN}/auth/signin?error=OAuthCallbackError`);
    expect(log.errors.at(-1)?.message).toMatch(/bad_verification_code/);
    expect(server.requestsTo("https://api.github.com/user")).toHaveLength(0);
  });

  it("accepts GitHub's `iss` on the callback without fetching any discovery document", async () => {
    serveGitHub();
    const { config } = providerConfig(github());
    const client = new Client(config);
    const response = await answerAuthorization(client, await startSignIn(client, "github"), {
      iss: "https://github.com/login/oauth",
    });
    expect(locationOf(response).origin).toBe(ORIGIN);
    expect((await client.session())?.user).toMatchObject({ email: "octo@example.com" });
    expect(server.requests.filter((r) => r.url.pathname.includes("/.well-known/"))).toEqual([]);
  });

  it("refuses a callback whose `iss` names another authorization server (RFC 9207 mix-up attack)", async () => {
    serveGitHub();
    const { config, log } = providerConfig(github());
    const client = new Client(config);
    const response = await answerAuthorization(client, await startSignIn(client, "github"), {
      iss: "https://attacker.example/login/oauth",
    });
    expect(locationOf(response).href).toBe(`${ORIGIN}/auth/signin?error=OAuthCallbackError`);
    expect(log.errors.at(-1)?.message).toMatch(/iss/);
    expect(server.requestsTo("https://github.com/login/oauth/access_token")).toHaveLength(0);
    expect(await client.session()).toBeNull();
  });

  it("talks to GitHub Enterprise Server under its base URL", async () => {
    serveGitHub("https://ghe.example.com", "https://ghe.example.com/api/v3");
    const { config } = providerConfig(
      github({ enterprise: { baseUrl: "https://ghe.example.com/" } }),
    );
    const client = new Client(config);
    const authorizationUrl = await startSignIn(client, "github");
    expect(`${authorizationUrl.origin}${authorizationUrl.pathname}`).toBe(
      "https://ghe.example.com/login/oauth/authorize",
    );
    // The server's own issuer, which GitHub.com's would not match.
    await answerAuthorization(client, authorizationUrl, {
      iss: "https://ghe.example.com/login/oauth",
    });
    expect(server.requestsTo("https://ghe.example.com/api/v3/user/emails")).toHaveLength(1);
    expect((await client.session())?.user).toMatchObject({ email: "octo@example.com" });
  });
});
