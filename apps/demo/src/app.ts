/**
 * The demo's Express application: Tessera at /auth, the home and protected pages, and the
 * developer mailbox.
 */
import { Auth, type Session } from "@tessera/core";
import { ADMIN_ACTION, adminApi } from "@tessera/core/admin";
import { AdminActionRefused, RefreshTokenError } from "@tessera/core/errors";
import {
  type ActiveOrganization,
  hasPermission,
  organizationsApi,
} from "@tessera/core/organizations";
import { twoFactorApi } from "@tessera/core/two-factor";
import {
  actionRunner,
  ExpressAuth,
  type ExpressAuthConfig,
  getAccessToken,
  getSession,
  listSessions,
  revokeOtherSessions,
  revokeSession,
} from "@tessera/express";
import express, { type Request, type Response } from "express";
import { IDP_PROVIDER_ID } from "./auth-config.js";
import type { DemoDatabase } from "./database.js";
import type { Mailbox } from "./mailbox.js";
import { renderAdmin } from "./pages/admin.js";
import { renderDevices } from "./pages/devices.js";
import { type DemoFacts, renderHome } from "./pages/home.js";
import { html, type Markup } from "./pages/html.js";
import {
  logoSvg,
  type RenderedPage,
  renderDocument,
  sessionNavUser,
  signOutControl,
} from "./pages/layout.js";
import { ownLinksIn, renderCheckEmail, renderMailbox, renderMailHtml } from "./pages/mailbox.js";
import { renderOrganizations } from "./pages/organizations.js";
import { renderProtected } from "./pages/protected.js";
import { demoStyles } from "./pages/styles.js";
import { renderTwoFactor } from "./pages/two-factor.js";
import { usedSignInLinks } from "./sign-in-links.js";

/** What the application is built from. */
export interface AppDependencies {
  authConfig: ExpressAuthConfig;
  database: DemoDatabase;
  mailbox: Mailbox;
  facts: DemoFacts;
  /** Called with errors the pages could not handle (the console, in the CLI). */
  onError?: (error: unknown) => void;
}

/** Who was signed in before a password sign-in, and when (see the home page's notice). */
const PREVIOUS_USER_COOKIE = "demo-previous-user";

/** One cookie of the request (the demo sets no cookie parser). */
function cookieValue(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? "").split(";")) {
    const separator = part.indexOf("=");
    if (separator > 0 && part.slice(0, separator).trim() === name)
      return decodeURIComponent(part.slice(separator + 1).trim());
  }
  return undefined;
}

function sendPage(res: Response, page: RenderedPage): void {
  res.status(page.status).set(page.headers).send(page.body);
}

/**
 * Lets the page's forms end at `origin`: Chromium applies `form-action` to the redirects after a
 * form post, and signing out of a session of the demo IdP redirects to its end-session page.
 */
