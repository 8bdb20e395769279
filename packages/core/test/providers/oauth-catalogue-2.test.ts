/**
 * The OAuth 2 providers of the catalogue (part 2: Eventbrite to Nextcloud), each signing in
 * through `Auth()` against a local server answering like the provider's documented token and
 * profile endpoints: the authorization parameters and checks, client authentication and the
 * user its profile maps to.
 */
import { customFetch } from "@tessera/core";
import type { Provider } from "@tessera/core/providers";
import Figma from "@tessera/core/providers/figma";
import Freshbooks from "@tessera/core/providers/freshbooks";
import Medium from "@tessera/core/providers/medium";
import Netlify from "@tessera/core/providers/netlify";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { locationOf, startSignIn } from "../fixtures/oauth-flow.js";
import { answerAuthorization, providerConfig, tokenResponse } from "../fixtures/provider-flow.js";
import {
  type ProviderServer,
  type RecordedRequest,
  startProviderServer,
} from "../fixtures/provider-server.js";
import { Client, ORIGIN } from "../helpers.js";

let server: ProviderServer;
beforeAll(async () => {
  server = await startProviderServer();
});
afterAll(() => server?.close());
beforeEach(() => server.reset());

/** Options of a called provider: credentials and the local server. */
function withServer<O extends Record<string, unknown>>(options: O) {
  return {
    clientId: "client-1",
    clientSecret: "secret-1",
    ...options,
    [customFetch]: server.fetch,
  };
}

/** What a test expects of an authorization parameter: a value, present (`true`) or absent. */
type Expected = string | boolean;

interface Case {
  title: string;
  provider: () => Provider;
  providerId: string;
  authorizationEndpoint: string;
  params: Record<string, Expected>;
  tokenUrl: string;
  /** The token endpoint's answer (default: a standard bearer token response). */
  token?: () => Response;
  /** The profile endpoint (origin and path) and its method. */
  profileUrl: string;
  profileMethod?: "GET" | "POST";
  profile: unknown;
  clientAuth: "basic" | "custom";
  /** The session's user; a field the profile lacks is absent, as in Auth.js. */
  user: { name?: string | null; email?: string | null; image?: string | null };
  /** Further checks of the recorded requests. */
  check?: (requests: { token: RecordedRequest; profile: RecordedRequest }) => void;
}

const CASES: Case[] = [
  {
    title: "Figma asks for files:read with the state check only and names the user by handle",
    provider: () => Figma(withServer({})),
    providerId: "figma",
    authorizationEndpoint: "https://www.figma.com/oauth",
    params: { scope: "files:read", state: true, code_challenge: false },
    tokenUrl: "https://api.figma.com/v1/oauth/token",
    profileUrl: "https://api.figma.com/v1/me",
    profile: {
      id: "1234567890",
      email: "ada@example.com",
      handle: "ada.designs",
      img_url: "https://s3-alpha.figma.com/profile/ada",
    },
    clientAuth: "basic",
    user: {
      name: "ada.designs",
      email: "ada@example.com",
      image: "https://s3-alpha.figma.com/profile/ada",
    },
  },
  {
    title: "FreshBooks reads the user under response and joins first and last names",
    provider: () => Freshbooks(withServer({})),
    providerId: "freshbooks",
    authorizationEndpoint: "https://auth.freshbooks.com/service/auth/oauth/authorize",
    params: { scope: false, code_challenge: true },
    tokenUrl: "https://api.freshbooks.com/auth/oauth/token",
    profileUrl: "https://api.freshbooks.com/auth/api/v1/users/me",
    profile: {
      response: {
        id: 2192788,
        first_name: "Bruce",
        last_name: "Wayne",
        email: "bruce@example.com",
      },
    },
    clientAuth: "basic",
    user: { name: "Bruce Wayne", email: "bruce@example.com", image: null },
  },
  {
    title: "Medium asks for basicProfile and reads the user under data, without an e-mail",
    provider: () => Medium(withServer({})),
    providerId: "medium",
    authorizationEndpoint: "https://medium.com/m/oauth/authorize",
    params: { scope: "basicProfile", code_challenge: true },
    tokenUrl: "https://api.medium.com/v1/tokens",
    profileUrl: "https://api.medium.com/v1/me",
    profile: {
      data: {
        id: "5303d74c64f66366f00cb9b2a94f3251bf5",
        username: "majelbstoat",
        name: "Jamie Talbot",
        url: "https://medium.com/@majelbstoat",
        imageUrl: "https://images.medium.com/0*fkfQiTzT7TlUGGyI.png",
      },
    },
    clientAuth: "basic",
    user: {
      name: "Jamie Talbot",
      email: null,
      image: "https://images.medium.com/0*fkfQiTzT7TlUGGyI.png",
    },
  },
  {
    title: "Netlify sends an empty scope and reads /api/v1/user",
    provider: () => Netlify(withServer({})),
    providerId: "netlify",
    authorizationEndpoint: "https://app.netlify.com/authorize",
    params: { scope: "", code_challenge: true },
    tokenUrl: "https://api.netlify.com/oauth/token",
    profileUrl: "https://api.netlify.com/api/v1/user",
    profile: {
      id: "5f2b1c0e9d",
      full_name: "Grace Hopper",
      email: "grace@example.com",
      avatar_url: "https://avatars.netlify.com/grace.png",
    },
    clientAuth: "basic",
    user: {
      name: "Grace Hopper",
      email: "grace@example.com",
      image: "https://avatars.netlify.com/grace.png",
    },
  },
];

