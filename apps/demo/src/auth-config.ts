/**
 * The demo's Tessera configuration: SQL adapter on SQLite, database or JWT sessions, and every
 * sign-in method — password, magic link, the local OpenID Provider, passkeys, and GitHub/Google
 * when their credentials are in the environment.
 */
import { admin } from "@tessera/core/admin";
import { organizations } from "@tessera/core/organizations";
import { Password, password } from "@tessera/core/password";
import type { Provider } from "@tessera/core/providers";
import Nodemailer from "@tessera/core/providers/nodemailer";
import Passkey from "@tessera/core/providers/passkey";
import { twoFactor } from "@tessera/core/two-factor";
import type { ExpressAuthConfig } from "@tessera/express";
import { SqlAdapter, sqlStore } from "@tessera/sql";
import type { DemoDatabase } from "./database.js";
import { logoDataUrl } from "./pages/layout.js";
import { ACCENT, IDP_ACCENT } from "./pages/styles.js";
import { verifyPassword as verifyLegacyHash } from "./passwords.js";

/** Session strategies the demo runs with. */
export type SessionStrategy = "database" | "jwt";

/** What the configuration is built from. */
export interface AuthSetup {
  secret: string;
  strategy: SessionStrategy;
  database: DemoDatabase;
  /** SMTP URL of the mail catcher. */
  smtpUrl: string;
  idp: { issuer: string; clientId: string; clientSecret: string };
  /** Extra OAuth providers (GitHub, Google) enabled by the environment. */
  extraProviders?: Provider[];
}

/** The id of the local OpenID Provider in URLs (`/auth/signin/demo-idp`). */
export const IDP_PROVIDER_ID = "demo-idp";

/**
 * Builds the configuration. Password accounts come from `@tessera/core/password` (sign-up with an
 * e-mailed code, "Forgot password?", hashes in Tessera's `passwords` table); every successful
 * sign-in is recorded for the home page's "recent sign-ins".
 *
 * @example
 * ```ts
 * const config = createAuthConfig({ secret, strategy: "database", database, smtpUrl, idp })
 * app.use("/auth", ExpressAuth(config))
 * ```
 */
export function createAuthConfig(setup: AuthSetup): ExpressAuthConfig {
  const { database } = setup;
  const adapter = SqlAdapter(database.db, { dialect: "sqlite" });
  return {
    secret: setup.secret,
    // The demo runs on localhost: the Host header is the URL the browser used.
    trustHost: true,
    basePath: "/auth",
    adapter,
    session: { strategy: setup.strategy },
    // JWT sessions are revocable: signing out puts the token on a denylist in the demo's database.
    jwt: { revocation: sqlStore(database.db, { dialect: "sqlite" }) },
    // The demo IdP's access tokens live 60 s: refresh 10 s before expiry, not the default 60.
    oauth: { refreshMargin: 10 },
    // Two-factor authentication, offered on the home page (built-in enrol and challenge pages),
    // and organisations with the default roles (the home page's switcher and members list).
    // Password accounts: sign-up, verification and reset pages under /auth/password/. The demo runs
    // offline (its tests, a laptop on a train), so the breached-password service is not asked.
    experimental: {
      enableWebAuthn: true,
      extensions: [
        twoFactor({ issuer: "Tessera demo" }),
        organizations(),
        password({ breachedPasswords: false }),
        // User administration at /admin; the demo user is its administrator. Its ban check runs
        // before twoFactor()'s challenge whatever the order here (a gate sign-in step).
        admin({ adminUserIds: [database.demoUserId] }),
      ],
    },
    theme: { brandColor: ACCENT, logo: logoDataUrl, colorScheme: "auto" },
    // The built-in "check your email" page cannot know about the demo's mailbox; ours links to it.
    pages: { verifyRequest: "/check-email" },
    providers: [
      {
        id: IDP_PROVIDER_ID,
        name: "Demo IdP",
        type: "oidc",
        issuer: setup.idp.issuer,
        clientId: setup.idp.clientId,
        clientSecret: setup.idp.clientSecret,
        // Show the provider's login form every time, so each sign-in visibly goes through it.
        authorization: { params: { prompt: "login" } },
        // Signing out of the demo signs out of the provider too (RP-Initiated Logout 1.0).
        federatedLogout: true,
        // JWT sessions keep the tokens in the cookie, so that getAccessToken can refresh them;
        // database sessions keep them in the account row and need no option.
        refresh: setup.strategy === "jwt",
        style: { brandColor: IDP_ACCENT },
      },
      ...(setup.extraProviders ?? []),
      // Hashes from before the password extension (the demo's own scrypt format) still verify,
      // and are re-hashed at the next sign-in.
      Password({ adapter, verifyPassword: verifyLegacyHash }),
      Nodemailer({
        id: "email",
        name: "Email",
        server: setup.smtpUrl,
        from: "Tessera demo <no-reply@tessera.localhost>",
      }),
      Passkey({
        relayingParty: { name: "Tessera demo" },
        // Signed in, "Create a passkey" adds one to the current user and needs no address; the
        // address only names a new account. Signing in with a passkey never needs it.
        formFields: {
          email: {
            label: "Email (only for a new account)",
            type: "email",
            placeholder: "you@example.com",
            autocomplete: "username webauthn",
          },
        },
      }),
    ],
    callbacks: {
      session({ session, user, token }) {
        // Only what the pages need, plus the user's id (the default session leaves it out).
        // Returning `session` itself would hand the browser the database session's row,
        // session token included.
        const source = user ?? session.user;
        return {
          expires: new Date(session.expires).toISOString(),
          user: {
            id: user?.id ?? token?.sub,
            name: source?.name ?? null,
            email: source?.email ?? null,
            image: source?.image ?? null,
          },
        };
      },
    },
    events: {
      async signIn({ user, account }) {
        if (user.id && account) await database.recordSignIn(user.id, account.provider);
      },
    },
  };
}
