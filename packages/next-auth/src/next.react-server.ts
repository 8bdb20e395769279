/**
 * `@tessera/next-auth/next` for server components and route handlers (the `react-server` export
 * condition): `getServerSession(options)` reads the request through `next/headers`.
 *
 * @example
 * ```ts
 * import { getServerSession } from "@tessera/next-auth/next"
 * const session = await getServerSession(authOptions)
 * ```
 */
export { default, NextAuth } from "./index.js";
export { getServerSession } from "./lib/server-session-rsc.js";
