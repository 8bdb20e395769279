/**
 * v4's Email provider and a published v4 adapter package, end to end: `EmailProvider({ server,
 * from })` from `@tessera/next-auth/providers/email` delivers its link over real SMTP (a local
 * `smtp-server` capturing the mail), stored by `@next-auth/sequelize-adapter` (the v4 adapter
 * contract, unchanged) on the real PostgreSQL and MariaDB services, with database sessions.
 * next-auth@4.24.15 serves the same app from the same database next to it, so the test also
 * shows a magic link sent by v4 before the switch signing in on Tessera after it, and a database
 * session started on one read by the other.
 *
 * SQLite is not run: Sequelize drives SQLite through the `sqlite3` package, which is not
 * installed in this repository.
 */
import { randomUUID } from "node:crypto";
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { linkIn, startSmtpServer } from "../../core/test/email-helpers.js";
import NextAuth, { getServerSession } from "../src/index.js";
import EmailProvider from "../src/providers/email.js";
import type { NextAuthOptions } from "../src/types.js";
import { type ApiHandler, type Impl, ImplClient, startPagesApi } from "./pages-api.js";

const require = createRequire(import.meta.url);
const v4NextAuth = (require("next-auth") as { default: (...args: unknown[]) => unknown }).default;
const v4Email = (require("next-auth/providers/email") as { default: (options: unknown) => unknown })
  .default;
const SequelizeAdapter = (
  require("@next-auth/sequelize-adapter") as {
    default: (client: unknown, options?: unknown) => NonNullable<NextAuthOptions["adapter"]>;
    models: Record<"User" | "Account" | "Session" | "VerificationToken", Record<string, unknown>>;
  }
).default;
const { models } = require("@next-auth/sequelize-adapter") as {
  models: Record<"User" | "Account" | "Session" | "VerificationToken", Record<string, unknown>>;
};

interface SequelizeModel {
  sync(): Promise<unknown>;
  drop(): Promise<unknown>;
  count(options?: unknown): Promise<number>;
}
interface SequelizeClient {
  define(name: string, attributes: unknown, options: unknown): SequelizeModel;
  authenticate(): Promise<void>;
  close(): Promise<void>;
}
const { Sequelize } = require("sequelize") as {
  Sequelize: new (url: string, options: unknown) => SequelizeClient;
};

const secret = "v4-email-adapter-secret-of-32-chars";
const FROM = "Acme <no-reply@acme.test>";

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let origin = "";
let close: () => Promise<void>;
/** The handlers of the database under test, swapped per database. */
const handlers = {} as Record<Impl, ApiHandler>;
const routes: Record<string, Record<Impl, ApiHandler>> = {};

beforeAll(async () => {
  smtp = await startSmtpServer();
  const server = await startPagesApi(handlers, routes);
  origin = server.origin;
  close = server.close;
  process.env.NEXTAUTH_URL = origin;
});

afterAll(async () => {
  await close?.();
  await smtp?.close();
  delete process.env.NEXTAUTH_URL;
});

/**
 * The v4 adapter on its own tables (a prefix per run: other test runs share these databases),
 * the models being `@next-auth/sequelize-adapter`'s own, renamed only.
 */
function openDatabase(url: string) {
  const sequelize = new Sequelize(url, { logging: false });
  const prefix = `v4_${randomUUID().slice(0, 8)}_`;
  const options = (table: string) => ({
    underscored: true,
    timestamps: false,
    tableName: `${prefix}${table}`,
  });
  const unique = (name: string) => ({ unique: `${prefix}${name}` });
  // Sequelize writes into the attribute objects it is given (a foreign key's target table), so
  // each database gets copies of the adapter's models.
  const copy = (attributes: Record<string, unknown>) =>
    Object.fromEntries(
      Object.entries(attributes).map(([name, value]) => [name, { ...(value as object) }]),
    );
  const User = sequelize.define(
    "user",
    { ...copy(models.User), email: { ...(models.User.email as object), ...unique("email") } },
    options("users"),
  );
  const Account = sequelize.define("account", copy(models.Account), options("accounts"));
  const Session = sequelize.define(
    "session",
    {
      ...copy(models.Session),
      sessionToken: { ...(models.Session.sessionToken as object), ...unique("session_token") },
    },
    options("sessions"),
  );
  const VerificationToken = sequelize.define(
    "verificationToken",
    copy(models.VerificationToken),
    options("verification_tokens"),
  );
  const adapter = SequelizeAdapter(sequelize, {
    models: { User, Account, Session, VerificationToken },
    // Tables are made here, once, not by the adapter at its first call.
    synchronize: false,
  });
  return {
    adapter,
    Session,
    VerificationToken,
    async create() {
      await User.sync();
      await Account.sync();
      await Session.sync();
      await VerificationToken.sync();
    },
    async drop() {
      await VerificationToken.drop();
      await Session.drop();
      await Account.drop();
      await User.drop();
      await sequelize.close();
    },
  };
}

const databases = [
  { label: "PostgreSQL", url: "postgres://postgres@127.0.0.1:5432/test" },
  { label: "MariaDB", url: "mysql://root@127.0.0.1:3306/test" },
];

