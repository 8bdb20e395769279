/**
 * The OpenID Connect providers of the catalogue, each signing in through `Auth()` against a local
 * server answering like the provider's documented discovery, JWKS, token and userinfo endpoints,
 * with ID tokens signed by a local key (or, for LINE, with the channel secret): the endpoints
 * used, the authorization parameters and checks, client authentication, each provider's request
 * quirks and the user its profile maps to.
 */
import { customFetch } from "@tessera/core";
import type { Provider, ProviderConfig } from "@tessera/core/providers";
import Asgardeo from "@tessera/core/providers/asgardeo";
import Authentik from "@tessera/core/providers/authentik";
import AzureAD from "@tessera/core/providers/azure-ad";
import AzureADB2C from "@tessera/core/providers/azure-ad-b2c";
import BankIDNorway from "@tessera/core/providers/bankid-no";
import BattleNet from "@tessera/core/providers/battlenet";
import BeyondIdentity from "@tessera/core/providers/beyondidentity";
import Cognito from "@tessera/core/providers/cognito";
import Descope from "@tessera/core/providers/descope";
import DuendeIdentityServer6 from "@tessera/core/providers/duende-identity-server6";
import Frontegg from "@tessera/core/providers/frontegg";
import FusionAuth from "@tessera/core/providers/fusionauth";
import HuggingFace from "@tessera/core/providers/huggingface";
import IdentityServer4 from "@tessera/core/providers/identity-server4";
import Kinde from "@tessera/core/providers/kinde";
import LINE from "@tessera/core/providers/line";
import Logto from "@tessera/core/providers/logto";
import OneLogin from "@tessera/core/providers/onelogin";
import OryHydra from "@tessera/core/providers/ory-hydra";
import Passage from "@tessera/core/providers/passage";
import PingId from "@tessera/core/providers/ping-id";
import Roblox from "@tessera/core/providers/roblox";
import Salesforce from "@tessera/core/providers/salesforce";
import SimpleLogin from "@tessera/core/providers/simplelogin";
import UnitedEffects from "@tessera/core/providers/united-effects";
import Vipps from "@tessera/core/providers/vipps";
import ZITADEL from "@tessera/core/providers/zitadel";
import { generateKeyPair, SignJWT } from "jose";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { locationOf, startSignIn } from "../fixtures/oauth-flow.js";
import {
  answerAuthorization,
  idTokenFor,
  providerConfig,
  tokenResponse,
} from "../fixtures/provider-flow.js";
import {
  type OidcIssuerOptions,
  type ProviderServer,
  type RecordedRequest,
  serveOidcIssuer,
  startProviderServer,
} from "../fixtures/provider-server.js";
import { Client, ORIGIN } from "../helpers.js";

let server: ProviderServer;
beforeAll(async () => {
  server = await startProviderServer();
});
afterAll(() => server?.close());
beforeEach(() => server.reset());

const CLIENT_ID = "client-1";
const CLIENT_SECRET = "secret-1";

/** Options of a called provider: credentials and the local server. */
function withServer<O extends Record<string, unknown>>(options: O) {
  return {
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    ...options,
    [customFetch]: server.fetch,
  };
}

/** A provider used uncalled (credentials from `AUTH_{ID}_*`), reaching the local server. */
function uncalled(factory: (options: Record<string, unknown>) => ProviderConfig): Provider {
  return (options: Record<string, unknown> = {}) =>
    factory({ ...options, [customFetch]: server.fetch });
}

/** What a test expects of an authorization parameter: a value, present (`true`) or absent. */
type Expected = string | boolean;

interface Case {
  title: string;
  provider: () => Provider;
  providerId: string;
  issuer: OidcIssuerOptions;
  /** ID token claims (`iss` defaults to the issuer). */
  claims: Record<string, unknown>;
  /** Environment variables set for the sign-in. */
  env?: Record<string, string>;
  /** The userinfo answer, for providers that read the profile there. */
  userinfo?: { claims: Record<string, unknown>; jwt?: boolean; foreignKey?: boolean };
  /** Headers of the token response. */
  tokenHeaders?: Record<string, string>;
  /** Sign the ID token with the client secret (HS256) instead of the server's key. */
  hmac?: boolean;
  authorizationEndpoint: string;
  params: Record<string, Expected>;
  clientAuth: "basic" | "post";
  user: { name: string | null; email: string | null; image: string | null };
  /** Further checks of the recorded requests. */
  check?: (requests: { token: RecordedRequest; discovery: RecordedRequest[] }) => void;
}

