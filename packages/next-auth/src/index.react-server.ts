/**
 * `@tessera/next-auth` as Next.js loads it for server components and route handlers (the
 * `react-server` export condition): the same exports, with a `getServerSession` that also takes
 * the App Router shape `getServerSession(options)`.
 *
 * @example
 * ```ts
 * import { getServerSession } from "@tessera/next-auth"
 * const session = await getServerSession(authOptions)
 * ```
 */
export * from "./index.js";
export { default } from "./index.js";
export { getServerSession } from "./lib/server-session-rsc.js";