describe.each(databases)(
  "v4 Email provider and @next-auth/sequelize-adapter on $label",
  ({ url }) => {
    let db: ReturnType<typeof openDatabase>;
    let tesseraOptions: NextAuthOptions;

    beforeAll(async () => {
      db = openDatabase(url);
      await db.create();
      tesseraOptions = {
        secret,
        adapter: db.adapter,
        providers: [EmailProvider({ server: smtp.url, from: FROM })],
      };
      const v4Options = {
        secret,
        adapter: db.adapter,
        providers: [v4Email({ server: smtp.url, from: FROM })],
      };
      handlers.tessera = NextAuth(tesseraOptions) as ApiHandler;
      handlers.v4 = ((req: unknown, res: unknown) => v4NextAuth(req, res, v4Options)) as ApiHandler;
      routes["/api/server-session"] = {
        tessera: async (req, res) =>
          (res as typeof res & { json(body: unknown): void }).json(
            await getServerSession(req as never, res, tesseraOptions),
          ),
        v4: async () => {
          throw new Error("not used");
        },
      };
    }, 60_000);

    afterAll(async () => {
      await db?.drop();
    });

    async function requestLink(client: ImplClient, email: string): Promise<Response> {
      const csrfToken = await client.csrfToken("/api/auth");
      return client.postForm("/api/auth/signin/email", {
        csrfToken,
        email,
        callbackUrl: `${origin}/welcome`,
      });
    }

    it("mails a magic link over SMTP; following it signs in with a database session", async () => {
      const client = new ImplClient(origin, "tessera");
      const started = await requestLink(client, "Ada@Example.test");
      expect(started.status).toBe(302);
      expect(started.headers.get("location")).toBe(
        `${origin}/api/auth/verify-request?provider=email&type=email`,
      );
      const mail = await smtp.nextMail();
      expect(mail.to).toEqual(["ada@example.test"]);
      expect(mail.from).toBe("no-reply@acme.test");
      const link = linkIn(mail.text);
      expect(link.pathname).toBe("/api/auth/callback/email");
      // The v4 adapter stores the token hashed, never as mailed.
      expect(await db.VerificationToken.count({ where: { identifier: "ada@example.test" } })).toBe(
        1,
      );
      expect(
        await db.VerificationToken.count({ where: { token: link.searchParams.get("token") } }),
      ).toBe(0);

      const landed = await client.get(link.pathname + link.search);
      expect(landed.status).toBe(302);
      expect(landed.headers.get("location")).toBe(`${origin}/welcome`);
      const session = (await (await client.get("/api/auth/session")).json()) as {
        user?: { email?: string };
      };
      expect(session.user?.email).toBe("ada@example.test");
      const token = client.jar.get("next-auth.session-token") ?? "";
      expect(await db.Session.count({ where: { sessionToken: token } })).toBe(1);
      // getServerSession(req, res, options) reads the same database session.
      const server = (await (await client.get("/api/server-session")).json()) as {
        user?: { email?: string };
      };
      expect(server.user?.email).toBe("ada@example.test");
      // Single use: the link does not sign in twice.
      const replay = await new ImplClient(origin, "tessera").get(link.pathname + link.search);
      expect(replay.headers.get("location")).toBe(`${origin}/api/auth/error?error=Verification`);
    });

    it("a link next-auth v4 mailed before the switch signs in on Tessera after it", async () => {
      const sender = new ImplClient(origin, "v4");
      expect((await requestLink(sender, "grace@example.test")).status).toBe(302);
      const link = linkIn((await smtp.nextMail()).text);
      const reader = new ImplClient(origin, "tessera");
      const landed = await reader.get(link.pathname + link.search);
      expect(landed.headers.get("location")).toBe(`${origin}/welcome`);
      const session = (await (await reader.get("/api/auth/session")).json()) as {
        user?: { email?: string };
      };
      expect(session.user?.email).toBe("grace@example.test");
    });

    it("a database session started on one is the same session on the other, both ways", async () => {
      for (const [from, to] of [
        ["v4", "tessera"],
        ["tessera", "v4"],
      ] as const) {
        const email = `${from}-first@example.test`;
        const source = new ImplClient(origin, from);
        await requestLink(source, email);
        const link = linkIn((await smtp.nextMail()).text);
        await source.get(link.pathname + link.search);
        const target = new ImplClient(origin, to);
        target.jar.set("next-auth.session-token", source.jar.get("next-auth.session-token") ?? "");
        const session = (await (await target.get("/api/auth/session")).json()) as {
          user?: { email?: string };
        };
        expect(session.user?.email, `${from} → ${to}`).toBe(email);
      }
    });

    it("calls the app's own sendVerificationRequest with v4's parameters instead of mailing", async () => {
      const sent: Record<string, unknown>[] = [];
      const options: NextAuthOptions = {
        secret,
        adapter: db.adapter,
        providers: [
          EmailProvider({
            from: FROM,
            sendVerificationRequest: async (params) => {
              sent.push(params as unknown as Record<string, unknown>);
            },
          }),
        ],
      };
      const previous = handlers.tessera;
      handlers.tessera = NextAuth(options) as ApiHandler;
      try {
        const mailed = smtp.messages.length;
        const client = new ImplClient(origin, "tessera");
        expect((await requestLink(client, "linus@example.test")).status).toBe(302);
        expect(smtp.messages.length).toBe(mailed);
        expect(sent).toHaveLength(1);
        const [params] = sent;
        expect(params).toMatchObject({
          identifier: "linus@example.test",
          token: expect.any(String),
        });
        expect(params?.expires).toBeInstanceOf(Date);
        expect(params?.provider).toMatchObject({ id: "email", from: FROM });
        expect(params?.theme).toBeDefined();
        const link = new URL(String(params?.url));
        const landed = await client.get(link.pathname + link.search);
        expect(landed.headers.get("location")).toBe(`${origin}/welcome`);
      } finally {
        handlers.tessera = previous;
      }
    });
  },
);
