/**
 * Sign-in through `Auth()` with the providers of catalogue group 3c (Threads to Zoom), each
 * against a local server that answers like the provider's documented API, quirks included:
 * Todoist's API v1 user, Trakt's API headers, Webex's API base, Wikimedia's unconfirmed address.
 */
import Todoist from "@tessera/core/providers/todoist";
import Trakt from "@tessera/core/providers/trakt";
import Webex from "@tessera/core/providers/webex";
import Wikimedia from "@tessera/core/providers/wikimedia";
import WordPress from "@tessera/core/providers/wordpress";
import Zoho from "@tessera/core/providers/zoho";
import Zoom from "@tessera/core/providers/zoom";
import { afterAll, afterEach, beforeAll, beforeEach, expect, vi } from "vitest";
import { describeSignIns, type SignInCase, serverOptions } from "../fixtures/catalogue-sign-in.js";
import { tokenResponse } from "../fixtures/provider-flow.js";
import {
  type ProviderServer,
  type RecordedRequest,
  startProviderServer,
} from "../fixtures/provider-server.js";

let server: ProviderServer;
beforeAll(async () => {
  server = await startProviderServer();
});
afterAll(() => server?.close());
beforeEach(() => server.reset());
afterEach(() => {
  vi.unstubAllEnvs();
});

/** Options of a called provider: credentials and the local server. */
function withServer<O extends Record<string, unknown>>(options: O) {
  return serverOptions(server, options);
}

/** The client credentials were sent as token request parameters, not in a Basic header. */
function postedCredentials(token: RecordedRequest) {
  expect(token.headers.get("authorization")).toBeNull();
  expect(token.form.get("client_id")).toBe("client-1");
  expect(token.form.get("client_secret")).toBe("secret-1");
  expect(token.form.get("code")).toBe("provider-code");
}

const WEBEX_USER = {
  id: "Y2lzY29zcGFyazovL3VzL1BFT1BMRS9mNWIzNjE4Ny1jOGRk",
  emails: ["john.andersen@example.com"],
  displayName: "John Andersen",
  avatar: "https://avatar-prod-us-east-2.webexcontent.com/john~1600",
  orgId: "Y2lzY29zcGFyazovL3VzL09SR0FOSVpBVElPTi85NmFi",
};

const WIKIMEDIA_PROFILE = {
  sub: 12345678,
  username: "Jane Doe",
  editcount: 4321,
  confirmed_email: true,
  blocked: false,
  registered: "20150712083156",
  groups: ["*", "user", "autoconfirmed"],
  rights: ["read", "edit"],
  grants: ["mwoauth-authonlyprivate"],
  realname: "Jane Doe",
  email: "jane@example.org",
};

