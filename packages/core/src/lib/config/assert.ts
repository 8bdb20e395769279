/**
 * Static configuration checks, run once when a configuration is resolved. They return the first
 * error (reported on every request as a configuration error, with the fix in the server log) or
 * the list of warnings. The checks of a feature's options (rate limits, WebAuthn providers) live
 * here, not beside the feature's code: every configuration runs them, so importing the feature
 * for them would load its runtime (the rate-limit stores, the WebAuthn library bridge) into every
 * app at start-up.
 */
import type { Adapter } from "../../adapters.js";
import {
  DuplicateConditionalUI,
  ExperimentalFeatureNotEnabled,
  InvalidJwtOptions,
  InvalidProvider,
  InvalidRateLimit,
  MissingAdapter,
  MissingAdapterMethods,
  MissingAuthorize,
  MissingSecret,
  MissingWebAuthnAutocomplete,
} from "../../errors.js";
import type { RateLimitOptions } from "../../types.js";
import { maxAttemptsProblem } from "../email/attempts.js";
import type { CredentialInput, SimpleWebAuthnMethods, WebAuthnConfig } from "../provider-types.js";
import type { SharedStore } from "../store/shared-store.js";
import type { WarningCode } from "../utils/logger.js";
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

/** Why a rate-limit window is unusable, or undefined when it is fine. */
function windowSecondsProblem(windowSeconds: unknown): string | undefined {
  if (typeof windowSeconds !== "number" || !Number.isFinite(windowSeconds) || windowSeconds <= 0)
    return `The window is ${String(windowSeconds)}: it must be a positive number of seconds.`;
  return undefined;
}

/** Why a rate-limit maximum is unusable, or undefined when it is fine. */
function maxProblem(max: unknown): string | undefined {
  if (typeof max !== "number" || !Number.isInteger(max) || max < 1)
    return `max is ${String(max)}: it must be a positive integer.`;
  return undefined;
}

/**
 * Why `rateLimit` is unusable, or undefined when it is fine. An option left out takes its
 * default (session/rate-limit.ts), which is valid.
 *
 * @example
 * ```ts
 * rateLimitProblem({ max: 0 }) // "rateLimit: max is 0: it must be a positive integer."
 * ```
 */
function rateLimitProblem(option: unknown): string | undefined {
  if (option === undefined || option === false) return undefined;
  if (typeof option !== "object" || option === null)
    return "rateLimit must be an object ({ window, max, maxPerIp, storage }) or false.";
  const { window, max, maxPerIp, storage } = option as RateLimitOptions;
  const problem =
    (window === undefined ? undefined : windowSecondsProblem(window)) ??
    (max === undefined ? undefined : maxProblem(max)) ??
    (maxPerIp === undefined ? undefined : maxProblem(maxPerIp));
  if (problem) return `rateLimit: ${problem}`;
  if (storage !== undefined && typeof (storage as SharedStore).consume !== "function")
    return "rateLimit: storage must be a SharedStore (memoryStore(), redisStore(redis), sqlStore(db)).";
  return undefined;
}

/** The `@simplewebauthn/server` functions a provider must carry (lib/webauthn/library.ts). */
const WEBAUTHN_LIBRARY_METHODS: readonly (keyof SimpleWebAuthnMethods)[] = [
  "generateRegistrationOptions",
  "generateAuthenticationOptions",
  "verifyRegistrationResponse",
  "verifyAuthenticationResponse",
];

/**
 * The names of the functions `provider.simpleWebAuthn` lacks (empty when complete).
 *
 * @example
 * ```ts
 * missingLibraryMethods({ simpleWebAuthn: undefined }) // all four names
 * ```
 */
export function missingLibraryMethods(provider: Pick<WebAuthnConfig, "simpleWebAuthn">): string[] {
  const methods = provider.simpleWebAuthn as Partial<Record<string, unknown>> | undefined;
  return WEBAUTHN_LIBRARY_METHODS.filter((name) => typeof methods?.[name] !== "function");
}

function hasWebAuthnAutocomplete(field: CredentialInput): boolean {
  return (
    typeof field.autocomplete === "string" && field.autocomplete.split(/\s+/).includes("webauthn")
  );
}

function invalidOrigin(origin: unknown): boolean {
  if (typeof origin !== "string") return true;
  try {
    return new URL(origin).origin !== origin;
  } catch {
    return true;
  }
}

/**
 * The first problem of the WebAuthn providers among `providers`, or undefined.
 *
 * @example
 * ```ts
 * webauthnConfigProblem([Passkey(), WebAuthn()]) // DuplicateConditionalUI: both offer autofill
 * ```
 */
function webauthnConfigProblem(
  providers: readonly { type: string; id: string }[],
): Error | undefined {
  const webauthn = providers.filter((p) => p.type === "webauthn") as unknown as WebAuthnConfig[];
  for (const provider of webauthn) {
    const missing = missingLibraryMethods(provider);
    if (missing.length)
      return new InvalidProvider(
        `The WebAuthn provider "${provider.id}" lacks simpleWebAuthn.${missing.join(", simpleWebAuthn.")}. Create it with WebAuthn() or Passkey() from @tessera/core/providers.`,
      );
    const origins = provider.relayingParty?.origin;
    const list = origins === undefined ? [] : Array.isArray(origins) ? origins : [origins];
    const bad = list.find(invalidOrigin);
    if (bad !== undefined)
      return new InvalidProvider(
        `The relayingParty.origin "${String(bad)}" of "${provider.id}" is not an origin. Use scheme://host[:port], without a path.`,
      );
    const related = provider.relayingParty?.relatedOrigins;
    if (related !== undefined) {
      const badRelated = Array.isArray(related) ? related.find(invalidOrigin) : related;
      if (badRelated !== undefined)
        return new InvalidProvider(
          `The relayingParty.relatedOrigins entry "${String(badRelated)}" of "${provider.id}" is not an origin. Give an array of scheme://host[:port], without paths.`,
        );
      // Without a configured id, each related origin would pick its own host as the RP id.
      if (provider.relayingParty?.id === undefined)
        return new InvalidProvider(
          `The WebAuthn provider "${provider.id}" names relatedOrigins without relayingParty.id: set the RP id they share (e.g. "example.com").`,
        );
    }
    const fields = provider.formFields;
    if (
      provider.enableConditionalUI &&
      fields &&
      !Object.values(fields).some(hasWebAuthnAutocomplete)
    )
      return new MissingWebAuthnAutocomplete(
        `The WebAuthn provider "${provider.id}" enables conditional UI, but none of its formFields has "webauthn" in \`autocomplete\`. Add autocomplete: "username webauthn" to one field, or set enableConditionalUI: false.`,
      );
  }
  const conditional = webauthn.filter((p) => p.enableConditionalUI);
  if (conditional.length > 1)
    return new DuplicateConditionalUI(
      `Passkey autofill (enableConditionalUI) is on for ${conditional.map((p) => `"${p.id}"`).join(" and ")}; a page can offer it for one provider only. Set enableConditionalUI: false on the others.`,
    );
  return undefined;
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
