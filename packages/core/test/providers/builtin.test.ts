/**
 * What every built-in OAuth provider shares: a factory usable called or uncalled, options that
 * override its defaults, credentials from `AUTH_{ID}_ID` / `AUTH_{ID}_SECRET`, a button colour,
 * and a valid configuration.
 */
import type { AuthConfig } from "@tessera/core";
import type { Provider } from "@tessera/core/providers";
import FortyTwo from "@tessera/core/providers/42-school";
import Apple from "@tessera/core/providers/apple";
import Asgardeo from "@tessera/core/providers/asgardeo";
import Atlassian from "@tessera/core/providers/atlassian";
import Auth0 from "@tessera/core/providers/auth0";
import Authentik from "@tessera/core/providers/authentik";
import AzureAD from "@tessera/core/providers/azure-ad";
import AzureADB2C from "@tessera/core/providers/azure-ad-b2c";
import AzureDevOps from "@tessera/core/providers/azure-devops";
import BankIDNorway from "@tessera/core/providers/bankid-no";
import BattleNet from "@tessera/core/providers/battlenet";
import BeyondIdentity from "@tessera/core/providers/beyondidentity";
import Bitbucket from "@tessera/core/providers/bitbucket";
import Box from "@tessera/core/providers/box";
import BoxyHQSAML from "@tessera/core/providers/boxyhq-saml";
import Bungie from "@tessera/core/providers/bungie";
import ClickUp from "@tessera/core/providers/click-up";
import Cognito from "@tessera/core/providers/cognito";
import Coinbase from "@tessera/core/providers/coinbase";
import Concept2 from "@tessera/core/providers/concept2";
import Descope from "@tessera/core/providers/descope";
import Discord from "@tessera/core/providers/discord";
import Dribbble from "@tessera/core/providers/dribbble";
import Dropbox from "@tessera/core/providers/dropbox";
import DuendeIdentityServer6 from "@tessera/core/providers/duende-identity-server6";
import Facebook from "@tessera/core/providers/facebook";
import Figma from "@tessera/core/providers/figma";
import Freshbooks from "@tessera/core/providers/freshbooks";
import Frontegg from "@tessera/core/providers/frontegg";
import FusionAuth from "@tessera/core/providers/fusionauth";
import GitHub from "@tessera/core/providers/github";
import GitLab from "@tessera/core/providers/gitlab";
import Google from "@tessera/core/providers/google";
import HuggingFace from "@tessera/core/providers/huggingface";
import IdentityServer4 from "@tessera/core/providers/identity-server4";
import Keycloak from "@tessera/core/providers/keycloak";
import Kinde from "@tessera/core/providers/kinde";
import LINE from "@tessera/core/providers/line";
import LinkedIn from "@tessera/core/providers/linkedin";
import Logto from "@tessera/core/providers/logto";
import Medium from "@tessera/core/providers/medium";
import MicrosoftEntraID from "@tessera/core/providers/microsoft-entra-id";
import Netlify from "@tessera/core/providers/netlify";
import Okta from "@tessera/core/providers/okta";
import OneLogin from "@tessera/core/providers/onelogin";
import OryHydra from "@tessera/core/providers/ory-hydra";
import Passage from "@tessera/core/providers/passage";
import PingId from "@tessera/core/providers/ping-id";
import Roblox from "@tessera/core/providers/roblox";
import Salesforce from "@tessera/core/providers/salesforce";
import SimpleLogin from "@tessera/core/providers/simplelogin";
import Slack from "@tessera/core/providers/slack";
import Spotify from "@tessera/core/providers/spotify";
import TikTok from "@tessera/core/providers/tiktok";
import Twitch from "@tessera/core/providers/twitch";
import Twitter from "@tessera/core/providers/twitter";
import UnitedEffects from "@tessera/core/providers/united-effects";
import Vipps from "@tessera/core/providers/vipps";
import VK from "@tessera/core/providers/vk";
import Yandex from "@tessera/core/providers/yandex";
import ZITADEL from "@tessera/core/providers/zitadel";
import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../src/lib/config/resolve.js";
import type { InternalOAuthProvider } from "../../src/providers/index.js";
import { Client, ORIGIN, SECRET } from "../helpers.js";
import { group3a } from "./groups/catalogue-3a.js";
import { group3b } from "./groups/catalogue-3b.js";
import { group3c } from "./groups/catalogue-3c.js";
import type { Factory } from "./groups/types.js";

/** The groups of the catalogue kept in their own files. */
const GROUPS = [group3a, group3b, group3c];

