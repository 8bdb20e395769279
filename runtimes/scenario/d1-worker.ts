/**
 * Database sessions on Cloudflare D1, inside workerd without `nodejs_compat`: the adapter, its
 * migrations and its Kysely dialect come from `@tessera/sql/d1`, which reaches no `node:` module.
 * `POST /migrate` creates the tables from inside the Worker.
 */
import { createD1Db, type D1DatabaseHandle, migrate, SqlAdapter } from "@tessera/sql/d1";
import { type Env, serveWithDatabase } from "./database-app.js";

export default {
  async fetch(request: Request, env: Env & { DB: D1DatabaseHandle }): Promise<Response> {
    const db = createD1Db(env.DB);
    const options = { dialect: "sqlite", tablePrefix: env.TABLE_PREFIX } as const;
    if (new URL(request.url).pathname === "/migrate")
      return Response.json(await migrate(db, options));
    return serveWithDatabase(request, env, SqlAdapter(db, options));
  },
};
