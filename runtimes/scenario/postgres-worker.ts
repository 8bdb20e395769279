/**
 * Database sessions on PostgreSQL from a Cloudflare Worker: pg (from `@tessera/sql/postgres`)
 * connects through workerd's TCP sockets, which `nodejs_compat` and pg-cloudflare provide.
 * workerd does not let one request use a socket another request opened, so each request gets its
 * own one-connection pool, closed once the response is made. `POST /migrate` creates the tables;
 * `POST /adapter` and `POST /store` run one call of the adapter or the store for the conformance
 * suites.
 */
import { createPostgresDb, migrate, SqlAdapter, sqlStore } from "@tessera/sql/postgres";
import { answerCall } from "./adapter-rpc.js";
import { type Env, serveWithDatabase } from "./database-app.js";

interface ExecutionContext {
  waitUntil(promise: Promise<unknown>): void;
}

export default {
  async fetch(
    request: Request,
    env: Env & { DATABASE_URL: string },
    ctx: ExecutionContext,
  ): Promise<Response> {
    const db = createPostgresDb({ connectionString: env.DATABASE_URL, max: 1 });
    const options = { dialect: "postgres", tablePrefix: env.TABLE_PREFIX } as const;
    try {
      const { pathname } = new URL(request.url);
      if (pathname === "/migrate") return Response.json(await migrate(db, options));
      // The conformance suites' calls, run here by the adapter and the store (databases.test.ts).
      if (pathname === "/adapter") return await answerCall(request, SqlAdapter(db, options));
      if (pathname === "/store") return await answerCall(request, sqlStore(db, options));
      return await serveWithDatabase(request, env, SqlAdapter(db, options));
    } finally {
      ctx.waitUntil(db.destroy());
    }
  },
};
