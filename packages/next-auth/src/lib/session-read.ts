/**
 * Reads the session for server code by running the core's session action in-process
 * (`callAction`) with the incoming request's cookies, as `getServerSession` does in every shape.
 * Fails closed: a configuration error, an error answer or an exception all mean "no session".
 */
import { type Cookie, callAction, createActionURL, raw, serializeCookies } from "@tessera/core";
import type { AuthOptions } from "../types.js";
import { configFor } from "./config.js";

/** The session (or `null`) and the cookies the core wants set (a re-issued session cookie). */
export interface SessionRead {
  session: Record<string, unknown> | null;
  cookies: Cookie[];
}

function logError(options: AuthOptions, error: unknown): void {
  const err = error instanceof Error ? error : new Error(String(error));
  try {
    if (options.logger?.error) options.logger.error(err);
    else console.error(`[tessera][error] ${err.name}: ${err.message}`);
  } catch {
    // A failing logger must not turn a handled error into an unhandled one.
  }
}

const dataConfigs = new WeakMap<AuthOptions, ReturnType<typeof configFor> & { raw: typeof raw }>();

/**
 * The session of a request with `headers`. `protocol` is the request's (`https:` behind TLS),
 * used when neither `NEXTAUTH_URL` nor `X-Forwarded-Proto` names one.
 *
 * @example
 * ```ts
 * const { session, cookies } = await readSession(new Headers(req.headers), authOptions, "http:")
 * ```
 */
export async function readSession(
  headers: Headers,
  options: AuthOptions,
  protocol = "https:",
): Promise<SessionRead> {
  try {
    let config = dataConfigs.get(options);
    if (!config) {
      config = { ...configFor(options), raw };
      dataConfigs.set(options, config);
    }
    const proto = headers.get("x-forwarded-proto") ?? protocol;
    const url = createActionURL("session", proto, headers, process.env, config);
    const result = await callAction(config, {
      action: "session",
      url,
      headers,
      cookies: headers.get("cookie") ?? "",
    });
    const body = result.body;
    const isSession =
      (result.status ?? 200) === 200 &&
      typeof body === "object" &&
      body !== null &&
      !Array.isArray(body) &&
      Object.keys(body).length > 0;
    return {
      session: isSession ? (body as Record<string, unknown>) : null,
      cookies: result.cookies ?? [],
    };
  } catch (error) {
    logError(options, error);
    return { session: null, cookies: [] };
  }
}

/** `Set-Cookie` header values for `cookies` (a cookie a header cannot carry is dropped). */
export function setCookieHeaders(cookies: readonly Cookie[]): string[] {
  return serializeCookies(cookies);
}
