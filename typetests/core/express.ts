// The @auth/express guide's app, with Tessera's imports.

import GitHub from "@tessera/core/providers/github";
import { ExpressAuth, type ExpressAuthConfig, getSession } from "@tessera/express";
import express from "express";

const authConfig: ExpressAuthConfig = { providers: [GitHub], trustHost: true };
const app = express();
app.set("trust proxy", true);
app.use("/auth/*", ExpressAuth(authConfig));
app.use(async (req, res, next) => {
  res.locals.session = await getSession(req, authConfig);
  next();
});
app.get("/", (_req, res) => {
  res.json({ user: res.locals.session?.user?.name ?? null });
});
export default app;
