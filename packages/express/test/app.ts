/**
 * A small Express 5 app using Tessera: credentials sign-in, a server-rendered home page showing
 * the session, and a protected page. Used by the tests and as the README example.
 */
import Credentials from "@tessera/core/providers/credentials";
import { ExpressAuth, type ExpressAuthConfig, getSession } from "@tessera/express";
import express from "express";

/** The one user of this demo. Real apps look users up and compare password hashes. */
const ADA = { id: "1", name: "Ada Lovelace", email: "ada@example.com" };

/** The auth configuration (`AUTH_SECRET` would normally come from the environment). */
export function createAuthConfig(overrides: Partial<ExpressAuthConfig> = {}): ExpressAuthConfig {
  return {
    secret: "express-example-secret-at-least-32-chars",
    trustHost: true,
    providers: [
      Credentials({
        credentials: { username: { label: "User name" }, password: { type: "password" } },
        authorize: ({ username, password }) =>
          username === "ada" && password === "lovelace" ? ADA : null,
      }),
    ],
    ...overrides,
  };
}

const escapes: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};
/** HTML escaping (stored XSS through a user's name). */
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => escapes[c]!);

/** Builds the app. `trustProxy` for deployments behind a reverse proxy. */
export function createApp(
  authConfig = createAuthConfig(),
  options: { trustProxy?: boolean; bodyParsers?: boolean; mountAtRoot?: boolean } = {},
) {
  const app = express();
  if (options.trustProxy) app.set("trust proxy", true);
  if (options.bodyParsers) app.use(express.urlencoded(), express.json());
  if (options.mountAtRoot) app.use(ExpressAuth(authConfig));
  else app.use("/auth", ExpressAuth(authConfig));

  app.get("/", async (req, res) => {
    const session = await getSession(req, authConfig);
    const body = session?.user
      ? `<p id="status">Signed in as ${escapeHtml(session.user.name ?? "")} (${escapeHtml(session.user.email ?? "")})</p>
         <form method="post" action="/auth/signout"><button>Sign out</button></form>`
      : `<p id="status">Not signed in</p><a href="/auth/signin">Sign in</a>`;
    res.type("html").send(`<!doctype html><title>Tessera + Express</title>${body}`);
  });

  app.get("/protected", async (req, res) => {
    const session = await getSession(req, authConfig);
    if (!session) {
      res.redirect(`/auth/signin?callbackUrl=${encodeURIComponent(req.originalUrl)}`);
      return;
    }
    res.type("html").send(`<p>Secret for ${escapeHtml(session.user?.email ?? "")}</p>`);
  });
  return app;
}
