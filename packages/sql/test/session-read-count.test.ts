/**
 * A database session read through the core costs one SQL statement, a SELECT joining the
 * session to its user, as long as the session is not due for an extension; when it is, one
 * UPDATE follows. Statements are counted by a Kysely plugin that sees every query the adapter
 * sends to the real SQLite and PostgreSQL.
 */
import { Auth } from "@tessera/core";
import type { KyselyPlugin, RootOperationNode } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { dropSchema, migrate, SqlAdapter } from "../src/index.js";
import { seedSession, type TestTarget, targets, uniqueTablePrefix } from "./support.js";

const SECRET = "a-test-secret-of-at-least-32-characters!";

/** Records the kind of every statement (SelectQueryNode, UpdateQueryNode, …) in `seen`. */
function statementCounter(seen: string[]): KyselyPlugin {
  return {
    transformQuery({ node }): RootOperationNode {
      seen.push(node.kind);
      return node;
    },
    async transformResult({ result }) {
      return result;
    },
  };
}

const counted = targets.filter((target: TestTarget) =>
  ["sqlite", "postgres"].includes(target.dialect),
);

describe.each(counted)("statements of a session read ($label)", ({ dialect, connect }) => {
  const db = connect();
  const tablePrefix = uniqueTablePrefix();
  afterAll(async () => {
    await dropSchema(db, { dialect, tablePrefix });
    await db.destroy();
  });

  async function readSession(updateAge: number): Promise<{ body: unknown; seen: string[] }> {
    await migrate(db, { dialect, tablePrefix });
    const sessionToken = await seedSession(SqlAdapter(db, { dialect, tablePrefix }));

    const seen: string[] = [];
    const adapter = SqlAdapter(db.withPlugin(statementCounter(seen)) as typeof db, {
      dialect,
      tablePrefix,
    });
    const response = await Auth(
      new Request("http://localhost/auth/session", {
        headers: { cookie: `authjs.session-token=${sessionToken}` },
      }),
      {
        secret: SECRET,
        trustHost: true,
        adapter,
        providers: [],
        session: { strategy: "database", updateAge },
      },
    );
    return { body: await response.json(), seen };
  }

  it("not due for an extension: exactly one SELECT", async () => {
    const { body, seen } = await readSession(24 * 3600);
    expect(body).toMatchObject({ user: { email: expect.stringContaining("@example.com") } });
    expect(seen).toEqual(["SelectQueryNode"]);
  });

  it("due for an extension: the SELECT, then one UPDATE", async () => {
    const { body, seen } = await readSession(0);
    expect(body).toMatchObject({ user: { email: expect.stringContaining("@example.com") } });
    expect(seen).toEqual(["SelectQueryNode", "UpdateQueryNode"]);
  });
});
