/**
 * The passkey-management extension of the SQL adapter (`listPasskeysByUserId`, `updatePasskey`,
 * `deletePasskey`) over the `passkey_details` table of migration 0004, beside Auth.js's
 * `authenticators` (which it never alters).
 */
import type { Adapter, AdapterAuthenticator, AdapterPasskey } from "@tessera/core/adapters";
import type { Kysely, Transaction, Updateable } from "kysely";
import { type DialectTraits, readDate } from "./dialect.js";
import type { AuthenticatorRow, PasskeyDetailsRow, TableNames, TesseraTables } from "./schema.js";

/** What the passkey methods need of the adapter. */
export interface PasskeyMethodDeps {
  db: Kysely<TesseraTables>;
  table: TableNames["table"];
  traits: DialectTraits;
  authenticatorFromRow(row: AuthenticatorRow): AdapterAuthenticator;
}

type PasskeyMethods = Required<
  Pick<Adapter, "listPasskeysByUserId" | "updatePasskey" | "deletePasskey">
>;

function passkeyFrom(
  authenticator: AdapterAuthenticator,
  details: Pick<PasskeyDetailsRow, "name" | "createdAt" | "lastUsedAt" | "userHandle"> | undefined,
): AdapterPasskey {
  return {
    ...authenticator,
    name: details?.name ?? null,
    createdAt: details?.createdAt != null ? readDate(details.createdAt) : null,
    lastUsedAt: details?.lastUsedAt != null ? readDate(details.lastUsedAt) : null,
    userHandle: details?.userHandle ?? null,
  };
}

/**
 * The three methods, and the statement that deletes a user's details (for `deleteUser`, which
 * cannot count on SQLite enforcing the cascade).
 *
 * @example
 * ```ts
 * const { methods } = sqlPasskeyMethods({ db, table, traits, authenticatorFromRow })
 * ```
 */
export function sqlPasskeyMethods({ db, table, traits, authenticatorFromRow }: PasskeyMethodDeps): {
  methods: PasskeyMethods;
  deleteDetailsOf(
    executor: Kysely<TesseraTables> | Transaction<TesseraTables>,
    userId: string,
  ): ReturnType<Kysely<TesseraTables>["deleteFrom"]>;
} {
  const dateOrNull = (value: Date | null) => (value ? traits.date(value) : null);

  // IDOR: every lookup names the owner with the credential, so an id alone reaches nothing.
  async function owned(userId: string, credentialID: string) {
    const row = await db
      .selectFrom(table("authenticators"))
      .selectAll()
      .where("credentialID", "=", credentialID)
      .where("userId", "=", userId)
      .executeTakeFirst();
    return row ? authenticatorFromRow(row) : undefined;
  }

  async function detailsOf(credentialID: string) {
    return db
      .selectFrom(table("passkey_details"))
      .selectAll()
      .where("credentialID", "=", credentialID)
      .executeTakeFirst();
  }

  function deleteDetailsOf(
    executor: Kysely<TesseraTables> | Transaction<TesseraTables>,
    userId: string,
  ) {
    return executor
      .deleteFrom(table("passkey_details"))
      .where("credentialID", "in", (eb) =>
        eb.selectFrom(table("authenticators")).select("credentialID").where("userId", "=", userId),
      );
  }

  const methods: PasskeyMethods = {
    async listPasskeysByUserId(userId) {
      const rows = await db
        .selectFrom(table("authenticators"))
        .selectAll()
        .where("userId", "=", userId)
        .execute();
      if (rows.length === 0) return [];
      const details = await db
        .selectFrom(table("passkey_details"))
        .selectAll()
        .where(
          "credentialID",
          "in",
          rows.map((row) => row.credentialID),
        )
        .execute();
      const byId = new Map(details.map((row) => [row.credentialID, row]));
      return rows.map((row) => passkeyFrom(authenticatorFromRow(row), byId.get(row.credentialID)));
    },

    async updatePasskey({ userId, credentialID, ...patch }) {
      const authenticator = await owned(userId, credentialID);
      if (!authenticator) return null;
      const changes: Updateable<PasskeyDetailsRow> = {};
      if (patch.name !== undefined) changes.name = patch.name;
      if (patch.createdAt !== undefined) changes.createdAt = dateOrNull(patch.createdAt);
      if (patch.lastUsedAt !== undefined) changes.lastUsedAt = dateOrNull(patch.lastUsedAt);
      if (patch.userHandle !== undefined) changes.userHandle = patch.userHandle;
      if (Object.keys(changes).length > 0) {
        const updated = await db
          .updateTable(table("passkey_details"))
          .set(changes)
          .where("credentialID", "=", credentialID)
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) === 0) {
          const row: PasskeyDetailsRow = {
            credentialID,
            name: null,
            createdAt: null,
            lastUsedAt: null,
            userHandle: null,
            ...(changes as Partial<PasskeyDetailsRow>),
          };
          try {
            await db.insertInto(table("passkey_details")).values(row).execute();
          } catch (error) {
            // Another call inserted the row first: apply the changes to it instead.
            const again = await db
              .updateTable(table("passkey_details"))
              .set(changes)
              .where("credentialID", "=", credentialID)
              .executeTakeFirst();
            if (Number(again.numUpdatedRows) === 0) throw error;
          }
        }
      }
      return passkeyFrom(authenticator, await detailsOf(credentialID));
    },

    async deletePasskey({ userId, credentialID }) {
      const authenticator = await owned(userId, credentialID);
      if (!authenticator) return null;
      const details = await detailsOf(credentialID);
      // Two statements, no transaction (D1 has none): details first, so a failure half-way
      // leaves a passkey without a name rather than a name without a passkey.
      await db
        .deleteFrom(table("passkey_details"))
        .where("credentialID", "=", credentialID)
        .execute();
      const deleted = await db
        .deleteFrom(table("authenticators"))
        .where("credentialID", "=", credentialID)
        .where("userId", "=", userId)
        .executeTakeFirst();
      if (Number(deleted.numDeletedRows) === 0) return null;
      return passkeyFrom(authenticator, details);
    },
  };
  return { methods, deleteDetailsOf };
}