const STANDARD_SCOPE = "openid profile email";

const CASES: Case[] = [
  {
    title: "Asgardeo discovers from the organization's issuer",
    provider: () => Asgardeo(withServer({ issuer: "https://api.asgardeo.io/t/acme/oauth2/token" })),
    providerId: "asgardeo",
    issuer: {
      issuer: "https://api.asgardeo.io/t/acme/oauth2/token",
      authorizationEndpoint: "https://api.asgardeo.io/t/acme/oauth2/authorize",
      tokenEndpoint: "https://api.asgardeo.io/t/acme/oauth2/token",
      jwksUri: "https://api.asgardeo.io/t/acme/oauth2/jwks",
    },
    claims: { sub: "6f2b1c", email: "ada@acme.test", given_name: "Ada", name: "Ada Lovelace" },
    authorizationEndpoint: "https://api.asgardeo.io/t/acme/oauth2/authorize",
    params: { scope: STANDARD_SCOPE, code_challenge: true, state: false, nonce: false },
    clientAuth: "basic",
    user: { name: "Ada Lovelace", email: "ada@acme.test", image: null },
  },
  {
    title: "authentik signs in through the application's issuer",
    provider: () =>
      Authentik(withServer({ issuer: "https://authentik.example.com/application/o/my-app" })),
    providerId: "authentik",
    issuer: { issuer: "https://authentik.example.com/application/o/my-app" },
    claims: { sub: "ak-1", preferred_username: "ada", email: "ada@example.com" },
    authorizationEndpoint: "https://authentik.example.com/application/o/my-app/authorize",
    params: { scope: STANDARD_SCOPE, code_challenge: true },
    clientAuth: "basic",
    user: { name: "ada", email: "ada@example.com", image: null },
  },
  {
    title: "Azure AD (legacy id) is Entra ID under /callback/azure-ad, any tenant through common",
    provider: () => AzureAD(withServer({ profilePhotoSize: false as const })),
    providerId: "azure-ad",
    issuer: {
      issuer: "https://login.microsoftonline.com/common/v2.0",
      publishedIssuer: "https://login.microsoftonline.com/{tenantid}/v2.0",
      authorizationEndpoint: "https://login.microsoftonline.com/common/oauth2/v2.0/authorize",
      tokenEndpoint: "https://login.microsoftonline.com/common/oauth2/v2.0/token",
      jwksUri: "https://login.microsoftonline.com/common/discovery/v2.0/keys",
    },
    claims: {
      iss: "https://login.microsoftonline.com/9188040d-6c67-4c5b-b112-36a304b66dad/v2.0",
      tid: "9188040d-6c67-4c5b-b112-36a304b66dad",
      sub: "AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ",
      name: "Megan Bowen",
      email: "MeganB@contoso.com",
    },
    authorizationEndpoint: "https://login.microsoftonline.com/common/oauth2/v2.0/authorize",
    params: {
      scope: "openid profile email User.Read",
      redirect_uri: `${ORIGIN}/auth/callback/azure-ad`,
    },
    clientAuth: "basic",
    user: { name: "Megan Bowen", email: "meganb@contoso.com", image: null },
  },
  {
    title: "Azure AD B2C reads the policy's wellKnown and the first of the emails claim",
    provider: () =>
      AzureADB2C(
        withServer({
          issuer: "https://contoso.b2clogin.com/775527ff-9a37-4307-8b3d-cc311f58d925/v2.0/",
          wellKnown:
            "https://contoso.b2clogin.com/contoso.onmicrosoft.com/B2C_1_signin/v2.0/.well-known/openid-configuration",
        }),
      ),
    providerId: "azure-ad-b2c",
    issuer: {
      issuer: "https://contoso.b2clogin.com/775527ff-9a37-4307-8b3d-cc311f58d925/v2.0/",
      discoveryUrl:
        "https://contoso.b2clogin.com/contoso.onmicrosoft.com/B2C_1_signin/v2.0/.well-known/openid-configuration",
      authorizationEndpoint:
        "https://contoso.b2clogin.com/contoso.onmicrosoft.com/b2c_1_signin/oauth2/v2.0/authorize",
      tokenEndpoint:
        "https://contoso.b2clogin.com/contoso.onmicrosoft.com/b2c_1_signin/oauth2/v2.0/token",
      jwksUri:
        "https://contoso.b2clogin.com/contoso.onmicrosoft.com/b2c_1_signin/discovery/v2.0/keys",
    },
    claims: {
      sub: "b2c-user-1",
      tfp: "B2C_1_signin",
      name: "Ada",
      emails: ["Ada@Example.com", "ada@work.example"],
    },
    authorizationEndpoint:
      "https://contoso.b2clogin.com/contoso.onmicrosoft.com/b2c_1_signin/oauth2/v2.0/authorize",
    params: { scope: STANDARD_SCOPE },
    clientAuth: "basic",
    user: { name: "Ada", email: "ada@example.com", image: null },
  },
  {
    title: "BankID Norway reads the signed userinfo JWT, with nonce, state and the secret posted",
    provider: () => BankIDNorway(withServer({})),
    providerId: "bankid-no",
    issuer: { issuer: "https://auth.bankid.no/auth/realms/prod" },
    claims: { sub: "9578-6000-4-365161" },
    userinfo: {
      jwt: true,
      claims: { sub: "9578-6000-4-365161", name: "Kari Nordmann", email: "kari@example.no" },
    },
    authorizationEndpoint: "https://auth.bankid.no/auth/realms/prod/authorize",
    params: {
      ui_locales: "no",
      login_hint: "BIS",
      scope: STANDARD_SCOPE,
      nonce: true,
      state: true,
      code_challenge: true,
    },
    clientAuth: "post",
    user: { name: "Kari Nordmann", email: "kari@example.no", image: null },
  },
  {
    title: "Battle.net names the user by BattleTag, without e-mail",
    provider: () => BattleNet(withServer({ issuer: "https://eu.battle.net/oauth" })),
    providerId: "battlenet",
    issuer: { issuer: "https://eu.battle.net/oauth" },
    claims: { sub: "123456789", battle_tag: "Ada#1815" },
    authorizationEndpoint: "https://eu.battle.net/oauth/authorize",
    params: { scope: STANDARD_SCOPE },
    clientAuth: "basic",
    user: { name: "Ada#1815", email: null, image: null },
  },
  {
    title: "Beyond Identity maps name and e-mail, no picture",
    provider: () =>
      BeyondIdentity(
        withServer({
          issuer: "https://auth-us.beyondidentity.com/v1/tenants/t1/realms/r1/applications/a1",
        }),
      ),
    providerId: "beyondidentity",
    issuer: {
      issuer: "https://auth-us.beyondidentity.com/v1/tenants/t1/realms/r1/applications/a1",
    },
    claims: {
      sub: "bi-1",
      name: "Ada",
      email: "ada@example.com",
      picture: "https://example.com/ada.png",
    },
    authorizationEndpoint:
      "https://auth-us.beyondidentity.com/v1/tenants/t1/realms/r1/applications/a1/authorize",
    params: { scope: STANDARD_SCOPE },
    clientAuth: "basic",
    user: { name: "Ada", email: "ada@example.com", image: null },
  },
  {
    title: "Cognito discovers the hosted UI endpoints from the user pool",
    provider: () =>
      Cognito(
        withServer({ issuer: "https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbCdEf" }),
      ),
    providerId: "cognito",
    issuer: {
      issuer: "https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbCdEf",
      authorizationEndpoint: "https://acme.auth.eu-west-1.amazoncognito.com/oauth2/authorize",
      tokenEndpoint: "https://acme.auth.eu-west-1.amazoncognito.com/oauth2/token",
    },
    claims: { sub: "c-1", "cognito:username": "ada", email: "ada@example.com" },
    authorizationEndpoint: "https://acme.auth.eu-west-1.amazoncognito.com/oauth2/authorize",
    params: { scope: STANDARD_SCOPE },
    clientAuth: "basic",
    user: { name: null, email: "ada@example.com", image: null },
  },
  {
    title: "Descope, uncalled, derives its issuer from the project id and sends state",
    provider: () => uncalled(Descope),
    providerId: "descope",
    env: { AUTH_DESCOPE_ID: "P2abc", AUTH_DESCOPE_SECRET: "access-key" },
    issuer: { issuer: "https://api.descope.com/P2abc" },
    claims: { sub: "U2x", name: "Ada", email: "ada@example.com", aud: "P2abc" },
    authorizationEndpoint: "https://api.descope.com/P2abc/authorize",
    params: { client_id: "P2abc", state: true, code_challenge: true },
    clientAuth: "basic",
    user: { name: "Ada", email: "ada@example.com", image: null },
  },
  {
    title: "Duende IdentityServer 6 signs in through discovery",
    provider: () =>
      DuendeIdentityServer6(withServer({ issuer: "https://demo.duendesoftware.com" })),
    providerId: "duende-identity-server6",
    issuer: {
      issuer: "https://demo.duendesoftware.com",
      authorizationEndpoint: "https://demo.duendesoftware.com/connect/authorize",
      tokenEndpoint: "https://demo.duendesoftware.com/connect/token",
    },
    claims: { sub: "1", name: "Alice Smith", email: "AliceSmith@email.com" },
    authorizationEndpoint: "https://demo.duendesoftware.com/connect/authorize",
    params: { scope: STANDARD_SCOPE },
    clientAuth: "basic",
    user: { name: "Alice Smith", email: "alicesmith@email.com", image: null },
  },
  {
    title: "Frontegg uses its /oauth endpoints and the keys of its /oauth discovery document",
    provider: () => Frontegg(withServer({ issuer: "https://acme.frontegg.com" })),
    providerId: "frontegg",
    issuer: {
      issuer: "https://acme.frontegg.com",
      discoveryUrl: "https://acme.frontegg.com/oauth/.well-known/openid-configuration",
      authorizationEndpoint: "https://acme.frontegg.com/oauth/authorize",
      tokenEndpoint: "https://acme.frontegg.com/oauth/token",
      jwksUri: "https://acme.frontegg.com/.well-known/jwks.json",
    },
    claims: { sub: "fe-1", name: "Ada", email: "ada@example.com" },
    authorizationEndpoint: "https://acme.frontegg.com/oauth/authorize",
    params: { scope: STANDARD_SCOPE },
    clientAuth: "basic",
    user: { name: "Ada", email: "ada@example.com", image: null },
    check: ({ discovery }) =>
      expect(discovery.map((r) => r.url.pathname)).toContain(
        "/oauth/.well-known/openid-configuration",
      ),
  },
  {
    title:
      "FusionAuth sends the tenant, accepts a token answer with WWW-Authenticate, builds the name",
    provider: () =>
      FusionAuth(withServer({ issuer: "https://auth.example.com", tenantId: "tenant-7" })),
    providerId: "fusionauth",
    issuer: {
      issuer: "https://auth.example.com",
      authorizationEndpoint: "https://auth.example.com/oauth2/authorize",
      tokenEndpoint: "https://auth.example.com/oauth2/token",
      jwksUri: "https://auth.example.com/.well-known/jwks.json",
    },
    tokenHeaders: { "www-authenticate": 'Bearer realm="FusionAuth"' },
    claims: { sub: "fa-1", given_name: "Ada", middle_name: "King", family_name: "Lovelace" },
    authorizationEndpoint: "https://auth.example.com/oauth2/authorize",
    params: {
      scope: "openid offline_access email profile",
      tenantId: "tenant-7",
      state: true,
      code_challenge: true,
    },
    clientAuth: "basic",
    user: { name: "Ada King Lovelace", email: null, image: null },
    check: ({ discovery }) =>
      expect(discovery.map((r) => r.url.searchParams.get("tenantId"))).toContain("tenant-7"),
  },
  {
    title: "Hugging Face signs in at huggingface.co with state and PKCE",
    provider: () => HuggingFace(withServer({})),
    providerId: "huggingface",
    issuer: {
      issuer: "https://huggingface.co",
      authorizationEndpoint: "https://huggingface.co/oauth/authorize",
      tokenEndpoint: "https://huggingface.co/oauth/token",
      jwksUri: "https://huggingface.co/oauth/jwks",
    },
    claims: {
      sub: "6400c1",
      name: "Ada Lovelace",
      preferred_username: "ada",
      picture: "https://cdn-avatars.huggingface.co/ada.png",
      email: "ada@example.com",
      isPro: false,
    },
    authorizationEndpoint: "https://huggingface.co/oauth/authorize",
    params: { scope: STANDARD_SCOPE, state: true, code_challenge: true },
    clientAuth: "basic",
    user: {
      name: "Ada Lovelace",
      email: "ada@example.com",
      image: "https://cdn-avatars.huggingface.co/ada.png",
    },
  },
  {
    title: "IdentityServer4 signs in through discovery",
    provider: () => IdentityServer4(withServer({ issuer: "https://identity.example.com" })),
    providerId: "identity-server4",
    issuer: { issuer: "https://identity.example.com" },
    claims: { sub: "88421113", name: "Bob Smith", email: "bob@example.com" },
    authorizationEndpoint: "https://identity.example.com/authorize",
    params: { scope: STANDARD_SCOPE },
    clientAuth: "basic",
    user: { name: "Bob Smith", email: "bob@example.com", image: null },
  },
  {
    title: "Kinde sends state with PKCE",
    provider: () => Kinde(withServer({ issuer: "https://acme.kinde.com" })),
    providerId: "kinde",
    issuer: {
      issuer: "https://acme.kinde.com",
      authorizationEndpoint: "https://acme.kinde.com/oauth2/auth",
      tokenEndpoint: "https://acme.kinde.com/oauth2/token",
    },
    claims: { sub: "kp_1", name: "Ada", email: "ada@example.com", picture: "https://k/a.png" },
    authorizationEndpoint: "https://acme.kinde.com/oauth2/auth",
    params: { state: true, code_challenge: true },
    clientAuth: "basic",
    user: { name: "Ada", email: "ada@example.com", image: "https://k/a.png" },
  },
  {
    title: "LINE verifies the HS256 ID token with the channel secret, state only",
    provider: () => LINE(withServer({})),
    providerId: "line",
    issuer: {
      issuer: "https://access.line.me",
      authorizationEndpoint: "https://access.line.me/oauth2/v2.1/authorize",
      tokenEndpoint: "https://api.line.me/oauth2/v2.1/token",
      jwksUri: "https://api.line.me/oauth2/v2.1/certs",
      metadata: { id_token_signing_alg_values_supported: ["ES256"] },
    },
    hmac: true,
    claims: {
      sub: "U4af4980629",
      name: "Taro Line",
      picture: "https://profile.line-scdn.net/abc",
      email: "taro@example.jp",
      amr: ["linesso"],
    },
    authorizationEndpoint: "https://access.line.me/oauth2/v2.1/authorize",
    params: { scope: STANDARD_SCOPE, state: true, code_challenge: false, nonce: false },
    clientAuth: "basic",
    user: {
      name: "Taro Line",
      email: "taro@example.jp",
      image: "https://profile.line-scdn.net/abc",
    },
  },
  {
    title: "Logto asks for a refresh token and names the user by username",
    provider: () => Logto(withServer({ issuer: "https://abc123.logto.app/oidc" })),
    providerId: "logto",
    issuer: {
      issuer: "https://abc123.logto.app/oidc",
      authorizationEndpoint: "https://abc123.logto.app/oidc/auth",
    },
    claims: { sub: "lg-1", username: "ada", name: null, email: "ada@example.com" },
    authorizationEndpoint: "https://abc123.logto.app/oidc/auth",
    params: { scope: "offline_access openid email profile" },
    clientAuth: "basic",
    user: { name: "ada", email: "ada@example.com", image: null },
  },
  {
    title: "OneLogin discovers from its /oidc/2 issuer",
    provider: () => OneLogin(withServer({ issuer: "https://acme.onelogin.com/oidc/2" })),
    providerId: "onelogin",
    issuer: {
      issuer: "https://acme.onelogin.com/oidc/2",
      authorizationEndpoint: "https://acme.onelogin.com/oidc/2/auth",
      tokenEndpoint: "https://acme.onelogin.com/oidc/2/token",
      jwksUri: "https://acme.onelogin.com/oidc/2/certs",
    },
    claims: { sub: "55437", preferred_username: "ada@acme.test", email: "ada@acme.test" },
    authorizationEndpoint: "https://acme.onelogin.com/oidc/2/auth",
    params: { scope: STANDARD_SCOPE },
    clientAuth: "basic",
    user: { name: "ada@acme.test", email: "ada@acme.test", image: null },
  },
  {
    title: "Ory Hydra, uncalled, is `hydra`: AUTH_HYDRA_* and /callback/hydra",
    provider: () => uncalled(OryHydra),
    providerId: "hydra",
    env: {
      AUTH_HYDRA_ID: "hydra-client",
      AUTH_HYDRA_SECRET: "hydra-secret",
      AUTH_HYDRA_ISSUER: "https://hydra.example.com",
    },
    issuer: {
      issuer: "https://hydra.example.com",
      authorizationEndpoint: "https://hydra.example.com/oauth2/auth",
      tokenEndpoint: "https://hydra.example.com/oauth2/token",
      jwksUri: "https://hydra.example.com/.well-known/jwks.json",
    },
    claims: { sub: "hy-1", email: "ada@example.com", aud: ["hydra-client"] },
    authorizationEndpoint: "https://hydra.example.com/oauth2/auth",
    params: { client_id: "hydra-client", redirect_uri: `${ORIGIN}/auth/callback/hydra` },
    clientAuth: "basic",
    user: { name: null, email: "ada@example.com", image: null },
    check: ({ token }) =>
      expect(token.headers.get("authorization")).toBe(`Basic ${btoa("hydra-client:hydra-secret")}`),
  },
  {
    title: "Passage authenticates with HTTP Basic",
    provider: () => Passage(withServer({ issuer: "https://auth.passage.id/v1/apps/AbCdEf" })),
    providerId: "passage",
    issuer: { issuer: "https://auth.passage.id/v1/apps/AbCdEf" },
    claims: { sub: "pa-1", email: "ada@example.com", email_verified: true },
    authorizationEndpoint: "https://auth.passage.id/v1/apps/AbCdEf/authorize",
    params: { scope: STANDARD_SCOPE },
    clientAuth: "basic",
    user: { name: null, email: "ada@example.com", image: null },
  },
  {
    title: "Ping Identity signs in through the PingOne environment",
    provider: () =>
      PingId(withServer({ issuer: "https://auth.pingone.eu/0a7af83d-4ed9-4510-93cd/as" })),
    providerId: "ping-id",
    issuer: { issuer: "https://auth.pingone.eu/0a7af83d-4ed9-4510-93cd/as" },
    claims: { sub: "pi-1", given_name: "Ada", preferred_username: "ada", email: "ada@ex.com" },
    authorizationEndpoint: "https://auth.pingone.eu/0a7af83d-4ed9-4510-93cd/as/authorize",
    params: { scope: STANDARD_SCOPE },
    clientAuth: "basic",
    user: { name: "ada", email: "ada@ex.com", image: null },
  },
  {
    title: "Roblox asks for openid profile at its slash-ended issuer, state and PKCE",
    provider: () => Roblox(withServer({})),
    providerId: "roblox",
    issuer: {
      issuer: "https://apis.roblox.com/oauth/",
      authorizationEndpoint: "https://apis.roblox.com/oauth/v1/authorize",
      tokenEndpoint: "https://apis.roblox.com/oauth/v1/token",
      jwksUri: "https://apis.roblox.com/oauth/v1/certs",
    },
    claims: {
      sub: "1516563360",
      nickname: "Ada R",
      preferred_username: "ada_r",
      picture: "https://tr.rbxcdn.com/a.png",
    },
    authorizationEndpoint: "https://apis.roblox.com/oauth/v1/authorize",
    params: { scope: "openid profile", state: true, code_challenge: true },
    clientAuth: "basic",
    user: { name: "Ada R", email: null, image: "https://tr.rbxcdn.com/a.png" },
  },
  {
    title: "Salesforce reads userinfo for the ID token's subject, with nonce, state and PKCE",
    provider: () => Salesforce(withServer({})),
    providerId: "salesforce",
    issuer: {
      issuer: "https://login.salesforce.com",
      authorizationEndpoint: "https://login.salesforce.com/services/oauth2/authorize",
      tokenEndpoint: "https://login.salesforce.com/services/oauth2/token",
      userinfoEndpoint: "https://login.salesforce.com/services/oauth2/userinfo",
      jwksUri: "https://login.salesforce.com/id/keys",
    },
    claims: { sub: "https://login.salesforce.com/id/00Dx0000/005x0000" },
    userinfo: {
      claims: {
        sub: "https://login.salesforce.com/id/00Dx0000/005x0000",
        user_id: "005x0000",
        organization_id: "00Dx0000",
        name: "Ada Lovelace",
        email: "ada@example.com",
        picture: "https://c.salesforce.com/profilephoto/005/F",
      },
    },
    authorizationEndpoint: "https://login.salesforce.com/services/oauth2/authorize",
    params: { scope: STANDARD_SCOPE, nonce: true, state: true, code_challenge: true },
    clientAuth: "basic",
    user: {
      name: "Ada Lovelace",
      email: "ada@example.com",
      image: "https://c.salesforce.com/profilephoto/005/F",
    },
  },
  {
    title: "SimpleLogin maps avatar_url to the picture",
    provider: () => SimpleLogin(withServer({})),
    providerId: "simplelogin",
    issuer: {
      issuer: "https://app.simplelogin.io",
      authorizationEndpoint: "https://app.simplelogin.io/oauth2/authorize",
      tokenEndpoint: "https://app.simplelogin.io/oauth2/token",
    },
    claims: {
      sub: "sl-1",
      name: "Ada",
      email: "ada.alias@simplelogin.com",
      avatar_url: "https://app.simplelogin.io/avatar.png",
    },
    authorizationEndpoint: "https://app.simplelogin.io/oauth2/authorize",
    params: { scope: STANDARD_SCOPE },
    clientAuth: "basic",
    user: {
      name: "Ada",
      email: "ada.alias@simplelogin.com",
      image: "https://app.simplelogin.io/avatar.png",
    },
  },
  {
    title: "United Effects sends its auth group as the resource",
    provider: () =>
      UnitedEffects(withServer({ issuer: "https://auth.unitedeffects.com/YQpbQV5dbW" })),
    providerId: "united-effects",
    issuer: { issuer: "https://auth.unitedeffects.com/YQpbQV5dbW" },
    claims: { sub: "ue-1", email: "ada@example.com" },
    authorizationEndpoint: "https://auth.unitedeffects.com/YQpbQV5dbW/authorize",
    params: {
      scope: "openid email profile",
      resource: "https://auth.unitedeffects.com/YQpbQV5dbW",
    },
    clientAuth: "basic",
    user: { name: null, email: "ada@example.com", image: null },
  },
  {
    title: "Vipps asks for openid name email and reads them from userinfo",
    provider: () => Vipps(withServer({})),
    providerId: "vipps",
    issuer: {
      issuer: "https://api.vipps.no/access-management-1.0/access/",
      authorizationEndpoint: "https://api.vipps.no/access-management-1.0/access/oauth2/auth",
      tokenEndpoint: "https://api.vipps.no/access-management-1.0/access/oauth2/token",
      userinfoEndpoint: "https://api.vipps.no/vipps-userinfo-api/userinfo",
      jwksUri: "https://api.vipps.no/access-management-1.0/access/.well-known/jwks.json",
    },
    claims: { sub: "c06c4afe-d9e1-4c5d-939a-177d752a0944" },
    userinfo: {
      claims: {
        sub: "c06c4afe-d9e1-4c5d-939a-177d752a0944",
        name: "Ada Lovelace",
        email: "ada@example.no",
        email_verified: true,
      },
    },
    authorizationEndpoint: "https://api.vipps.no/access-management-1.0/access/oauth2/auth",
    params: { scope: "openid name email", nonce: true, state: true, code_challenge: true },
    clientAuth: "basic",
    user: { name: "Ada Lovelace", email: "ada@example.no", image: null },
  },
  {
    title: "ZITADEL signs in through the instance's discovery",
    provider: () => ZITADEL(withServer({ issuer: "https://acme-abc123.zitadel.cloud" })),
    providerId: "zitadel",
    issuer: {
      issuer: "https://acme-abc123.zitadel.cloud",
      authorizationEndpoint: "https://acme-abc123.zitadel.cloud/oauth/v2/authorize",
      tokenEndpoint: "https://acme-abc123.zitadel.cloud/oauth/v2/token",
    },
    claims: { sub: "2274", name: "Ada", email: "ada@example.com", picture: "https://z/a.png" },
    authorizationEndpoint: "https://acme-abc123.zitadel.cloud/oauth/v2/authorize",
    params: { scope: STANDARD_SCOPE },
    clientAuth: "basic",
    user: { name: "Ada", email: "ada@example.com", image: "https://z/a.png" },
  },
];