const CASES: SignInCase[] = [
  {
    title:
      "Todoist asks for data:read with state and PKCE, posts the credentials and reads the user of API v1",
    provider: () => Todoist(withServer({})),
    providerId: "todoist",
    authorizationEndpoint: "https://todoist.com/oauth/authorize",
    params: { scope: "data:read", state: true, code_challenge: true },
    tokenUrl: "https://todoist.com/oauth/access_token",
    token: () => Response.json({ access_token: "provider-access-token", token_type: "Bearer" }),
    profileUrl: "https://api.todoist.com/api/v1/user",
    profile: {
      id: "2671355",
      email: "jane@example.com",
      full_name: "Jane Doe",
      avatar_big: "https://dcff1xvirvpfp.cloudfront.net/kr6_big.jpg",
      is_premium: true,
      inbox_project_id: "6Jf8VQXxpwv56VQ7",
    },
    clientAuth: "custom",
    user: {
      name: "Jane Doe",
      email: "jane@example.com",
      image: "https://dcff1xvirvpfp.cloudfront.net/kr6_big.jpg",
    },
    check: ({ token }) => postedCredentials(token),
  },
  {
    title:
      "Trakt sends an empty scope and the trakt-api-version and trakt-api-key headers with the profile request",
    provider: () => Trakt(withServer({})),
    providerId: "trakt",
    authorizationEndpoint: "https://trakt.tv/oauth/authorize",
    params: { scope: "", code_challenge: true },
    tokenUrl: "https://api.trakt.tv/oauth/token",
    profileUrl: "https://api.trakt.tv/users/me",
    profileAuthorized: (request) =>
      request.headers.get("authorization") === "Bearer provider-access-token" &&
      request.headers.get("trakt-api-version") === "2" &&
      request.headers.get("trakt-api-key") === "client-1",
    profile: {
      username: "sean",
      private: false,
      name: "Sean Rudford",
      vip: true,
      vip_ep: false,
      ids: { slug: "sean" },
      joined_at: "2010-09-25T17:49:25.000Z",
      location: "SF",
      about: null,
      gender: null,
      age: null,
      images: { avatar: { full: "https://walter-r2.trakt.tv/images/users/sean.jpg" } },
    },
    clientAuth: "basic",
    user: {
      name: "Sean Rudford",
      email: null,
      image: "https://walter-r2.trakt.tv/images/users/sean.jpg",
    },
    check: ({ profile }) => expect(profile.url.searchParams.get("extended")).toBe("full"),
  },
  {
    title: "Webex asks for spark:kms spark:people_read and takes the first address of emails",
    provider: () => Webex(withServer({})),
    providerId: "webex",
    authorizationEndpoint: "https://webexapis.com/v1/authorize",
    params: { scope: "spark:kms spark:people_read", code_challenge: true },
    tokenUrl: "https://webexapis.com/v1/access_token",
    profileUrl: "https://webexapis.com/v1/people/me",
    profile: { ...WEBEX_USER, emails: ["john.andersen@example.com", "john@example.org"] },
    clientAuth: "basic",
    user: { name: "John Andersen", email: "john.andersen@example.com", image: WEBEX_USER.avatar },
  },
  {
    title: "Webex with apiBaseUrl sends every request to that base",
    provider: () => Webex(withServer({ apiBaseUrl: "https://api-usgov.webex.com/v1" })),
    providerId: "webex",
    authorizationEndpoint: "https://api-usgov.webex.com/v1/authorize",
    params: { scope: "spark:kms spark:people_read" },
    tokenUrl: "https://api-usgov.webex.com/v1/access_token",
    profileUrl: "https://api-usgov.webex.com/v1/people/me",
    profile: WEBEX_USER,
    clientAuth: "basic",
    user: { name: "John Andersen", email: "john.andersen@example.com", image: WEBEX_USER.avatar },
  },
  {
    title: "Wikimedia sends an empty scope and names the user by username, without an image",
    provider: () => Wikimedia(withServer({})),
    providerId: "wikimedia",
    authorizationEndpoint: "https://meta.wikimedia.org/w/rest.php/oauth2/authorize",
    params: { scope: "", code_challenge: true },
    tokenUrl: "https://meta.wikimedia.org/w/rest.php/oauth2/access_token",
    profileUrl: "https://meta.wikimedia.org/w/rest.php/oauth2/resource/profile",
    profile: WIKIMEDIA_PROFILE,
    clientAuth: "basic",
    user: { name: "Jane Doe", email: "jane@example.org", image: null },
  },
  {
    title:
      "Wikimedia drops an address the wiki has not confirmed (no sign-in or linking through it)",
    provider: () => Wikimedia(withServer({})),
    providerId: "wikimedia",
    authorizationEndpoint: "https://meta.wikimedia.org/w/rest.php/oauth2/authorize",
    params: {},
    tokenUrl: "https://meta.wikimedia.org/w/rest.php/oauth2/access_token",
    profileUrl: "https://meta.wikimedia.org/w/rest.php/oauth2/resource/profile",
    profile: { ...WIKIMEDIA_PROFILE, confirmed_email: false, email: "someone@example.org" },
    clientAuth: "basic",
    user: { name: "Jane Doe", email: null, image: null },
  },
  {
    title: "WordPress.com asks for the auth scope and reads /rest/v1/me",
    provider: () => WordPress(withServer({})),
    providerId: "wordpress",
    authorizationEndpoint: "https://public-api.wordpress.com/oauth2/authorize",
    params: { scope: "auth", code_challenge: true },
    tokenUrl: "https://public-api.wordpress.com/oauth2/token",
    token: () =>
      tokenResponse({ blog_id: "0", blog_url: null, scope: "auth", expires_in: undefined }),
    profileUrl: "https://public-api.wordpress.com/rest/v1/me",
    profile: {
      ID: 1234567,
      display_name: "Jane Doe",
      username: "janedoe",
      email: "jane@example.com",
      email_verified: true,
      primary_blog: 9876543,
      avatar_URL: "https://0.gravatar.com/avatar/1c3e6b6b5d6b3f3d?s=96&d=identicon",
    },
    clientAuth: "basic",
    user: {
      name: "Jane Doe",
      email: "jane@example.com",
      image: "https://0.gravatar.com/avatar/1c3e6b6b5d6b3f3d?s=96&d=identicon",
    },
  },
  {
    title: "Zoho asks for AaaServer.profile.Read and joins first and last names",
    provider: () => Zoho(withServer({})),
    providerId: "zoho",
    authorizationEndpoint: "https://accounts.zoho.com/oauth/v2/auth",
    params: { scope: "AaaServer.profile.Read", code_challenge: true },
    tokenUrl: "https://accounts.zoho.com/oauth/v2/token",
    token: () =>
      tokenResponse({ api_domain: "https://www.zohoapis.com", refresh_token: "1000.refresh" }),
    profileUrl: "https://accounts.zoho.com/oauth/user/info",
    profile: {
      First_Name: "Jane",
      Email: "jane@example.com",
      Last_Name: "Doe",
      Display_Name: "jane.doe",
      ZUID: 60012345678,
    },
    clientAuth: "basic",
    user: { name: "Jane Doe", email: "jane@example.com", image: null },
  },
  {
    title: "Zoom sends an empty scope and reads /v2/users/me",
    provider: () => Zoom(withServer({})),
    providerId: "zoom",
    authorizationEndpoint: "https://zoom.us/oauth/authorize",
    params: { scope: "", code_challenge: true },
    tokenUrl: "https://zoom.us/oauth/token",
    token: () => tokenResponse({ refresh_token: "eyJhbGciOiJIUzUxMiJ9.refresh", scope: "" }),
    profileUrl: "https://api.zoom.us/v2/users/me",
    profile: {
      id: "KDcuGIm1QgePTO8WbOqwIQ",
      first_name: "Jill",
      last_name: "Chill",
      email: "jchill@example.com",
      type: 1,
      pic_url: "https://lh4.googleusercontent.com/-1jL6kqS1aMA/photo.jpg",
      account_id: "gVcjZnYYRLDbb_MfgHuaxg",
      status: "active",
    },
    clientAuth: "basic",
    user: {
      name: "Jill Chill",
      email: "jchill@example.com",
      image: "https://lh4.googleusercontent.com/-1jL6kqS1aMA/photo.jpg",
    },
  },
];

describeSignIns(() => server, CASES);
