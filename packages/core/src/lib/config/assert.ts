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

/** A flow and the adapter methods it calls. */
export interface AdapterNeed {
  /** The flow, as the error names it: `e-mail sign-in ("resend")`, `the database session strategy`. */
  flow: string;
  /** The methods every run of the flow calls: without one of them it cannot work at all. */
  methods: AdapterMethod[];
  /**
   * The methods only a first sign-in calls (creating the user, linking the account, marking the
   * address verified): without them the flow still serves users who exist already.
   */
  signUpMethods: AdapterMethod[];
}

const DATABASE_SESSION_METHODS: AdapterMethod[] = [
  "createSession",
  "getSessionAndUser",
  "updateSession",
  "deleteSession",
];
const WEBAUTHN_METHODS: AdapterMethod[] = [
  "createUser",
  "getUser",
  "getUserByEmail",
  "getUserByAccount",
  "updateUser",
  "linkAccount",
  "getAccount",
  "getAuthenticator",
  "createAuthenticator",
  "listAuthenticatorsByUserId",
  "updateAuthenticatorCounter",
];

/** What one provider's sign-in needs from the adapter, or nothing. */
function providerNeed(
  provider: StaticProvider,
  strategy: "jwt" | "database",
): AdapterNeed | undefined {
  const named = `("${provider.id}")`;
  switch (provider.type) {
    case "email":
      // The link is stored, then used; both ends look the address up. The set Auth.js requires.
      return {
        flow: `e-mail sign-in ${named}`,
        methods: ["createVerificationToken", "useVerificationToken", "getUserByEmail"],
        signUpMethods: ["createUser", "updateUser"],
      };
    case "oauth":
    case "oidc":
      return {
        flow: `OAuth sign-in ${named}`,
        methods: ["getUserByAccount"],
        signUpMethods: ["getUserByEmail", "createUser", "linkAccount"],
      };
    case "webauthn":
      return { flow: `passkey sign-in ${named}`, methods: WEBAUTHN_METHODS, signUpMethods: [] };
    case "credentials":
      // With JWT sessions `authorize`'s user is the session: the adapter is not asked.
      if (strategy !== "database") return undefined;
      return {
        flow: `credentials sign-in with database sessions ${named}`,
        methods: ["getUser", "getUserByEmail"],
        signUpMethods: ["createUser"],
      };
    default:
      return undefined;
  }
}

/**
 * Which adapter methods each configured flow calls: the session strategy and every provider. The
 * check refuses an adapter without a flow's `methods` (naming the flow), and warns when it lacks
 * `signUpMethods`, which are needed only when someone signs in for the first time.
 *
 * @example
 * ```ts
 * adapterNeeds("jwt", [resendProvider])
 * // [{ flow: 'e-mail sign-in ("resend")', methods: ["createVerificationToken", …], signUpMethods: […] }]
 * ```
 */
export function adapterNeeds(
  strategy: "jwt" | "database",
  providers: readonly StaticProvider[],
): AdapterNeed[] {
  const needs: AdapterNeed[] = [];
  if (strategy === "database")
    needs.push({
      flow: "the database session strategy",
      methods: DATABASE_SESSION_METHODS,
      signUpMethods: [],
    });
  for (const provider of providers) {
    const need = providerNeed(provider, strategy);
    if (need) needs.push(need);
  }
  return needs;
}

/** The methods of `methods` that `adapter` does not implement. */
function lacking(adapter: Adapter, methods: readonly AdapterMethod[]): AdapterMethod[] {
  return methods.filter((method) => typeof adapter[method] !== "function");
}

/** `` `a`, `b` `` */
function codeList(methods: readonly AdapterMethod[]): string {
  return methods.map((method) => `\`${method}\``).join(", ");
}

/**
 * The error naming, per flow, the methods the adapter lacks; or the warning that first sign-ins
 * cannot complete; or nothing.
 */
function adapterProblem(
  adapter: Adapter,
  needs: readonly AdapterNeed[],
): MissingAdapterMethods | "adapter-lacks-sign-up-methods" | undefined {
  const missing = needs
    .map((need) => ({ flow: need.flow, methods: lacking(adapter, need.methods) }))
    .filter((gap) => gap.methods.length > 0);
  if (missing.length)
    return new MissingAdapterMethods(
      `The adapter lacks methods the configured flows call: ${missing.map((gap) => `${gap.flow} needs ${codeList(gap.methods)}`).join("; ")}. Implement them, or use an adapter that has them (every @auth/*-adapter, @tessera/sql, @tessera/redis and @tessera/memory do).`,
    );
  if (needs.some((need) => lacking(adapter, need.signUpMethods).length > 0))
    return "adapter-lacks-sign-up-methods";
  return undefined;
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
    const problem = adapterProblem(
      config.rawAdapter,
      adapterNeeds(config.session.strategy, providers),
    );
    if (problem instanceof Error) return problem;
    // Once per app, as the warnings below: a lazy config is resolved on every request.
    if (problem && firstTime(config.state, problem)) warnings.push(problem);
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
