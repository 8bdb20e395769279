/**
 * The opaque handle of an extension, as `AuthConfig.experimental.extensions` holds it. Its parts
 * (action rows, sign-in steps) are typed against internal shapes that the public types module
 * cannot import without a cycle, so the config sees only this handle; `defineExtension`
 * (lib/extension.ts) is the one way to make one.
 */

/** The key under which an extension's parts are kept (a symbol: no JSON or spread config forges it). */
export const EXTENSION_PARTS: unique symbol = Symbol("tessera.extension");

/** An extension made by `defineExtension`. Experimental: its shape may change in a minor release. */
export interface TesseraExtension {
  readonly name: string;
  readonly [EXTENSION_PARTS]: object;
}
