// middleware.ts runs on the Edge runtime: Tessera reads the JWT session cookie there and the
// `authorized` callback of auth.ts decides who gets through. Nothing here reaches the database.
export { auth as middleware } from "@/auth";

export const config = { matcher: ["/dashboard/:path*"] };
