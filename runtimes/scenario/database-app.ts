/**
 * The app of the database-session scenario on Workers (runtimes/databases.test.ts): credentials
 * sign-in with the `database` strategy, so that sign-in writes a session row and every session
 * read looks it up through the adapter, from inside workerd. Bundled once per database (D1,
 * PostgreSQL), each with its own entry point of @tessera/sql.
 */
import { Auth, type AuthConfig, setEnvDefaults } from "@tessera/core";
import type { Adapter } from "@tessera/core/adapters";
import Credentials from "@tessera/core/providers/credentials";

export type Env = Record<string, unknown> & {
  SCENARIO_PASSWORD?: string;
  TABLE_PREFIX?: string;
};

/** Answers `request` with Tessera on `adapter`, configured from the Worker's `env`. */
export function serveWithDatabase(request: Request, env: Env, adapter: Adapter): Promise<Response> {
  const config: AuthConfig = {
    adapter,
    session: { strategy: "database" },
    providers: [
      Credentials({
        credentials: { username: {}, password: {} },
        authorize: (input) =>
          input.username === "ada" && input.password === env.SCENARIO_PASSWORD
            ? { id: "ada", name: "Ada Lovelace", email: "ada@example.com" }
            : null,
      }),
    ],
  };
  setEnvDefaults(env as Record<string, string | undefined>, config);
  return Auth(request, config);
}
