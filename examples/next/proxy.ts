// Next.js 16 runs proxy.ts (formerly middleware.ts) before the matched routes; the `authorized`
// callback in auth.ts decides who gets through. Pages still check the session themselves.
export { auth as proxy } from "@/auth";

export const config = { matcher: ["/protected/:path*"] };
