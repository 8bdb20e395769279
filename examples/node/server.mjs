// server.mjs: a complete app on plain Node (node:http), with a sign-in form and a page that reads the session.
import { createServer } from "node:http";
import { getSession, toNodeHandler } from "@tessera/core/node";
import Credentials from "@tessera/core/providers/credentials";

// One demo user: replace this with a lookup in your database and a password-hash check.
const users = [{ id: "1", name: "Ada", email: "ada@example.com", password: "analytical-engine" }];

/** @type {import("@tessera/core").AuthConfig} */
const config = {
  // AUTH_SECRET, and AUTH_URL or AUTH_TRUST_HOST, are read from the environment.
  providers: [
    Credentials({
      credentials: {
        email: { label: "E-mail", type: "email" },
        password: { label: "Password", type: "password" },
      },
      authorize({ email, password }) {
        const user = users.find((candidate) => candidate.email === email);
        if (!user || user.password !== password) return null;
        return { id: user.id, name: user.name, email: user.email };
      },
    }),
  ],
};

const auth = toNodeHandler(config);
/** @param {unknown} text */
const escapeHtml = (text) =>
  String(text).replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

createServer(async (req, res) => {
  // Sign-in page, callbacks, sign-out, session and CSRF endpoints live under /auth.
  if (req.url?.startsWith("/auth/")) return auth(req, res);

  let session;
  try {
    session = await getSession(req, config, res);
  } catch {
    // getSession rejects when the auth configuration cannot answer (the server log says why):
    // answer 500 here, or the unhandled rejection would stop the whole server.
    res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" });
    return res.end("Sign-in is unavailable: the server log names the configuration problem.");
  }
  res.setHeader("Content-Type", "text/html; charset=utf-8");
  res.end(
    session
      ? `<p>Signed in as ${escapeHtml(session.user?.email)}. <a href="/auth/signout">Sign out</a></p>`
      : `<p>Not signed in. <a href="/auth/signin">Sign in</a></p>`,
  );
}).listen(Number(process.env.PORT ?? 3000), () => {
  console.log(`Listening on http://localhost:${process.env.PORT ?? 3000}`);
});
