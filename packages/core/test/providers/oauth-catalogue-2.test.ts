import Figma from "@tessera/core/providers/figma";
import Freshbooks from "@tessera/core/providers/freshbooks";
import Medium from "@tessera/core/providers/medium";
import Netlify from "@tessera/core/providers/netlify";
import { afterAll, beforeAll, beforeEach } from "vitest";
import { describeSignIns, type SignInCase, serverOptions } from "../fixtures/catalogue-sign-in.js";
import { type ProviderServer, startProviderServer } from "../fixtures/provider-server.js";

let server: ProviderServer;
beforeAll(async () => {
  server = await startProviderServer();
});
afterAll(() => server?.close());
beforeEach(() => server.reset());

/** Options of a called provider: credentials and the local server. */
function withServer<O extends Record<string, unknown>>(options: O) {
  return serverOptions(server, options);
}

const CASES: SignInCase[] = [
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

describeSignIns(() => server, CASES);
