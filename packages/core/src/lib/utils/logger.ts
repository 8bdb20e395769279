import { AuthError } from "../../errors.js";

/** Warning codes emitted through `logger.warn`. */
export type WarningCode =
  | "debug-enabled"
  | "csrf-disabled"
  | "experimental-webauthn"
  | "env-url-basepath-redundant"
  | "env-url-basepath-mismatch"
  | "backchannel-memory-store"
  | "refresh-margin-exceeds-lifetime"
  | "adapter-lacks-sign-up-methods"
  | "breached-password-check-unavailable"
  | "jwt-sessions-not-recalled";

/** Logger methods; any may be overridden. */
export interface LoggerInstance {
  warn: (code: WarningCode) => void;
  error: (error: Error) => void;
  debug: (message: string, metadata?: unknown) => void;
}

const warningText: Record<WarningCode, string> = {
  "jwt-sessions-not-recalled":
    "A user's sessions were to end (a ban, or an administrator ending them), but JWT sessions cannot be recalled without a revocation store: they stay valid until they expire. Configure jwt.revocation (a shared store) so that they end at once.",
  "breached-password-check-unavailable":
    "The breached-password service could not be reached, so a new password was accepted without that check (password({ breachedPasswords: { failOpen } })). Check the server's network, or set failOpen: false to refuse passwords while it is down.",
  "adapter-lacks-sign-up-methods":
    "The adapter lacks a method that only a first sign-in calls (createUser, linkAccount, updateUser or getUserByEmail): users who exist already sign in, a new user's sign-in ends in a MissingAdapterMethods error naming the method. Implement it to let new users sign in.",
  "debug-enabled": "Debug mode is on: sensitive values may be logged. Turn it off in production.",
  "csrf-disabled":
    "CSRF checks are disabled (skipCSRFCheck). Only do this when the framework protects form posts.",
  "experimental-webauthn": "WebAuthn is experimental and its API may change.",
  "env-url-basepath-redundant": "AUTH_URL sets a path and basePath is set too; basePath wins.",
  "env-url-basepath-mismatch": "The path of AUTH_URL does not match basePath; basePath wins.",
  "backchannel-memory-store":
    "Back-channel logouts of JWT sessions are recorded in this process's memory only: with several instances, a logout the provider sends to one does not end the session on the others. Set oauth.store (redisStore, sqlStore) on every instance.",
  "refresh-margin-exceeds-lifetime":
    "A refreshed access token arrived already within oauth.refreshMargin of its expiry: the provider's access tokens live no longer than the margin (60 s unless set), so every getAccessToken refreshes again. Set oauth.refreshMargin below the provider's access-token lifetime.",
};

interface Palette {
  red: string;
  yellow: string;
  grey: string;
  reset: string;
}

const COLOURS: Palette = {
  red: "\x1b[31m",
  yellow: "\x1b[33m",
  grey: "\x1b[90m",
  reset: "\x1b[0m",
};
const PLAIN: Palette = { red: "", yellow: "", grey: "", reset: "" };

/**
 * Colours only when the console writes to a terminal: a log file or a log collector would keep
 * the escape codes as text. `NO_COLOR` (https://no-color.org) turns them off and `FORCE_COLOR`
 * on (`0` or `false`: off), as for Node's own output. Runtimes without `process` (workers,
 * browsers) get none.
 */
function consolePalette(): Palette {
  const proc = (
    globalThis as {
      process?: { env?: Record<string, string | undefined>; stderr?: { isTTY?: boolean } };
    }
  ).process;
  const env = proc?.env ?? {};
  if (env.NO_COLOR) return PLAIN;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force === "0" || force === "false" ? PLAIN : COLOURS;
  // console.warn and console.error write to stderr; the debug line's colour follows them.
  return proc?.stderr?.isTTY === true ? COLOURS : PLAIN;
}

/** Formats an error with its cause chain for the server log. */
function describe(error: Error): string {
  const lines: string[] = [];
  let current: unknown = error;
  let depth = 0;
  while (current instanceof Error && depth < 5) {
    const type = current instanceof AuthError ? current.type : current.name;
    lines.push(`${depth === 0 ? "" : "  caused by "}[${type}] ${current.message}`);
    const cause: unknown = current.cause;
    current =
      cause && typeof cause === "object" && "err" in cause && cause.err instanceof Error
        ? cause.err
        : cause;
    depth++;
  }
  return lines.join("\n");
}

/** Errors that end a sign-in the user made: a wrong password, a refusal, a used e-mail link. */
const failedSignInTypes: ReadonlySet<string> = new Set([
  "CredentialsSignin",
  "AccessDenied",
  "Verification",
  "OAuthAccountNotLinked",
  "AccountNotLinked",
]);

function isFailedSignIn(error: Error): boolean {
  return error instanceof AuthError && failedSignInTypes.has(error.type);
}

/**
 * The default logger: errors and warnings on the console; debug only when `debug` is set. A failed
 * sign-in (wrong credentials, a sign-in the `signIn` callback refused, a used or expired e-mail
 * link, an account that may not be linked) goes to `console.warn`; a custom `logger.error` still
 * receives it, as with Auth.js.
 */
export function createLogger(config: {
  debug?: boolean;
  logger?: Partial<LoggerInstance>;
}): LoggerInstance {
  const custom = config.logger;
  const debugEnabled = !custom && config.debug === true;
  const { red, yellow, grey, reset } = consolePalette();
  return {
    error: (error) => {
      if (custom?.error) return custom.error(error);
      // A wrong password or a refused sign-in is the user's doing, not a fault of the server.
      if (isFailedSignIn(error))
        return console.warn(`${yellow}[tessera][warn][sign-in-failed]${reset} ${describe(error)}`);
      console.error(`${red}[tessera][error]${reset} ${describe(error)}`);
      if (error.stack && debugEnabled) console.error(grey + error.stack + reset);
    },
    warn: (code) => {
      if (custom?.warn) return custom.warn(code);
      console.warn(`${yellow}[tessera][warn][${code}]${reset} ${warningText[code] ?? ""}`);
    },
    debug: (message, metadata) => {
      if (custom?.debug) return custom.debug(message, metadata);
      if (!debugEnabled) return;
      console.debug(`${grey}[tessera][debug]:${reset} ${message}`, metadata ?? "");
    },
  };
}
