/**
 * The demo's Express application: Tessera at /auth, the home and protected pages, and the
 * developer mailbox.
 */
import type { Session } from "@tessera/core";
import { ExpressAuth, type ExpressAuthConfig, getSession } from "@tessera/express";
import express, { type Request, type Response } from "express";
import type { DemoDatabase } from "./database.js";
import type { Mailbox } from "./mailbox.js";
import { type DemoFacts, renderHome } from "./pages/home.js";
import { html } from "./pages/html.js";
import { type RenderedPage, renderDocument } from "./pages/layout.js";
import { renderCheckEmail, renderMailbox, renderMailHtml } from "./pages/mailbox.js";
import { renderProtected } from "./pages/protected.js";
import { demoStyles } from "./pages/styles.js";

/** What the application is built from. */
export interface AppDependencies {
  authConfig: ExpressAuthConfig;
  database: DemoDatabase;
  mailbox: Mailbox;
  facts: DemoFacts;
  /** Called with errors the pages could not handle (the console, in the CLI). */
  onError?: (error: unknown) => void;
}

function send(res: Response, page: RenderedPage): void {
  res.status(page.status).set(page.headers).send(page.body);
}

/**
 * Builds the Express app.
 *
 * @example
 * ```ts
 * const app = createApp({ authConfig, database, mailbox, facts })
 * http.createServer(app).listen(3000)
 * ```
 */
export function createApp(deps: AppDependencies): express.Express {
  const { authConfig, database, mailbox, facts } = deps;
  const app = express();
  app.disable("x-powered-by");

  app.use("/auth", ExpressAuth(authConfig));

  const sessionOf = (req: Request): Promise<Session | null> => getSession(req, authConfig);

  app.get("/", async (req, res) => {
    const session = await sessionOf(req);
    const userId = session?.user?.id;
    const overview = userId ? await database.overview(userId) : null;
    send(res, renderHome({ session, overview, facts }));
  });

  app.get("/protected", async (req, res) => {
    const session = await sessionOf(req);
    if (!session) {
      res.redirect(303, `/auth/signin?callbackUrl=${encodeURIComponent("/protected")}`);
      return;
    }
    send(res, renderProtected(session, facts));
  });

  app.get("/check-email", async (req, res) => {
    const session = await sessionOf(req);
    send(res, renderCheckEmail(facts, session?.user ?? null));
  });

  app.get("/dev/mailbox", async (req, res) => {
    const session = await sessionOf(req);
    const origin = `${req.protocol}://${req.host}`;
    send(res, renderMailbox({ mails: mailbox.list(), origin, user: session?.user ?? null, facts }));
  });

  app.get("/dev/mailbox/:id", (req, res) => {
    const mail = mailbox.get(Number(req.params.id));
    if (!mail?.html) {
      send(res, notFound());
      return;
    }
    send(res, renderMailHtml(mail));
  });

  app.use((_req, res) => send(res, notFound()));

  app.use((error: unknown, _req: Request, res: Response, _next: express.NextFunction) => {
    deps.onError?.(error);
    if (res.headersSent) return;
    send(
      res,
      renderDocument({
        title: "Error · Tessera demo",
        styles: demoStyles,
        layout: "narrow",
        status: 500,
        nav: { current: "none", user: null },
        main: html`<div class="card login-card"><header><h1>Something went wrong</h1><p>The demo's console shows what happened.</p></header><a class="button secondary block" href="/">Back to the demo</a></div>`,
      }),
    );
  });
  return app;
}

function notFound(): RenderedPage {
  return renderDocument({
    title: "Not found · Tessera demo",
    styles: demoStyles,
    layout: "narrow",
    status: 404,
    nav: { current: "none", user: null },
    main: html`<div class="card login-card"><header><h1>Not found</h1><p>There is no page at this address.</p></header><a class="button secondary block" href="/">Back to the demo</a></div>`,
  });
}
