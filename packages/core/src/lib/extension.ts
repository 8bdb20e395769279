/**
 * Extensions add action rows and sign-in steps to the core without widening its types: the two-
 * factor and account-flow features are built this way. Experimental.
 */
import type {
  AccountSection,
  ActionRow,
  SessionFields,
  SignedOutElsewhere,
  SignInStep,
} from "./config/internal.js";
import { EXTENSION_PARTS, type TesseraExtension } from "./extension-handle.js";

/** What an extension adds. */
export interface ExtensionParts {
  /** A name for messages (`two-factor`). */
  name: string;
  /** Action rows served beside the core's; a name the core (or another extension) uses is a configuration error. */
  actions?: readonly ActionRow[];
  /**
   * Sign-in steps. Every `"gate"` step runs before every `"challenge"` step (`phase`, default
   * `"challenge"`); within a phase, in the order of the extensions and of this list.
   */
  signInSteps?: readonly SignInStep[];
  /**
   * Adapter methods the extension cannot work without. Checked when the config is resolved: a
   * missing one is a configuration error naming the method and the packages that have it.
   */
  requires?: readonly ExtensionRequirement[];
  /**
   * Fields added to the session answer of a JWT session, from its token (for example what the
   * extension's steps put there through `claims`). Added after the `session` callback, never
   * over a field the callback set.
   */
  sessionFields?: SessionFields;
  /**
   * JWT claims the extension's steps write (through `claims`) that a session keeps when the
   * `jwt` callback returns a token without them.
   */
  keptClaims?: readonly string[];
  /**
   * Runs when a user signs out everywhere else (`POST <basePath>/sessions/revoke` with `others`,
   * `revokeOtherSessions`): what the extension keeps per browser ends with the sessions.
   */
  signedOutElsewhere?: SignedOutElsewhere;
  /**
   * What the extension shows on the account page (`<basePath>/account`) for a user: the
   * two-factor state, whether a password is set and where to change it.
   */
  accountSection?: AccountSection;
}

/** Methods an extension needs on the configured adapter. */
export interface ExtensionRequirement {
  /** Where the methods must be: the configured `adapter`. */
  of: "adapter";
  methods: readonly string[];
  /** The packages that implement them, named in the error (`@tessera/sql, @tessera/redis`). */
  implementedBy: string;
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
