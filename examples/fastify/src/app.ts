// The Fastify app: the TesseraAuth plugin at /auth, a home page with its own sign-in forms (the
// CSRF token fetched from /auth/csrf), a protected page and API behind requireAuth, and a JSON
// route of the app's own, whose body parser the plugin leaves alone.
import { getSession, requireAuth, TesseraAuth } from "@tessera/fastify";
import Fastify, { type FastifyInstance } from "fastify";
import { authOptions } from "./auth.js";

/** Escapes text for HTML (a user's name is attacker-chosen at sign-up in real apps). */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8" /><title>${escapeHtml(title)}</title></head>
  <body>
${body}
    <script>
      // The forms post to the actions with the double-submit CSRF token, as the built-in pages do.
      fetch("/auth/csrf").then((r) => r.json()).then(({ csrfToken }) => {
        for (const input of document.querySelectorAll('input[name="csrfToken"]')) input.value = csrfToken;
        document.body.dataset.ready = "true";
      });
    </script>
  </body>
</html>`;
}

export async function createApp(): Promise<FastifyInstance> {
  // Behind your own proxy, `trustProxy` makes X-Forwarded-* name the public origin and client IP.
  const app = Fastify({ logger: false });
  await app.register(TesseraAuth, authOptions);

  app.get("/", async (request, reply) => {
    const session = await getSession(request);
    const user = session?.user;
    const status = user ? `Signed in as ${user.name} (${user.email})` : "Not signed in";
    const greeting = (session as { greeting?: string } | null)?.greeting ?? "";
    const forms = user
      ? `<form id="signout" method="post" action="/auth/signout">
      <input type="hidden" name="csrfToken" /><input type="hidden" name="callbackUrl" value="/" />
      <button>Sign out</button>
    </form>`
      : `<form id="credentials" method="post" action="/auth/callback/credentials">
      <input type="hidden" name="csrfToken" />
      <input type="hidden" name="callbackUrl" value="/protected" />
      <input name="username" /><input name="password" type="password" />
      <button>Sign in</button>
    </form>
    <form id="op" method="post" action="/auth/signin/fixture-op">
      <input type="hidden" name="csrfToken" /><input type="hidden" name="callbackUrl" value="/" />
      <button>Sign in with Test OP</button>
    </form>`;
    return reply.type("text/html").send(
      page(
        "Tessera + Fastify",
        `    <p id="status">${escapeHtml(status)}</p>
    <p id="greeting">${escapeHtml(greeting)}</p>
    ${forms}
    <a href="/protected">Protected page</a>`,
      ),
    );
  });

  app.get("/protected", { onRequest: requireAuth() }, async (request, reply) => {
    const session = await request.auth;
    return reply
      .type("text/html")
      .send(
        page(
          "Protected",
          `    <p id="secret">Secret for ${escapeHtml(session?.user?.email ?? "")}</p>`,
        ),
      );
  });

  // Every route of this scope answers 401 to signed-out requests.
  await app.register(async (api) => {
    api.addHook("onRequest", requireAuth({ redirectTo: false }));
    api.get("/api/protected", async (request) => ({ session: await request.auth }));
  });

  // The app's own JSON parser keeps working beside the plugin's.
  app.post("/api/echo", async (request) => ({ echo: request.body }));

  return app;
}
