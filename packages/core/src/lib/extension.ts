/**
 * Extensions add action rows and sign-in steps to the core without widening its types: the two-
 * factor and account-flow features are built this way. Experimental.
 */
import type { ActionRow, SignInStep } from "./config/internal.js";
import { EXTENSION_PARTS, type TesseraExtension } from "./extension-handle.js";

/** What an extension adds. */
export interface ExtensionParts {
  /** A name for messages (`two-factor`). */
  name: string;
  /** Action rows served beside the core's; a name the core (or another extension) uses is a configuration error. */
  actions?: readonly ActionRow[];
  /** Sign-in steps, run in the order of the extensions and of this list. */
  signInSteps?: readonly SignInStep[];
}

/**
 * Makes an extension for `experimental.extensions`. Experimental: the row and step shapes may
 * change in a minor release.
 *
 * @example
 * ```ts
 * const hello = defineExtension({
 *   name: "hello",
 *   actions: [{ name: "hello", methods: ["GET"], tail: "nothing", csrf: "none", page: false,
 *     callbackUrl: false, reach: "both", handler: () => ({ status: 200, body: "hi" }) }],
 * })
 * Auth(request, { ...config, experimental: { extensions: [hello] } })
 * ```
 */
export function defineExtension(parts: ExtensionParts): TesseraExtension {
  return { name: parts.name, [EXTENSION_PARTS]: parts };
}

/** The parts of an extension made by {@link defineExtension}. */
export function extensionParts(extension: TesseraExtension): ExtensionParts {
  return extension[EXTENSION_PARTS] as ExtensionParts;
}
