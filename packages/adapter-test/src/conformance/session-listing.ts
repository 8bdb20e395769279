import type { AdapterSession } from "@tessera/core/adapters";
import { describe, expect, test } from "vitest";
import { dateWithMilliseconds } from "../fixtures.js";
import type { SuiteContext } from "./context.js";

/** Tessera's extension: `listSessionsByUserId`, `deleteSessionsByUserId`. */
export function sessionListingTests(context: SuiteContext): void {
  const { adapter, db, createdUser, createdSession, absentUserId } = context;
  const byToken = (a: AdapterSession, b: AdapterSession) =>
    a.sessionToken.localeCompare(b.sessionToken);

  describe("session listing (Tessera extension)", () => {
    test("listSessionsByUserId returns every live session of the user and none of others", async () => {
      const user = await createdUser();
      const other = await createdUser();
      const sessions = [await createdSession(user.id), await createdSession(user.id)];
      await createdSession(other.id);
      const listed = await adapter().listSessionsByUserId(user.id);
      expect([...listed].sort(byToken)).toMatchObject([...sessions].sort(byToken));
      for (const session of listed) expect(session.expires).toBeInstanceOf(Date);
    });

    test("listSessionsByUserId leaves out sessions that have expired", async () => {
      const user = await createdUser();
      const live = await createdSession(user.id);
      await createdSession(user.id, dateWithMilliseconds(-60_000));
      expect(await adapter().listSessionsByUserId(user.id)).toMatchObject([live]);
    });

    test("listSessionsByUserId returns an empty array for an unknown user", async () => {
      expect(await adapter().listSessionsByUserId(await absentUserId())).toEqual([]);
    });

    test("deleteSessionsByUserId removes every session of the user and keeps other users' sessions", async () => {
      const user = await createdUser();
      const other = await createdUser();
      const sessions = [await createdSession(user.id), await createdSession(user.id)];
      const kept = await createdSession(other.id);

      await adapter().deleteSessionsByUserId(user.id);

      for (const session of sessions) {
        expect(await db.session(session.sessionToken)).toBeNull();
        expect(await adapter().getSessionAndUser(session.sessionToken)).toBeNull();
      }
      expect(await adapter().listSessionsByUserId(user.id)).toEqual([]);
      expect(await adapter().getSessionAndUser(kept.sessionToken)).toMatchObject({
        session: kept,
        user: other,
      });
      expect(await adapter().getUser(user.id)).toMatchObject(user);
    });
  });
}