const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
});

/** Serves the provider, runs a sign-in, and returns what a test looks at. */
async function run(scenario: Case, userinfo = scenario.userinfo) {
  Object.assign(process.env, scenario.env);
  const endpoints = serveOidcIssuer(server, scenario.issuer);
  const iss = scenario.issuer.issuer;
  let authorizationUrl: URL | undefined;
  server.on(`POST ${endpoints.token_endpoint}`, async () => {
    const claims = { iss, ...scenario.claims };
    const idToken = scenario.hmac
      ? await new SignJWT({
          aud: CLIENT_ID,
          iat: Math.floor(Date.now() / 1000),
          exp: Math.floor(Date.now() / 1000) + 3600,
          ...claims,
        })
          .setProtectedHeader({ alg: "HS256" })
          .sign(new TextEncoder().encode(CLIENT_SECRET))
      : await idTokenFor(server, authorizationUrl as URL, claims);
    const response = tokenResponse({ id_token: idToken });
    for (const [name, value] of Object.entries(scenario.tokenHeaders ?? {}))
      response.headers.set(name, value);
    return response;
  });
  if (userinfo)
    server.on(endpoints.userinfo_endpoint, async (request) => {
      if (request.headers.get("authorization") !== "Bearer provider-access-token")
        return new Response(null, { status: 401 });
      if (!userinfo.jwt) return Response.json(userinfo.claims);
      const claims = { iss, aud: CLIENT_ID, ...userinfo.claims };
      const jwt = userinfo.foreignKey
        ? await new SignJWT(claims)
            .setProtectedHeader({ alg: "RS256", kid: "fake-1" })
            .sign((await generateKeyPair("RS256")).privateKey)
        : await server.keys.sign(claims);
      return new Response(jwt, { headers: { "content-type": "application/jwt" } });
    });
  const { config, log } = providerConfig(scenario.provider());
  const client = new Client(config);
  authorizationUrl = await startSignIn(client, scenario.providerId);
  const response = await answerAuthorization(client, authorizationUrl);
  const token = server.requestsTo(endpoints.token_endpoint)[0] as RecordedRequest;
  const discovery = server.requests.filter((r) => r.url.pathname.includes("/.well-known/"));
  return { client, log, authorizationUrl, response, token, discovery, endpoints };
}

