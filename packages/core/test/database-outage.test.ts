/**
 * The database goes away mid-run and comes back. PostgreSQL and MariaDB are reached through a TCP
 * relay on 127.0.0.1 that the test cuts (every open connection destroyed, new ones refused) and
 * restores, so the outage is a real network failure seen by the real driver.
 */
import { connect, createServer, type Server, type Socket } from "node:net";
import type { AuthConfig } from "@tessera/core";
import Credentials from "@tessera/core/providers/credentials";
import { createMysqlDb, createPostgresDb, dropSchema, migrate, SqlAdapter } from "@tessera/sql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, recordingLogger, SECRET } from "./helpers.js";

class Relay {
  constructor(readonly upstreamPort: number) {}
  #server: Server | undefined;
  readonly #sockets = new Set<Socket>();
  port = 0;

  async start(port = 0): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.upstreamPort, "127.0.0.1");
      for (const socket of [client, upstream]) {
        this.#sockets.add(socket);
        socket.on("close", () => this.#sockets.delete(socket));
        socket.on("error", () => socket.destroy());
      }
      client.pipe(upstream).pipe(client);
      client.on("close", () => upstream.destroy());
      upstream.on("close", () => client.destroy());
    });
    await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
    this.port = (server.address() as { port: number }).port;
    this.#server = server;
  }

  /** The database "goes away": open connections die, new ones are refused. */
  async cut(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => this.#server?.close(() => resolve()));
  }
}

const databases = [
  {
    name: "PostgreSQL",
    dialect: "postgres" as const,
    port: 5432,
    open: (port: number) =>
      createPostgresDb({ connectionString: `postgres://postgres@127.0.0.1:${port}/test`, max: 2 }),
  },
  {
    name: "MariaDB",
    dialect: "mariadb" as const,
    port: 3306,
    open: (port: number) =>
      createMysqlDb({ uri: `mysql://root@127.0.0.1:${port}/test`, connectionLimit: 2 }),
  },
];

describe.each(databases)(
  "the database ($name) goes away and comes back",
  ({ dialect, port, open }) => {
    const relay = new Relay(port);
    const prefix = `t_outage_${Math.random().toString(36).slice(2, 8)}_`;
    const admin = open(port);
    let db: ReturnType<typeof open>;
    const log = recordingLogger();
    let config: AuthConfig;

    beforeAll(async () => {
      await migrate(admin, { dialect, tablePrefix: prefix });
      await relay.start();
      db = open(relay.port);
      config = {
        secret: SECRET,
        trustHost: true,
        logger: log.logger,
        adapter: SqlAdapter(db, { dialect, tablePrefix: prefix }),
        providers: [
          Credentials({
            authorize: (c) =>
              c.password === "pw"
                ? { id: "u-outage", name: "Ada", email: "outage@example.com" }
                : null,
          }),
        ],
      };
    });

    afterAll(async () => {
      await db?.destroy().catch(() => {});
      await dropSchema(admin, { dialect, tablePrefix: prefix });
      await admin.destroy();
    });

    async function signIn(client: Client) {
      const csrfToken = await client.csrfToken();
      return client.post("/auth/callback/credentials", { csrfToken, password: "pw" });
    }

    it("answers with the documented errors during the outage and recovers afterwards", async () => {
      const client = new Client(config);
      expect((await signIn(client)).status).toBe(302);
      expect(await client.session()).toMatchObject({ user: { email: "outage@example.com" } });
      const sessionCookie = client.jar.get("authjs.session-token");

      await relay.cut();

      // Session read: 200 null, the error logged, the cookie kept (nobody is signed out).
      const read = await client.get("/auth/session");
      expect(read.status).toBe(200);
      expect(await read.json()).toBeNull();
      expect(read.headers.getSetCookie()).toEqual([]);
      expect(log.errors.some((e) => e.name === "SessionTokenError")).toBe(true);

      // Sign-in: a redirect to the error page, not an exception.
      const other = new Client(config);
      const failed = await signIn(other);
      expect(failed.status).toBe(302);
      expect(new URL(failed.headers.get("location") ?? "").pathname).toBe("/auth/error");
      expect(new URL(failed.headers.get("location") ?? "").searchParams.get("error")).toBe(
        "Configuration",
      );

      // Sign-out: the session row could not be deleted, so the user is told (error page with
      // SignOutError), and this browser's cookie is cleared all the same.
      const leaving = new Client(config);
      leaving.jar.set("authjs.session-token", sessionCookie ?? "");
      const signOut = await leaving.post("/auth/signout", { csrfToken: await leaving.csrfToken() });
      const signOutTarget = new URL(signOut.headers.get("location") ?? "");
      expect(signOutTarget.pathname).toBe("/auth/error");
      expect(signOutTarget.searchParams.get("error")).toBe("SignOutError");
      expect(leaving.jar.has("authjs.session-token")).toBe(false);

      await relay.start(relay.port);

      // Service recovers: the same cookie reads the same session again; sign-in works again.
      expect(client.jar.get("authjs.session-token")).toBe(sessionCookie);
      let session: unknown = null;
      for (let attempt = 0; attempt < 5 && session === null; attempt++)
        session = await client.session();
      expect(session).toMatchObject({ user: { email: "outage@example.com" } });
      expect((await signIn(other)).headers.get("location")).not.toContain("error=");
    });
  },
);
