/**
 * JWT helpers, as `next-auth/jwt`: `getToken` (reads the session cookie or the `Authorization`
 * header), `encode`, `decode`.
 *
 * @example
 * ```ts
 * import { getToken } from "@tessera/next/jwt"
 * const token = await getToken({ req: request, secret: process.env.AUTH_SECRET })
 * ```
 */
export * from "@tessera/core/jwt";
