/**
 * Internal shapes: a provider after normalisation, the configuration after defaults and env
 * inference (resolved once per config object), and the per-request context handed to actions.
 */
import type { Adapter, AdapterUser, Awaitable } from "../../adapters.js";
import type {
  Account,
  AuthConfig,
  CallbacksOptions,
  Cookie,
  CookiesOptions,
  EventCallbacks,
  JWT,
  JWTOptions,
  LoggerInstance,
  PagesOptions,
  Profile,
  ResponseInternal,
  SessionOptions,
  Theme,
  User,
} from "../../types.js";
import type { AccountSectionPart } from "../account/sections.js";
import type { ActionRoute } from "../actions/routes.js";
import type {
  CredentialsConfig,
  EmailConfig,
  InternalOAuthProvider,
  WebAuthnConfig,
} from "../provider-types.js";
import type { AppState } from "./app-state.js";

/** URLs every normalised provider carries (absolute, for the current origin). */
export interface ProviderUrls {
  signinUrl: string;
  callbackUrl: string;
}

export type InternalCredentialsProvider = CredentialsConfig & ProviderUrls;
export type InternalEmailProvider = EmailConfig & ProviderUrls & { maxAge: number };
export type InternalWebAuthnProvider = WebAuthnConfig & ProviderUrls;

/** Any provider after normalisation. */
export type InternalProvider =
  | InternalOAuthProvider
  | InternalEmailProvider
  | InternalCredentialsProvider
  | InternalWebAuthnProvider;

/** The configuration after defaults, env inference and static checks. Built once per config. */
export interface ResolvedConfig {
  /** The user's config object (with env defaults applied to a copy). */
  source: AuthConfig;
  basePath: string;
  /** Secrets, newest first. Encoding uses the first. */
  secrets: string[];
  trustHost: boolean;
  /** The origin of `AUTH_URL`: when set, it replaces the request's origin (Host headers unused). */
  origin?: string;
  debug: boolean;
  logger: LoggerInstance;
  pages: Partial<PagesOptions>;
  theme: Required<Pick<Theme, "colorScheme">> & Theme;
  session: SessionOptions;
  jwt: JWTOptions;
  callbacks: CallbacksOptions;
  /** Event handlers wrapped so that a throwing handler is logged, never breaks a flow. */
  events: Partial<EventCallbacks>;
  /** The adapter wrapped so that failures become `AdapterError`s; undefined without one. */
  adapter?: Required<Adapter>;
  /** The adapter exactly as configured (to test which methods exist). */
  rawAdapter?: Adapter;
  csrfDisabled: boolean;
  redirectProxyUrl?: string;
  experimental: { enableWebAuthn: boolean };
  /** Cookie options for http (index 0) and https (index 1) origins, resolved once. */
  cookies: readonly [CookiesOptions, CookiesOptions];
  /** The first configuration error found by the static checks, reported per request. */
  configError?: Error;
  /** What the app keeps between requests in this process (shared by configs with its secret). */
  state: AppState;
  /** The effective action table: the core's rows plus the extensions' (built once). */
  actionTable: ActionTable;
  /** The steps between a first factor and the issued session, in order (empty by default). */
  signInSteps: readonly SignInStep[];
  /** What extensions add to a JWT session's answer, in order (empty by default). */
  sessionFields: readonly SessionFields[];
  /** JWT claims extensions keep when the `jwt` callback returns a token without them. */
  keptClaims: readonly string[];
  /** What extensions do when a user signs out everywhere else (`sessions/revoke` `others`). */
  signedOutElsewhere: readonly SignedOutElsewhere[];
  /** What extensions show on the account page (two-factor state, password set or not). */
  accountSections: readonly AccountSection[];
  /** Providers for an origin (their URLs embed it); cached per origin. */
  providersFor(origin: string): InternalProvider[];
}

/** Everything an action needs for one request. */
export interface AuthContext {
  config: ResolvedConfig;
  request: RequestInternal;
  /** `<origin><basePath>`, no trailing slash — base of every action URL. */
  url: URL;
  providers: InternalProvider[];
  provider?: InternalProvider;
  cookies: CookiesOptions;
  secureCookies: boolean;
  logger: LoggerInstance;
  /** The CSRF token for this request (from the cookie, or freshly minted). */
  csrfToken?: string;
  /** Whether the POSTed `csrfToken` matched the cookie (always true when checks are off). */
  csrfTokenVerified: boolean;
  /** The callback URL after the `redirect` callback (from the query, body or cookie). */
  callbackUrl: string;
  /** Cookies to set on whatever response this request ends with. */
  responseCookies: Cookie[];
}

/** Runs one action for one request. */
export type ActionHandler = (ctx: AuthContext) => Promise<ResponseInternal> | ResponseInternal;

/** One row of the action table: the action's name, its route and its handler. */
export interface ActionRow<Name extends string = string> extends ActionRoute {
  readonly name: Name;
  readonly handler: ActionHandler;
}

/** The effective action table of a configuration: rows by action name. */
export type ActionTable = ReadonlyMap<string, ActionRow>;

/** What a completed first factor hands to the sign-in steps and then to `issueSession`. */
export interface SignInResult {
  user: User | AdapterUser;
  account: Account | null;
  profile?: Profile;
  isNewUser?: boolean;
  /**
   * Claims the sign-in steps add to the session (JWT strategy: written into the token after the
   * `jwt` callback, so a callback that builds a new token cannot drop them): how the user
   * authenticated (`amr`), when (`auth_time`).
   */
  claims?: Record<string, unknown>;
}

