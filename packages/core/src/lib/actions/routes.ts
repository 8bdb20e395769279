/**
 * The route half of the action table: for every action served under the base path, how a request
 * reaches it and what the pipeline prepares before its handler runs. The handler half is
 * `table.ts`, which the compiler checks against this list (one handler per route, no more).
 *
 * Kept free of imports so that the public `AuthAction` type (types.ts) can be derived from it:
 * the handlers import types.ts, and a type import back from there would be an import cycle.
 */

/** An HTTP method an action may be reached with. */
export type ActionMethod = "GET" | "POST";

/** Where an action may be run from: a request over HTTP, server code in-process, or both. */
export type ActionReach = "http" | "in-process" | "both";

/**
 * How an action takes part in the CSRF double-submit check (the token in `authjs.csrf-token`
 * against `csrfToken` in the body):
 * - `all`: every request reads the token (minting one when absent) and a POST's is verified;
 * - `post`: only a POST reads and verifies it;
 * - `none`: the action never needs it.
 *
 * The handler decides what an unverified POST gets (`ctx.csrfTokenVerified`); in-process calls
 * and `skipCSRFCheck` count as verified.
 */
export type CsrfRule = "all" | "post" | "none";

/** What may follow the action's own path segment (`<basePath>/<action>/<…>`). */
export type ActionTail =
  /** Nothing: `<basePath>/<action>` only. */
  | "nothing"
  /** An optional provider id (`/signin/github`); the literal `undefined` counts as none. */
  | "provider"
  /** One of these sub-paths (`/sessions/revoke`), handed to the handler as `subAction`. */
  | readonly string[];

/** How a request reaches one action and what the pipeline prepares for it. */
export interface ActionRoute {
  /** The methods served; any other is answered 400. */
  readonly methods: readonly ActionMethod[];
  readonly tail: ActionTail;
  readonly csrf: CsrfRule;
  /**
   * Whether a GET renders an HTML page: a configuration error then shows the error page
   * (`error=Configuration`) instead of a JSON answer.
   */
  readonly page: boolean;
  /**
   * Whether the callback URL is resolved (from the query, the body or its cookie, through the
   * `redirect` callback) before the handler runs.
   */
  readonly callbackUrl: boolean;
  readonly reach: ActionReach;
}

const GET: readonly ActionMethod[] = ["GET"];
const GET_POST: readonly ActionMethod[] = ["GET", "POST"];

/** The actions of the core. Extensions add theirs through `defineExtension` (table.ts). */
export const CORE_ACTION_ROUTES = {
  // Tessera extension: the signed-in user's account page (or its data), name edit and unlink.
  account: {
    methods: GET_POST,
    tail: ["profile", "unlink"],
    csrf: "all",
    page: true,
    callbackUrl: false,
    reach: "both",
  },
  // An OpenID Provider posts here; a GET is answered `invalid_request` by the handler.
  "backchannel-logout": {
    methods: GET_POST,
    tail: "provider",
    csrf: "none",
    page: false,
    callbackUrl: false,
    reach: "http",
  },
  callback: {
    methods: GET_POST,
    tail: "provider",
    csrf: "post",
    page: false,
    callbackUrl: true,
    reach: "both",
  },
  csrf: {
    methods: GET,
    tail: "nothing",
    csrf: "all",
    page: false,
    callbackUrl: false,
    reach: "both",
  },
  error: {
    methods: GET,
    tail: "nothing",
    csrf: "none",
    page: true,
    callbackUrl: false,
    reach: "both",
  },
  // Tessera extension: list, rename and delete the signed-in user's passkeys.
  passkeys: {
    methods: GET_POST,
    tail: ["rename", "delete", "unknown"],
    csrf: "post",
    page: false,
    callbackUrl: false,
    reach: "both",
  },
  providers: {
    methods: GET,
    tail: "nothing",
    csrf: "none",
    page: false,
    callbackUrl: false,
    reach: "both",
  },
  session: {
    methods: GET_POST,
    tail: "nothing",
    csrf: "post",
    page: false,
    callbackUrl: false,
    reach: "both",
  },
  sessions: {
    methods: GET_POST,
    tail: ["revoke"],
    csrf: "post",
    page: false,
    callbackUrl: false,
    reach: "both",
  },
  signin: {
    methods: GET_POST,
    tail: "provider",
    csrf: "all",
    page: true,
    callbackUrl: true,
    reach: "both",
  },
  signout: {
    methods: GET_POST,
    tail: "nothing",
    csrf: "all",
    page: true,
    callbackUrl: true,
    reach: "both",
  },
  "verify-request": {
    methods: GET,
    tail: "nothing",
    // The page's code form posts a CSRF token (e-mail code sign-in).
    csrf: "all",
    page: true,
    callbackUrl: false,
    reach: "both",
  },
  "webauthn-options": {
    methods: GET,
    tail: "provider",
    csrf: "none",
    page: false,
    callbackUrl: false,
    reach: "both",
  },
} as const satisfies Record<string, ActionRoute>;

/** The names of the core's actions (the public `AuthAction`). */
export type CoreActionName = keyof typeof CORE_ACTION_ROUTES;

/**
 * The core's actions for server code only, outside the public `AuthAction` (Auth.js has no such
 * action): `access-token` answers `getAccessToken`. Over HTTP they do not exist (400): a token
 * endpoint would hand the provider's tokens to any script that can send the session cookie.
 */
export const SERVER_ACTION_ROUTES = {
  "access-token": {
    methods: GET,
    tail: "provider",
    csrf: "none",
    page: false,
    callbackUrl: false,
    reach: "in-process",
  },
} as const satisfies Record<string, ActionRoute>;

/** The names of the core's server-only actions. */
export type ServerActionName = keyof typeof SERVER_ACTION_ROUTES;
