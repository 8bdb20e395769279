// The Hono app: Tessera's middleware as @hono/auth-js documents it, a server-rendered home page
// reading the session, a protected page and API, and the React page built by Vite.
import { readFile } from "node:fs/promises";
import { authHandler, getAuthUser, initAuthConfig, verifyAuth } from "@tessera/hono";
import { Hono } from "hono";
import { html } from "hono/html";
import { HTTPException } from "hono/http-exception";
import { authConfig } from "./auth.js";

export function createApp(clientDir: string): Hono {
  const app = new Hono();

  app.use(
    "*",
    initAuthConfig(() => authConfig),
  );
  app.use("/api/auth/*", authHandler());

  // Hono's guard: verifyAuth() answers 401 to signed-out requests...
  app.use("/api/protected/*", verifyAuth());
  app.use("/protected/*", verifyAuth());
  // ...which pages turn into a redirect to the sign-in page, coming back afterwards.
  app.onError((error, c) => {
    if (error instanceof HTTPException && error.status === 401 && !c.req.path.startsWith("/api/")) {
      const callbackUrl = new URL(c.req.url).pathname;
      return c.redirect(`/api/auth/signin?${new URLSearchParams({ callbackUrl })}`);
    }
    if (error instanceof HTTPException) return error.getResponse();
    console.error(error);
    return c.text("Internal Server Error", 500);
  });

  app.get("/", async (c) => {
    const auth = await getAuthUser(c);
    const user = auth?.session.user;
    const status = user ? `Signed in as ${user.name} (${user.email})` : "Not signed in";
    return c.html(html`<!doctype html>
      <html lang="en">
        <head><meta charset="utf-8" /><title>Tessera + Hono</title></head>
        <body>
          <p id="status">${status}</p>
          <p id="greeting">${(auth?.session as { greeting?: string } | undefined)?.greeting ?? ""}</p>
          <a href="/client">React client</a> · <a href="/protected">Protected page</a>
        </body>
      </html>`);
  });

  app.get("/protected", (c) => {
    const { session } = c.get("authUser");
    return c.html(html`<!doctype html>
      <html lang="en">
        <head><meta charset="utf-8" /><title>Protected</title></head>
        <body><p id="secret">Secret for ${session.user?.email}</p></body>
      </html>`);
  });

  app.get("/api/protected", (c) => {
    const { session, token } = c.get("authUser");
    return c.json({ session, subject: token?.sub ?? null });
  });

  // The React page and its assets, as Vite built them.
  app.get("/client", async (c) => c.html(await readFile(`${clientDir}/index.html`, "utf8")));
  app.get("/assets/:file", async (c) => {
    const file = c.req.param("file");
    // Path traversal: only names Vite gives its assets.
    if (!/^[\w.-]+\.(js|css)$/.test(file)) return c.notFound();
    try {
      const body = await readFile(`${clientDir}/assets/${file}`);
      const type = file.endsWith(".js") ? "text/javascript" : "text/css";
      return c.body(body, 200, { "content-type": type });
    } catch {
      return c.notFound();
    }
  });

  return app;
}
