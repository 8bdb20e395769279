/**
 * The shapes a provider group contributes to the catalogue tests: its conformance pairs (compared
 * with `@auth/core` in conformance.test.ts), its deliberate differences, and its factories
 * (checked for env inference and options in builtin.test.ts). Each group of the catalogue keeps
 * its own file beside this one.
 */
import type { Provider } from "@tessera/core/providers";

/** One provider of both libraries, with profiles as the provider sends them. */
export interface Pair {
  id: string;
  /** The module name in both libraries, when it is not the id (`ory-hydra` for `hydra`). */
  module?: string;
  /** The options both factories are called with (a fresh object per call). */
  options: () => Record<string, unknown>;
  profiles: Record<string, unknown>[];
}

/** The parts of a provider the conformance comparison covers. */
export const FIELDS = [
  "issuer",
  "wellKnown",
  "authorization",
  "token",
  "userinfo",
  "checks",
  "client",
  "idToken",
] as const;
export type Field = (typeof FIELDS)[number];

/** A deliberate difference from Auth.js's declared provider, with its reason. */
export interface Difference {
  id: string;
  field: Field;
  reason: string;
}

/** A built-in provider factory, usable called or uncalled. */
export type Factory = (options?: Record<string, unknown>) => Provider;

/** What one group of the catalogue contributes. */
export interface ProviderGroup {
  pairs: Pair[];
  differences: Difference[];
  /** `[id, factory]`; ids that need an issuer go in `needsIssuer`. */
  factories: [string, Factory][];
  needsIssuer?: string[];
  /** Options other than credentials and an issuer a provider is invalid without, by id. */
  requiredOptions?: Record<string, Record<string, unknown>>;
}

/** Options both libraries' factories are called with: client credentials only. */
export const credentials = () => ({ clientId: "client-id", clientSecret: "client-secret" });