function allowFormTarget(page: RenderedPage, origin: string): RenderedPage {
  const policy = page.headers["Content-Security-Policy"];
  if (!policy) return page;
  return {
    ...page,
    headers: {
      ...page.headers,
      "Content-Security-Policy": policy.replace(
        "form-action 'self'",
        `form-action 'self' ${origin}`,
      ),
    },
  };
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
  const send = (res: Response, page: RenderedPage) =>
    sendPage(res, allowFormTarget(page, facts.idp.issuer));

  const sessionOf = (req: Request): Promise<Session | null> => getSession(req, authConfig);

  app.get(["/favicon.ico", "/favicon.svg"], (_req, res) => {
    res
      .type("image/svg+xml")
      .set("Cache-Control", "public, max-age=86400")
      .send(logoSvg.replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" '));
  });

  // A password sign-in while signed in: remember who was signed in, so that the home page can
  // say whether the password switched to another user or belonged to the same one.
  app.post("/auth/callback/password", async (req, res, next) => {
    const before = await sessionOf(req);
    if (before?.user?.id)
      res.cookie(PREVIOUS_USER_COOKIE, `${before.user.id} ${Date.now()}`, {
        httpOnly: true,
        sameSite: "lax",
        path: "/",
        maxAge: 120_000,
      });
    next();
  });

  // Signed in, a refused link means the provider's account or the passkey belongs to another
  // user (unlinked identities are linked to the signed-in user): say that, not the generic text.
  app.get("/auth/signin", async (req, res, next) => {
    const error = req.query.error;
    if (error !== "OAuthAccountNotLinked" && error !== "AccountNotLinked") return next();
    const session = await sessionOf(req);
    if (!session?.user) return next();
    send(res, linkedElsewhere(session, error, await csrfTokenFor(req, res)));
  });

  app.use("/auth", ExpressAuth(authConfig));

  /**
   * A CSRF token for the pages' sign-out forms, from Tessera's own `/auth/csrf` (double-submit:
   * when the browser has no CSRF cookie yet, the new one goes out with the page).
   */
  async function csrfTokenFor(req: Request, res: Response): Promise<string | undefined> {
    const answer = await Auth(
      new globalThis.Request(`${req.protocol}://${req.host}/auth/csrf`, {
        headers: { cookie: req.headers.cookie ?? "" },
      }),
      authConfig,
    );
    if (!answer.ok) return undefined;
    for (const cookie of answer.headers.getSetCookie()) res.append("Set-Cookie", cookie);
    const body = (await answer.json()) as { csrfToken?: unknown };
    return typeof body.csrfToken === "string" ? body.csrfToken : undefined;
  }

  /** The nav bar's user, with the token of its sign-out form. */
  async function navUserOf(req: Request, res: Response, session: Session | null) {
    return session?.user ? sessionNavUser(session, await csrfTokenFor(req, res)) : null;
  }

  app.get("/", async (req, res) => {
    const session = await sessionOf(req);
    const userId = session?.user?.id;
    const overview = userId ? await database.overview(userId) : null;
    const notice = await passwordSignInNotice(req, res, session, overview);
    const csrfToken = session ? await csrfTokenFor(req, res) : undefined;
    const sessions =
      session && facts.strategy === "database" ? await listSessions(req, authConfig) : null;
    const devices = session ? renderDevices(sessions, facts.strategy) : null;
    const twoFactor = session
      ? renderTwoFactor(await twoFactorApi(actionRunner(req, authConfig)).status())
      : null;
    const organizations = session ? await organizationsCard(req, session) : null;
    send(
      res,
      renderHome({
        session,
        overview,
        facts,
        csrfToken,
        notice,
        devices,
        twoFactor,
        organizations,
      }),
    );
  });

  /** The Organisations card: the user's organisations, the active one and its members. */
  async function organizationsCard(req: Request, session: Session): Promise<Markup> {
    const orgs = organizationsApi(actionRunner(req, authConfig));
    const active =
      (session as Session & { activeOrganization?: ActiveOrganization }).activeOrganization ?? null;
    // A session may still name an organisation it was removed from: then no members are shown.
    const details = active ? await orgs.get(active.id).catch(() => null) : null;
    // Answered from the session (no database read) unless the membership changed since.
    const managesMembers =
      details !== null && (await hasPermission(session, { member: ["update"] }));
    const roles =
      managesMembers && active ? (await orgs.listRoles(active.id)).map((r) => r.name) : [];
    return renderOrganizations({
      organizations: await orgs.list(),
      active,
      details,
      roles,
      managesMembers,
      userId: session.user?.id ?? "",
    });
  }

  // The Organisations card's forms: switch the active organisation, create one, change a member's
  // role, invite. CSRF: only a form from this origin may ask, as for /devices. Whether the user
  // may change roles or invite, the server functions decide.
  app.post(
    "/organizations/:operation",
    express.urlencoded({ extended: false }),
    async (req, res) => {
      const origin = `${req.protocol}://${req.host}`;
      if (req.headers.origin !== origin) {
        res.status(403).type("text").send("Cross-origin form posts are refused.");
        return;
      }
      const orgs = organizationsApi(actionRunner(req, authConfig));
      const text = (name: string) => (typeof req.body?.[name] === "string" ? req.body[name] : "");
      try {
        if (req.params.operation === "active") await orgs.setActive(text("organizationId") || null);
        else if (req.params.operation === "create")
          await orgs.setActive((await orgs.create({ name: text("name"), slug: text("slug") })).id);
        else if (req.params.operation === "role")
          await orgs.setRole(text("organizationId"), text("userId"), text("role"));
        else if (req.params.operation === "invite")
          await orgs.invite(text("organizationId"), { email: text("email"), role: text("role") });
      } catch (error) {
        res
          .status(400)
          .type("text")
          .send(error instanceof Error ? error.message : "Refused.");
        return;
      }
      res.redirect(303, "/");
    },
  );

  // The admin page: users a page at a time with a search; the admin action refuses anyone who is
  // not an administrator now (and an impersonated session), and the page then says so.
  app.get("/admin", async (req, res) => {
    const session = await sessionOf(req);
    if (!session?.user) {
      res.redirect(303, `/auth/signin?callbackUrl=${encodeURIComponent("/admin")}`);
      return;
    }
    const search = typeof req.query.search === "string" ? req.query.search.slice(0, 100) : "";
    const offset = Math.max(0, Number.parseInt(String(req.query.offset ?? "0"), 10) || 0);
    const listing = await adminApi(actionRunner(req, authConfig))
      .listUsers({ search, offset, limit: 20 })
      .catch((error: unknown) => {
        if (error instanceof AdminActionRefused) return null;
        throw error;
      });
    const user = await navUserOf(req, res, session);
    send(
      res,
      renderAdmin({ user: user ?? {}, facts, listing, search, adminId: session.user.id ?? "" }),
    );
  });

  // The admin page's forms and the impersonation banner's "Stop impersonating". CSRF: only a form
  // from this origin may ask, as for /devices. Impersonation changes the browser's session
  // cookies, so it runs the admin action itself (the runner sets them on this response).
  app.post("/admin/:operation", express.urlencoded({ extended: false }), async (req, res) => {
    const origin = `${req.protocol}://${req.host}`;
    if (req.headers.origin !== origin) {
      res.status(403).type("text").send("Cross-origin form posts are refused.");
      return;
    }
    const run = actionRunner(req, authConfig);
    const administration = adminApi(run);
    const userId = typeof req.body?.userId === "string" ? req.body.userId : "";
    const operation = req.params.operation;
    try {
      if (operation === "ban") {
        const reason = typeof req.body?.reason === "string" ? req.body.reason.slice(0, 200) : "";
        await administration.ban(userId, reason ? { reason } : {});
      } else if (operation === "unban") await administration.unban(userId);
      else if (operation === "impersonate" || operation === "stop-impersonating") {
        const answer = await run({
          action: ADMIN_ACTION,
          subPath: operation,
          body: operation === "impersonate" ? { userId } : {},
        });
        if ((answer.status ?? 200) !== 200) {
          const error = (answer.body as { error?: unknown } | undefined)?.error;
          res
            .status(answer.status ?? 400)
            .type("text")
            .send(`Refused: ${typeof error === "string" ? error : "the admin action said no"}.`);
          return;
        }
        res.redirect(303, "/");
        return;
      } else {
        send(res, notFound());
        return;
      }
    } catch (error) {
      if (!(error instanceof AdminActionRefused)) throw error;
      res.status(error.status).type("text").send(error.message);
      return;
    }
    res.redirect(303, "/admin");
  });

  // "Sign out this device" / "Sign out everywhere else": the server functions behind the home
  // page's Devices card. Login/logout CSRF: only a form from this origin may ask (SameSite=Lax
  // already keeps cross-site posts from carrying the session cookie).
  app.post("/devices", express.urlencoded({ extended: false }), async (req, res) => {
    const origin = `${req.protocol}://${req.host}`;
    if (req.headers.origin !== origin) {
      res.status(403).type("text").send("Cross-origin form posts are refused.");
      return;
    }
    const id = typeof req.body?.id === "string" ? req.body.id : undefined;
    if (id) await revokeSession(req, authConfig, id);
    else if (req.body?.others === "true") await revokeOtherSessions(req, authConfig);
    res.redirect(303, "/");
  });

  /** What a password sign-in made while signed in did: switched user, or kept the same one. */
  async function passwordSignInNotice(
    req: Request,
    res: Response,
    session: Session | null,
    overview: Awaited<ReturnType<DemoDatabase["overview"]>>,
  ): Promise<Markup | null> {
    const remembered = cookieValue(req, PREVIOUS_USER_COOKIE);
    if (remembered === undefined) return null;
    res.clearCookie(PREVIOUS_USER_COOKIE, { path: "/" });
    const [previousId = "", at = "0"] = remembered.split(" ");
    const last = overview?.recentSignIns[0];
    // Only right after a successful password sign-in (a refused one leaves the cookie behind).
    if (!session?.user || last?.provider !== "password" || last.at.getTime() < Number(at))
      return null;
    if (previousId === session.user.id)
      return html`The password belongs to the user you were already signed in as (${session.user.email ?? ""}): still one user, now also signed in with its password.`;
    const previous = await database.db
      .selectFrom("users")
      .select(["email", "name"])
      .where("id", "=", previousId)
      .executeTakeFirst();
    return html`You were signed in as ${previous?.email ?? previous?.name ?? "another user"}. The password belongs to ${session.user.email ?? "another user"}, so signing in with it switched to that user: a password is not linked to whoever is signed in, it signs in its own user.`;
  }

  function linkedElsewhere(
    session: Session,
    error: "OAuthAccountNotLinked" | "AccountNotLinked",
    csrfToken: string | undefined,
  ): RenderedPage {
    const what = error === "AccountNotLinked" ? "That passkey" : "That account";
    return renderDocument({
      title: "Already linked to another user · Tessera demo",
      styles: demoStyles,
      layout: "narrow",
      status: 409,
      nav: { current: "none", user: sessionNavUser(session, csrfToken) },
      main: html`<div class="card login-card"><header><h1>Already linked to another user</h1><p data-testid="linked-elsewhere">${what} belongs to another user of this demo, so it was not linked to ${session.user?.email ?? "you"}. An identity signs in one user only. To use that user, sign out and sign in with it.</p></header><div class="stack"><a class="button secondary block" href="/">Back to the demo</a>${signOutControl(csrfToken, "button primary block")}</div></div>`,
    });
  }

  app.get("/protected", async (req, res) => {
    const session = await sessionOf(req);
    if (!session) {
      res.redirect(303, `/auth/signin?callbackUrl=${encodeURIComponent("/protected")}`);
      return;
    }
    send(res, renderProtected(session, facts, await csrfTokenFor(req, res)));
  });

  // The signed-in user's access token at the demo IdP, through getAccessToken: refreshed with the
  // stored refresh token once it is about to expire. The refresh token itself never leaves the
  // server, and the answer is never cached (it carries a bearer token).
  app.get("/token", async (req, res) => {
    res.set("Cache-Control", "no-store");
    try {
      const token = await getAccessToken(req, authConfig, IDP_PROVIDER_ID);
      if (!token) {
        const signedIn = (await sessionOf(req)) !== null;
        res.status(signedIn ? 404 : 401).json({
          error: signedIn ? "NoAccount" : "SignedOut",
          message: signedIn
            ? "This user has no account at the demo IdP: sign in with it to link one."
            : "Sign in with the demo IdP first.",
        });
        return;
      }
      res.json({
        provider: IDP_PROVIDER_ID,
        accessToken: token.accessToken,
        tokenType: token.tokenType ?? null,
        scope: token.scope ?? null,
        expiresAt: token.expiresAt ?? null,
        expiresIn:
          token.expiresAt === undefined ? null : token.expiresAt - Math.floor(Date.now() / 1000),
      });
    } catch (error) {
      if (!(error instanceof RefreshTokenError)) throw error;
      res.status(401).json({
        error: "RefreshTokenError",
        message: "The demo IdP refused the refresh token: sign in with it again.",
      });
    }
  });

  app.get("/check-email", async (req, res) => {
    const session = await sessionOf(req);
    // The code form, in the browser that asked for the e-mail (it holds the e-mail-code cookie).
    const provider = typeof req.query.provider === "string" ? req.query.provider : "";
    const waiting = /(?:^|;\s*)(?:__Secure-)?authjs\.email-code=/.test(req.headers.cookie ?? "");
    const csrfToken =
      waiting && /^[\w-]+$/.test(provider) ? await csrfTokenFor(req, res) : undefined;
    send(
      res,
      renderCheckEmail(
        facts,
        await navUserOf(req, res, session),
        csrfToken ? { csrfToken, provider } : undefined,
      ),
    );
  });

  app.get("/dev/mailbox", async (req, res) => {
    const session = await sessionOf(req);
    const origin = `${req.protocol}://${req.host}`;
    const user = await navUserOf(req, res, session);
    const mails = mailbox.list();
    const links = mails.flatMap((mail) => ownLinksIn(mail, origin));
    const usedLinks = await usedSignInLinks(links, authConfig.secret, database);
    send(res, renderMailbox({ mails, origin, user, facts, usedLinks }));
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
