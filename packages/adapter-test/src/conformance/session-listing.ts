import type { AdapterSession } from "@tessera/core/adapters";
import { describe, expect, test } from "vitest";
import { dateWithMilliseconds } from "../fixtures.js";
import { mixedCaseToken, type SuiteContext } from "./context.js";

/**
 * Tessera's extension: `listSessionsByUserId`, `deleteSessionsByUserId`, and the device metadata
 * (`SessionMetadata`) that adapters with them store.
 */
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

    test("createSession stores the device metadata (createdAt, lastSeenAt, ip, userAgent) that listing and reads return", async () => {
      const user = await createdUser();
      const createdAt = dateWithMilliseconds(-5_000);
      const metadata = {
        createdAt,
        lastSeenAt: createdAt,
        ip: "2001:db8::7",
        userAgent: "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) Safari/605.1.15 ü",
      };
      const session = await adapter().createSession({
        sessionToken: mixedCaseToken(),
        userId: user.id,
        expires: dateWithMilliseconds(86_400_000),
        ...metadata,
      });
      expect(session).toMatchObject(metadata);
      expect(await adapter().listSessionsByUserId(user.id)).toMatchObject([metadata]);
      const read = await adapter().getSessionAndUser(session.sessionToken);
      expect(read?.session).toMatchObject(metadata);
      expect(read?.session.createdAt).toBeInstanceOf(Date);
    });

    test("updateSession moves lastSeenAt and keeps the rest of the metadata", async () => {
      const user = await createdUser();
      const createdAt = dateWithMilliseconds(-60_000);
      const session = await adapter().createSession({
        sessionToken: mixedCaseToken(),
        userId: user.id,
        expires: dateWithMilliseconds(86_400_000),
        createdAt,
        lastSeenAt: createdAt,
        ip: "192.0.2.1",
        userAgent: "curl/8.5.0",
      });
      const lastSeenAt = dateWithMilliseconds(0);
      const expires = dateWithMilliseconds(2 * 86_400_000);
      await adapter().updateSession({ sessionToken: session.sessionToken, expires, lastSeenAt });
      expect(await adapter().listSessionsByUserId(user.id)).toMatchObject([
        {
          sessionToken: session.sessionToken,
          expires,
          createdAt,
          lastSeenAt,
          ip: "192.0.2.1",
          userAgent: "curl/8.5.0",
        },
      ]);
    });

    test("a session created without metadata lists without it (no invented dates)", async () => {
      const user = await createdUser();
      await createdSession(user.id);
      const [listed] = await adapter().listSessionsByUserId(user.id);
      expect(listed?.createdAt ?? null).toBeNull();
      expect(listed?.lastSeenAt ?? null).toBeNull();
      expect(listed?.ip ?? null).toBeNull();
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