/** Serves the provider's endpoints, runs a sign-in, and returns what a test looks at. */
async function run(scenario: Case) {
  server.on(`POST ${scenario.tokenUrl}`, scenario.token ?? (() => tokenResponse()));
  server.on(`${scenario.profileMethod ?? "GET"} ${scenario.profileUrl}`, (request) =>
    request.headers.get("authorization") === "Bearer provider-access-token"
      ? Response.json(scenario.profile)
      : new Response(null, { status: 401 }),
  );
  const { config, log } = providerConfig(scenario.provider());
  const client = new Client(config);
  const authorizationUrl = await startSignIn(client, scenario.providerId);
  const response = await answerAuthorization(client, authorizationUrl);
  const token = server.requestsTo(scenario.tokenUrl)[0] as RecordedRequest;
  const profile = server.requestsTo(scenario.profileUrl)[0] as RecordedRequest;
  return { client, log, authorizationUrl, response, token, profile };
}

describe.each(CASES)("$providerId", (scenario) => {
  it(scenario.title, async () => {
    const { client, authorizationUrl, response, token, profile } = await run(scenario);
    expect(`${authorizationUrl.origin}${authorizationUrl.pathname}`).toBe(
      scenario.authorizationEndpoint,
    );
    expect(authorizationUrl.searchParams.get("redirect_uri")).toBe(
      `${ORIGIN}/auth/callback/${scenario.providerId}`,
    );
    for (const [name, expected] of Object.entries(scenario.params)) {
      const value = authorizationUrl.searchParams.get(name);
      if (typeof expected === "string") expect(value, name).toBe(expected);
      else expect(value !== null, name).toBe(expected);
    }
    expect(token, "token request").toBeDefined();
    if (scenario.clientAuth === "basic") {
      expect(token.headers.get("authorization")).toMatch(/^Basic /);
      expect(token.form.get("code")).toBe("provider-code");
      expect(token.form.has("code_verifier")).toBe(
        authorizationUrl.searchParams.has("code_challenge"),
      );
    }
    expect(profile, "profile request").toBeDefined();
    expect(profile.method).toBe(scenario.profileMethod ?? "GET");
    scenario.check?.({ token, profile });
    expect(locationOf(response).pathname).not.toMatch(/error/);
    expect((await client.session())?.user).toEqual(scenario.user);
  });
});
