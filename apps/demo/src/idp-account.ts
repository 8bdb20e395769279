/** The one account of the demo's identity provider (see idp.ts). */
export const IDP_ACCOUNT = {
  username: "demo",
  password: "demo",
  claims: {
    sub: "demo-idp-user-1",
    name: "Demo IdP User",
    email: "demo@idp.example",
    email_verified: true,
  },
} as const;
