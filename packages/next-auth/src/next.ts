/**
 * next-auth v4's `next-auth/next` entry: `getServerSession` (and `NextAuth`, which v4 exports
 * here too). Server components and route handlers get `next.react-server.ts`, whose
 * `getServerSession` also takes the App Router shape `(options)`.
 *
 * @example
 * ```ts
 * import { getServerSession } from "@tessera/next-auth/next"
 * const session = await getServerSession(req, res, authOptions)
 * ```
 */
export { default, NextAuth } from "./index.js";
export { getServerSession } from "./lib/server-session.js";
