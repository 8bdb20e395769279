/**
 * How a session says it is an impersonation: the RFC 8693 §4.1 `act` (actor) claim names the
 * administrator acting as the session's user, and the session shows it as `impersonatedBy`.
 * Types and pure functions only, shared by the extension, its server functions and app code.
 */
import type { JWT, Session } from "../../types.js";

/**
 * The claim naming who acts for the session's subject: `{ sub: <administrator id> }`, as
 * [RFC 8693 §4.1](https://www.rfc-editor.org/rfc/rfc8693#section-4.1) defines `act`.
 */
export const ACTOR_CLAIM = "act";

/** What a session shows about an impersonation (`session.impersonatedBy`, `session.impersonationExpires`). */
export interface ImpersonationFields {
  /** The id of the administrator acting as the session's user. */
  impersonatedBy: string;
  /** When the impersonation ends by itself (ISO 8601). */
  impersonationExpires?: string;
}

/**
 * The administrator named by the `act` claim of `claims` (a JWT or a database session's claims),
 * or null when the session is the user's own.
 *
 * @example
 * ```ts
 * actorOf({ sub: "user-1", act: { sub: "admin-1" } }) // "admin-1"
 * ```
 */
export function actorOf(claims: Record<string, unknown> | null | undefined): string | null {
  const act = claims?.[ACTOR_CLAIM];
  if (typeof act !== "object" || act === null) return null;
  const sub = (act as { sub?: unknown }).sub;
  return typeof sub === "string" && sub !== "" ? sub : null;
}

/**
 * Whether the session (as `auth()`/`getSession` answer it) or the JWT (as `getToken` answers it)
 * is an administrator's impersonation, and whose: the administrator's id, or null. Every page
 * and API can ask it, to show a banner or to refuse what a user must do in person (changing a
 * password, paying).
 *
 * @example
 * ```ts
 * import { impersonatorOf } from "@tessera/core/admin"
 * const session = await auth()
 * if (impersonatorOf(session)) return new Response("Not while impersonating", { status: 403 })
 * ```
 */
export function impersonatorOf(sessionOrToken: Session | JWT | null | undefined): string | null {
  if (!sessionOrToken) return null;
  const shown = (sessionOrToken as Partial<ImpersonationFields>).impersonatedBy;
  if (typeof shown === "string" && shown !== "") return shown;
  return actorOf(sessionOrToken as Record<string, unknown>);
}
