import { withAuth } from "@tessera/next-auth/middleware";

export default withAuth({
  callbacks: {
    authorized: ({ req, token }) =>
      req.nextUrl.pathname.startsWith("/admin") ? token?.role === "admin" : token !== null,
  },
});

export const config = { matcher: ["/dashboard", "/admin/:path*"] };