/**
 * A phase of the sign-in steps (see {@link SignInStep.phase}), in the order they run: `"gate"`
 * steps decide whether the user may sign in at all; `"challenge"` steps ask the user to prove
 * more. The order is kept in config/extensions.ts, so that this module holds types only and
 * loads nothing at run time.
 */
export type SignInStepPhase = "gate" | "challenge";

/** What a sign-in step answers: go on to the next step (or the session), or pause with `answer`. */
export type SignInStepOutcome =
  | { continue: true; claims?: Record<string, unknown> }
  | { pause: ResponseInternal };

/** An extension's part in "sign out everywhere else", for the user `userId`. */
export type SignedOutElsewhere = (ctx: AuthContext, userId: string) => Awaitable<void>;

/** An extension's part of the account overview of the user `userId`. */
export type AccountSection = (ctx: AuthContext, userId: string) => Awaitable<AccountSectionPart>;

/** Fields an extension adds to a session from its claims (a JWT, or a database session's claims); none: `undefined`. */
export type SessionFields = (
  token: JWT,
  session: SessionFieldsContext,
) => Record<string | symbol, unknown> | undefined;

/**
 * What a session's extension fields may need beside its claims. Symbol-keyed fields reach server
 * code that reads the session in-process and never the browser (JSON has no symbols): an
 * extension hands server functions what they need to answer from the session that way.
 */
export interface SessionFieldsContext {
  config: ResolvedConfig;
  /** The signed-in user's id (`sub` of a JWT session, `userId` of a database session). */
  userId: string | undefined;
}

/**
 * A further step of a sign-in, between "the user is known" and "the session is issued" (a second
 * factor, a forced e-mail verification). A step that pauses answers with a page or redirect of its
 * own; the sign-in waits sealed in a short-lived cookie until an action resumes it
 * (`resumeSignIn`, lib/session/sign-in-steps.ts).
 */
export interface SignInStep {
  /** Stable and unique: the paused sign-in records which step it waits for. */
  readonly name: string;
  /**
   * When the step runs, whatever the order of `experimental.extensions`: every `"gate"` step
   * (one that refuses a user outright, such as a ban) runs before every `"challenge"` step (one
   * that asks the user for more, such as a second factor), so a refused user is never challenged
   * first. Within a phase, steps keep the order of the extensions and of their lists. A resumed
   * sign-in runs the gates again (one may have closed while it waited). Default `"challenge"`.
   */
  readonly phase?: SignInStepPhase;
  run(ctx: AuthContext, signIn: SignInResult): Awaitable<SignInStepOutcome>;
}

// --- the request, as the pipeline parses it -------------------------------------------------

/** The parsed request. */
export interface RequestInternal {
  /** The original request (handed to `authorize`, lazy configs and e-mail senders). */
  request: Request;
  url: URL;
  method: "GET" | "POST";
  /** A core {@link AuthAction}, or the name of an extension's action row. */
  action: string;
  /** The action's route in the effective action table. */
  route: ActionRoute;
  providerId?: string;
  headers: Headers;
  cookies: Record<string, string>;
  /** Form or JSON body of a POST (string values for forms). */
  body?: Record<string, unknown>;
  query: Record<string, string>;
  error?: string;
  /** The sub-path of an action whose route names some (`revoke` in `/sessions/revoke`). */
  subAction?: string;
  /** The client's IP address, when the integration knows it (see {@link RequestSource.clientIp}). */
  clientIp?: string;
  /** Set for Tessera's in-process server functions only (see {@link RequestSource.inProcess}). */
  inProcess?: true;
}

/**
 * Where a request comes from: a Fetch `Request` or a Node `IncomingMessage` (see node.ts; `fetchSource` in pipeline.ts).
 * The pipeline reads only through this, so both inputs run the same steps; the `Request` that user
 * code receives (`request`) is built by a Node source only when it is asked for.
 */
export interface RequestSource {
  readonly method: string;
  /**
   * The absolute URL for an app mounted at `basePath`, or `null` when none can be built
   * (malformed Host, bad request target). With `trustForwarded` (config `trustHost`), a source that
   * sees raw headers takes the origin from `X-Forwarded-Proto`/`-Host`.
   */
  url(basePath: string, trustForwarded: boolean): string | null;
  /** A header value (`name` in lower case), or `null`. */
  header(name: string): string | null;
  /** The body as text, at most `MAX_BODY_BYTES` (pipeline.ts); `null` when larger or unreadable. */
  text(): Promise<string | null>;
  readonly headers: Headers;
  /** The request as user code sees it (lazy configs, `authorize`, e-mail senders). */
  readonly request: Request;
  /** {@link request} with its body readable: a Node source reads the body first. */
  requestWithBody(): Request | Promise<Request>;
  /**
   * The client's IP address as the integration knows it honestly (a socket address, Express's
   * `req.ip` under its `trust proxy` setting, SvelteKit's `getClientAddress()`); never read from an
   * unvalidated `X-Forwarded-For`, which any client can set. Rate limits count per IP only with it.
   */
  readonly clientIp?: string | undefined;
  /**
   * True only for the sources Tessera's in-process server functions build (`listSessions`,
   * `revokeSession`, …): the call comes from the app's server code, which answers for CSRF (Next.js
   * server actions and SvelteKit form actions check the origin), so no CSRF token is asked for.
   * Nothing in a request can set it.
   */
  readonly inProcess?: boolean;
}

/** The routes a request may take, by action name (the effective action table). */
export type ActionRoutes = ReadonlyMap<string, ActionRoute>;

/** Where a path leads: the action, its route, and what followed it. */
export interface ParsedRoute {
  action: string;
  route: ActionRoute;
  providerId?: string;
  subAction?: string;
}