const FACTORIES: [string, Factory][] = [
  ["github", GitHub],
  ["google", Google],
  ["discord", Discord],
  ["gitlab", GitLab],
  ["microsoft-entra-id", MicrosoftEntraID],
  ["apple", Apple],
  ["auth0", Auth0],
  ["okta", Okta],
  ["keycloak", Keycloak],
  ["twitter", Twitter],
  ["facebook", Facebook],
  ["linkedin", LinkedIn],
  ["slack", Slack],
  ["twitch", Twitch],
  ["spotify", Spotify],
  ["tiktok", TikTok],
  ["vk", VK],
  ["yandex", Yandex],
  ["asgardeo", Asgardeo],
  ["authentik", Authentik],
  ["azure-ad", AzureAD],
  ["azure-ad-b2c", AzureADB2C],
  ["bankid-no", BankIDNorway],
  ["battlenet", BattleNet],
  ["beyondidentity", BeyondIdentity],
  ["cognito", Cognito],
  ["descope", Descope],
  ["duende-identity-server6", DuendeIdentityServer6],
  ["frontegg", Frontegg],
  ["fusionauth", FusionAuth],
  ["huggingface", HuggingFace],
  ["identity-server4", IdentityServer4],
  ["kinde", Kinde],
  ["line", LINE],
  ["logto", Logto],
  ["onelogin", OneLogin],
  ["passage", Passage],
  ["ping-id", PingId],
  ["roblox", Roblox],
  ["salesforce", Salesforce],
  ["simplelogin", SimpleLogin],
  ["united-effects", UnitedEffects],
  ["vipps", Vipps],
  ["zitadel", ZITADEL],
  ["hydra", OryHydra],
  ["42-school", FortyTwo],
  ["atlassian", Atlassian],
  ["azure-devops", AzureDevOps],
  ["bitbucket", Bitbucket],
  ["box", Box],
  ["boxyhq-saml", BoxyHQSAML],
  ["bungie", Bungie],
  ["click-up", ClickUp],
  ["coinbase", Coinbase],
  ["concept2", Concept2],
  ["dribbble", Dribbble],
  ["dropbox", Dropbox],
  ["figma", Figma],
  ["freshbooks", Freshbooks],
  ["medium", Medium],
  ["netlify", Netlify],
  ...GROUPS.flatMap((group) => group.factories),
] as never;

const NEEDS_ISSUER = new Set([
  "auth0",
  "okta",
  "keycloak",
  "asgardeo",
  "authentik",
  "azure-ad-b2c",
  "battlenet",
  "beyondidentity",
  "cognito",
  "duende-identity-server6",
  "frontegg",
  "fusionauth",
  "identity-server4",
  "kinde",
  "logto",
  "onelogin",
  "hydra",
  "passage",
  "ping-id",
  "united-effects",
  "zitadel",
  "boxyhq-saml",
  ...GROUPS.flatMap((group) => group.needsIssuer ?? []),
]);

function envFor(id: string): Record<string, string> {
  const ID = id.toUpperCase().replace(/-/g, "_");
  return {
    [`AUTH_${ID}_ID`]: `${id}-env-id`,
    [`AUTH_${ID}_SECRET`]: `${id}-env-secret`,
    ...(NEEDS_ISSUER.has(id) && { [`AUTH_${ID}_ISSUER`]: `https://${id}.example.com` }),
  };
}

/** Options a provider is invalid without besides credentials and an issuer (NetSuite's account). */
const REQUIRED_OPTIONS: Record<string, Record<string, unknown>> = Object.assign(
  {},
  ...GROUPS.map((group) => group.requiredOptions ?? {}),
);

/** The factory uncalled, or called with only the options it cannot do without. */
function asConfigured(id: string, factory: Factory): Provider {
  const required = REQUIRED_OPTIONS[id];
  return required ? factory({ ...required }) : (factory as Provider);
}

function resolved(providers: Provider[], env: Record<string, string>) {
  const config: AuthConfig = { secret: SECRET, trustHost: true, providers };
  const result = resolveConfig(config, env);
  return { result, providers: result.providersFor(ORIGIN) as InternalOAuthProvider[] };
}

describe.each(FACTORIES)("%s", (id, factory) => {
  it("works uncalled, with credentials from AUTH_{ID}_ID and AUTH_{ID}_SECRET", () => {
    const { result, providers } = resolved([asConfigured(id, factory)], envFor(id));
    expect(result.configError).toBeUndefined();
    const [provider] = providers;
    expect(provider?.id).toBe(id);
    expect(provider?.type === "oauth" || provider?.type === "oidc").toBe(true);
    expect(provider?.clientId).toBe(`${id}-env-id`);
    expect(provider?.clientSecret).toBe(`${id}-env-secret`);
    expect(provider?.callbackUrl).toBe(`${ORIGIN}/auth/callback/${id}`);
    expect(provider?.style?.brandColor).toMatch(/^#[0-9a-fA-F]{6}$/);
    expect(typeof provider?.profile).toBe("function");
  });

  it("lets options override its defaults, over the environment", () => {
    const options = {
      clientId: "option-id",
      name: "Custom",
      authorization: { params: { scope: "custom-scope", prompt: "consent" } },
      ...(NEEDS_ISSUER.has(id) && { issuer: `https://${id}.example.com` }),
      ...REQUIRED_OPTIONS[id],
    };
    const { result, providers } = resolved([factory(options) as Provider], envFor(id));
    expect(result.configError).toBeUndefined();
    const [provider] = providers;
    expect(provider?.id).toBe(id);
    expect(provider?.name).toBe("Custom");
    expect(provider?.clientId).toBe("option-id");
    expect(provider?.clientSecret).toBe(`${id}-env-secret`);
    expect(provider?.authorization?.params).toMatchObject({
      scope: "custom-scope",
      prompt: "consent",
    });
  });
});

describe("built-in providers together", () => {
  it("are listed by GET /providers with their URLs", async () => {
    const env = Object.assign({}, ...FACTORIES.map(([id]) => envFor(id)));
    const previous = { ...process.env };
    Object.assign(process.env, env);
    try {
      const config: AuthConfig = {
        secret: SECRET,
        trustHost: true,
        providers: FACTORIES.map(([id, factory]) => asConfigured(id, factory)),
      };
      const response = await new Client(config).get("/auth/providers");
      expect(response.status).toBe(200);
      const listed = (await response.json()) as Record<string, { signinUrl: string; type: string }>;
      expect(Object.keys(listed).sort()).toEqual(FACTORIES.map(([id]) => id).sort());
      expect(listed.github).toMatchObject({
        type: "oauth",
        signinUrl: `${ORIGIN}/auth/signin/github`,
      });
      expect(listed["microsoft-entra-id"]?.type).toBe("oidc");
    } finally {
      process.env = previous;
    }
  });
});