describe.each(CASES)("$providerId", (scenario) => {
  it(scenario.title, async () => {
    const { client, authorizationUrl, response, token, discovery } = await run(scenario);
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
      expect(token.form.has("client_secret")).toBe(false);
    } else {
      expect(token.headers.has("authorization")).toBe(false);
      expect(token.form.get("client_secret")).toBe(CLIENT_SECRET);
    }
    expect(token.form.get("code")).toBe("provider-code");
    expect(token.form.has("code_verifier")).toBe(
      authorizationUrl.searchParams.has("code_challenge"),
    );
    scenario.check?.({ token, discovery });
    expect(locationOf(response).origin).toBe(ORIGIN);
    expect(locationOf(response).pathname).not.toMatch(/error/);
    expect((await client.session())?.user).toEqual(scenario.user);
  });
});

describe("request quirks that must fail closed", () => {
  const byId = (id: string) => CASES.find((c) => c.providerId === id) as Case;

  it("BankID Norway refuses a userinfo answer that is plain JSON instead of a signed JWT", async () => {
    const bankid = byId("bankid-no");
    const { client, response } = await run(bankid, {
      claims: bankid.userinfo?.claims ?? {},
      jwt: false,
    });
    expect(locationOf(response).href).toBe(`${ORIGIN}/auth/signin?error=OAuthCallbackError`);
    expect(await client.session()).toBeNull();
  });

  it("BankID Norway refuses a userinfo JWT signed with a key BankID does not publish", async () => {
    const bankid = byId("bankid-no");
    const { client, response } = await run(bankid, {
      claims: bankid.userinfo?.claims ?? {},
      jwt: true,
      foreignKey: true,
    });
    expect(locationOf(response).href).toBe(`${ORIGIN}/auth/signin?error=OAuthCallbackError`);
    expect(await client.session()).toBeNull();
  });

  it("Vipps refuses userinfo about another user than the ID token names", async () => {
    const vipps = byId("vipps");
    const { client, response } = await run(vipps, {
      claims: { ...vipps.userinfo?.claims, sub: "someone-else" },
    });
    expect(locationOf(response).href).toBe(`${ORIGIN}/auth/signin?error=OAuthCallbackError`);
    expect(await client.session()).toBeNull();
  });

  it("FusionAuth drops WWW-Authenticate from token answers but a 401, so errors keep their OAuth code", async () => {
    const provider = FusionAuth(withServer({ issuer: "https://auth.example.com" }));
    const conform = typeof provider.token === "object" ? provider.token.conform : undefined;
    if (!conform) throw new Error("FusionAuth has no token conform step.");
    const challenge = { "www-authenticate": 'Bearer realm="FusionAuth"' };
    const error = Response.json({ error: "invalid_grant" }, { status: 400, headers: challenge });
    const conformed = (await conform(error)) as Response;
    expect(conformed.status).toBe(400);
    expect(conformed.headers.has("www-authenticate")).toBe(false);
    expect(await conformed.json()).toEqual({ error: "invalid_grant" });
    const unauthorized = new Response(null, { status: 401, headers: challenge });
    expect((await conform(unauthorized))?.headers.get("www-authenticate")).toBe(
      challenge["www-authenticate"],
    );
  });

  it("LINE refuses an HS256 ID token signed with another secret", async () => {
    const line = byId("line");
    const { client, response } = await run({
      ...line,
      provider: () => LINE(withServer({ clientSecret: "rotated-secret" })),
    });
    expect(locationOf(response).href).toBe(`${ORIGIN}/auth/signin?error=OAuthCallbackError`);
    expect(await client.session()).toBeNull();
  });
});
