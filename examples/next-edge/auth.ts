/**
 * One configuration for the whole app. The session is a JWT cookie, which middleware.ts reads on
 * the Edge runtime without a database; users and accounts are stored in SQL by the route
 * handlers, which run on Node. The adapter is loaded only where Next.js compiles for Node:
 * `process.env.NEXT_RUNTIME` is a constant in each of its bundles, so the edge bundle has neither
 * the adapter nor its driver — no second, "edge-safe" configuration to keep in step.
 *
 * The OpenID Provider comes from the environment: AUTH_OIDC_ISSUER, AUTH_OIDC_ID and
 * AUTH_OIDC_SECRET (its callback URL is <origin>/api/auth/callback/oidc); AUTH_SECRET as usual.
 */
import NextAuth from "@tessera/next";

export const { handlers, auth, signIn, signOut } = NextAuth(async () => ({
  providers: [{ id: "oidc", name: "OpenID Provider", type: "oidc" }],
  session: { strategy: "jwt" },
  adapter:
    process.env.NEXT_RUNTIME === "nodejs" ? await (await import("./db")).readyAdapter() : undefined,
  callbacks: {
    // Runs in the middleware, on the edge, from the JWT cookie alone.
    authorized: ({ auth: session }) => Boolean(session?.user),
  },
}));
