/**
 * The `@hono/auth-js` README's app as a Cloudflare Workers module, with Tessera's imports: the
 * config is built per request from the Workers bindings (`c.env`), none of which is in a
 * `process.env`, and the auth routes live at `/api/auth` without `basePath` or `AUTH_URL`.
 */
import Credentials from "@tessera/core/providers/credentials";
import { authHandler, initAuthConfig, verifyAuth } from "@tessera/hono";
import { Hono } from "hono";

type Bindings = { AUTH_SECRET: string; APP_PASSWORD: string };

const app = new Hono<{ Bindings: Bindings }>();

app.use(
  "*",
  initAuthConfig((c) => ({
    secret: c.env.AUTH_SECRET,
    trustHost: true,
    providers: [
      Credentials({
        credentials: { username: {}, password: {} },
        authorize: ({ username, password }) =>
          username === "ada" && password === c.env.APP_PASSWORD
            ? { id: "ada", name: "Ada Lovelace", email: "ada@example.com" }
            : null,
      }),
    ],
  })),
);
app.use("/api/auth/*", authHandler());
app.use("/api/*", verifyAuth());
app.get("/api/protected", (c) => c.json(c.get("authUser")));

export default app;
