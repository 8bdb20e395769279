// The @hono/auth-js README's app, and the patterns its users write, with Tessera's imports.
import GitHub from "@tessera/core/providers/github";
import {
  type AuthConfig,
  type AuthUser,
  authHandler,
  type ConfigHandler,
  getAuthUser,
  initAuthConfig,
  setEnvDefaults,
  verifyAuth,
} from "@tessera/hono";
import { type Context, Hono } from "hono";

type Bindings = { AUTH_SECRET: string; GITHUB_ID: string; GITHUB_SECRET: string };

const app = new Hono<{ Bindings: Bindings }>();

app.use(
  "*",
  initAuthConfig((c) => ({
    secret: c.env.AUTH_SECRET,
    providers: [GitHub({ clientId: c.env.GITHUB_ID, clientSecret: c.env.GITHUB_SECRET })],
    callbacks: {
      session({ session, token }) {
        return { ...session, user: { ...session.user, id: token.sub } };
      },
    },
  })),
);

app.use("/api/auth/*", authHandler());
app.use("/api/*", verifyAuth());

app.get("/api/protected", (c) => {
  const auth = c.get("authUser");
  const email: string | null | undefined = auth.session.user?.email;
  const subject: string | undefined = auth.token?.sub;
  const userId: string | undefined = auth.user?.id;
  return c.json({ email, subject, userId });
});

app.get("/", async (c) => {
  const auth: AuthUser | null = await getAuthUser(c);
  // @ts-expect-error getAuthUser resolves to AuthUser | null, so it needs a check first
  const name: string = auth.session.user?.name;
  return c.text(auth ? `Hello ${auth.session.user?.name}` : `Signed out ${name}`);
});

/** A config built once and shared, as an async handler. */
const config: AuthConfig = { basePath: "/api/auth", providers: [GitHub] };
const handler: ConfigHandler = async (_c: Context) => config;
app.use("/v2/*", initAuthConfig(handler));

setEnvDefaults({ AUTH_SECRET: "secret", AUTH_URL: "https://app.example/api/auth" }, config);

// @ts-expect-error authHandler takes no options: the config comes from initAuthConfig
authHandler(config);

export default app;
