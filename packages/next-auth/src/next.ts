/**
 * next-auth v4's `next-auth/next` entry: `getServerSession` (and `NextAuth`, which v4 exports
 * here too).
 *
 * @example
 * ```ts
 * import { getServerSession } from "@tessera/next-auth/next"
 * const session = await getServerSession(authOptions)
 * ```
 */
export { default, NextAuth } from "./index.js";
export { getServerSession } from "./lib/server-session.js";
