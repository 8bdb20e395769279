/**
 * The adapter, narrowed once. Code that stores users, sessions or tokens runs only for features
 * that need an adapter, and config assertion (`assert.ts`) refuses those configs without one
 * before any action runs; `requireAdapter` turns that invariant into a type instead of a `!`.
 * Optional adapter methods are asked about here too, so that a caller learns what the adapter
 * supports without loading the feature's module.
 */
import type { Adapter } from "../../adapters.js";
import { MissingAdapter } from "../../errors.js";
import type { ResolvedConfig } from "./internal.js";

/**
 * The configured (wrapped) adapter, or a `MissingAdapter` configuration error naming `feature`.
 *
 * @example
 * ```ts
 * const adapter = requireAdapter(ctx.config, "E-mail sign-in")
 * await adapter.createVerificationToken(token)
 * ```
 */
export function requireAdapter(
  config: Pick<ResolvedConfig, "adapter">,
  feature: string,
): Required<Adapter> {
  if (config.adapter) return config.adapter;
  throw new MissingAdapter(`${feature} stores data through an adapter: configure \`adapter\`.`);
}

/**
 * Whether session listing is available: the database strategy and an adapter with the
 * `listSessionsByUserId` extension (Auth.js adapters lack it).
 */
export function supportsSessionListing(
  config: Pick<ResolvedConfig, "session" | "rawAdapter">,
): boolean {
  return (
    config.session.strategy === "database" &&
    typeof config.rawAdapter?.listSessionsByUserId === "function"
  );
}

/** The adapter methods passkey management needs. */
export type PasskeyAdapter = Required<
  Pick<Adapter, "listPasskeysByUserId" | "updatePasskey" | "deletePasskey">
>;

/**
 * The management methods of the configured adapter, or null when the application's adapter
 * (`rawAdapter`: the wrapped one answers every method) lacks one of them.
 *
 * @example
 * ```ts
 * const adapter = passkeyAdapter(ctx.config)
 * if (!adapter) return json({ error: "NotFound" }, 404)
 * ```
 */
export function passkeyAdapter(
  config: Pick<ResolvedConfig, "adapter" | "rawAdapter">,
): PasskeyAdapter | null {
  const raw = config.rawAdapter;
  if (
    typeof raw?.listPasskeysByUserId !== "function" ||
    typeof raw.updatePasskey !== "function" ||
    typeof raw.deletePasskey !== "function" ||
    !config.adapter
  )
    return null;
  return config.adapter as PasskeyAdapter;
}
