/**
 * Static configuration checks, run once when a configuration is resolved. They return the first
 * error (reported on every request as a configuration error, with the fix in the server log) or
 * the list of warnings.
 */
import type { Adapter } from "../../adapters.js";
import {
  ExperimentalFeatureNotEnabled,
  InvalidJwtOptions,
  InvalidProvider,
  InvalidRateLimit,
  MissingAdapter,
  MissingAdapterMethods,
  MissingAuthorize,
  MissingSecret,
} from "../../errors.js";
import { maxAttemptsProblem } from "../email/attempts.js";
import { rateLimitProblem } from "../session/rate-limit.js";
import type { WarningCode } from "../utils/logger.js";
import { webauthnConfigProblem } from "../webauthn/assert.js";
import { firstTime } from "./app-state.js";
import type { ResolvedConfig } from "./internal.js";
import { oauthProviderProblem } from "./oauth-provider.js";
import type { StaticProvider } from "./providers.js";

type AdapterMethod = keyof Adapter;

const USER_METHODS: AdapterMethod[] = [
  "createUser",
  "getUser",
  "getUserByEmail",
  "getUserByAccount",
  "updateUser",
  "linkAccount",
];
const SESSION_METHODS: AdapterMethod[] = [
  "createSession",
  "getSessionAndUser",
  "updateSession",
  "deleteSession",
];
const EMAIL_METHODS: AdapterMethod[] = ["createVerificationToken", "useVerificationToken"];
const WEBAUTHN_METHODS: AdapterMethod[] = [
  "getAccount",
  "getAuthenticator",
  "createAuthenticator",
  "listAuthenticatorsByUserId",
  "updateAuthenticatorCounter",
];

/** Which adapter methods the configured features call. */
export function requiredAdapterMethods(
  strategy: "jwt" | "database",
  providers: readonly StaticProvider[],
): AdapterMethod[] {
  const needed = new Set<AdapterMethod>();
  const types = new Set(providers.map((p) => p.type));
  if (strategy === "database") for (const m of SESSION_METHODS) needed.add(m);
  if (types.has("oauth") || types.has("oidc") || types.has("email") || types.has("webauthn"))
    for (const m of USER_METHODS) needed.add(m);
  if (strategy === "database" && types.has("credentials")) {
    needed.add("getUser");
    needed.add("getUserByEmail");
    needed.add("createUser");
  }
  if (types.has("email")) for (const m of EMAIL_METHODS) needed.add(m);
  if (types.has("webauthn")) for (const m of WEBAUTHN_METHODS) needed.add(m);
  return [...needed];
}

/**
 * Back-channel logout of JWT sessions without `oauth.store` or `jwt.revocation` keeps its markers
 * in this process (see session/backchannel.ts): a logout sent to one instance is unknown to the
 * others. Said for providers that opted into OP logout (`federatedLogout`), not for every OIDC
 * sign-in.
 */
function backchannelIsProcessLocal(
  config: ResolvedConfig,
  providers: readonly StaticProvider[],
): boolean {
  if (config.session.strategy !== "jwt" || config.source.oauth?.store || config.jwt.revocation)
    return false;
  return providers.some(
    (provider) => provider.type === "oidc" && provider.federatedLogout === true,
  );
}

/**
 * The longest `jwt.revocationCacheSeconds`: a "not revoked" answer is trusted this long, so a
 * revoked session stays usable on other instances for up to that time.
 */
const MAX_REVOCATION_CACHE_SECONDS = 60;

/** Why `jwt.revocationCacheSeconds` is unusable, or undefined when it is fine. */
function revocationCacheProblem(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (
    typeof value === "number" &&
    Number.isFinite(value) &&
    value >= 0 &&
    value <= MAX_REVOCATION_CACHE_SECONDS
  )
    return undefined;
  // A copied cookie outliving its revocation: Infinity (or hours) would trust a "not revoked"
  // answer for as long, and a string would be compared as text.
  return `jwt.revocationCacheSeconds is ${typeof value === "string" ? JSON.stringify(value) : String(value)}: it must be a number of seconds from 0 to ${MAX_REVOCATION_CACHE_SECONDS} (a revoked session stays usable on other instances for up to that long; 0 asks the store on every read).`;
}

/** Runs the static checks. */
export function assertConfig(
  config: ResolvedConfig,
  providers: readonly StaticProvider[],
): Error | WarningCode[] {
  const warnings: WarningCode[] = [];
  if (config.secrets.length === 0)
    return new MissingSecret(
      "No secret is configured. Set AUTH_SECRET (generate one with `npx tessera secret`) or pass `secret` in the config.",
    );

  const seen = new Set<string>();
  for (const provider of providers) {
    if (!provider.id || typeof provider.id !== "string")
      return new InvalidProvider("Every provider needs a string `id`.");
    if (seen.has(provider.id))
      return new InvalidProvider(
        `Two providers share the id "${provider.id}". Give one of them another \`id\`.`,
      );
    seen.add(provider.id);
    if (provider.type === "credentials" && typeof provider.authorize !== "function")
      return new MissingAuthorize(
        `The credentials provider "${provider.id}" has no \`authorize\` function.`,
      );
    if (provider.type === "oauth" || provider.type === "oidc") {
      const problem = oauthProviderProblem(provider, config.redirectProxyUrl);
      if (problem) return problem;
    }
    if (provider.type === "email") {
      const problem = maxAttemptsProblem(provider.maxAttempts);
      if (problem) return new InvalidProvider(`The e-mail provider "${provider.id}": ${problem}`);
    }
    if ((provider.type === "email" || provider.type === "webauthn") && !config.rawAdapter)
      return new MissingAdapter(
        `The ${provider.type} provider "${provider.id}" stores tokens and users: configure an \`adapter\`.`,
      );
    if (provider.type === "webauthn") {
      if (!config.experimental.enableWebAuthn)
        return new ExperimentalFeatureNotEnabled(
          "WebAuthn is experimental: set `experimental: { enableWebAuthn: true }` to use it.",
        );
    }
  }
  const webauthnProblem = webauthnConfigProblem(providers);
  if (webauthnProblem) return webauthnProblem;
  if (config.experimental.enableWebAuthn) warnings.push("experimental-webauthn");

  if (config.session.strategy === "database" && !config.rawAdapter)
    return new MissingAdapter(
      'The "database" session strategy needs an `adapter`. Configure one or use `session: { strategy: "jwt" }`.',
    );

  if (config.rawAdapter) {
    const missing = requiredAdapterMethods(config.session.strategy, providers).filter(
      (method) => typeof config.rawAdapter?.[method] !== "function",
    );
    if (missing.length)
      return new MissingAdapterMethods(
        `The adapter lacks ${missing.map((m) => `\`${m}\``).join(", ")}, which the configured providers and session strategy call. Implement them or use an adapter that has them.`,
      );
  }

  const rateLimit = rateLimitProblem(config.source.rateLimit);
  if (rateLimit) return new InvalidRateLimit(rateLimit);
  const revocationCache = revocationCacheProblem(config.source.jwt?.revocationCacheSeconds);
  if (revocationCache) return new InvalidJwtOptions(revocationCache);

  if (config.debug) warnings.push("debug-enabled");
  if (config.csrfDisabled) warnings.push("csrf-disabled");
  // Once per app, not per resolution: a lazy config is resolved on every request.
  if (
    backchannelIsProcessLocal(config, providers) &&
    firstTime(config.state, "backchannel-memory-store")
  )
    warnings.push("backchannel-memory-store");
  return warnings;
}
