import { describe, expect, test } from "vitest";
import { dateWithMilliseconds } from "../fixtures.js";
import { mixedCaseToken, type SuiteContext } from "./context.js";

/** `createSession`, `getSessionAndUser`, `updateSession`, `deleteSession`. */
export function sessionTests(context: SuiteContext): void {
  const { adapter, db, createdUser, createdSession } = context;

  describe("sessions", () => {
    test("createSession stores the session and returns it with the exact expiry", async () => {
      const user = await createdUser();
      const session = {
        sessionToken: mixedCaseToken(),
        userId: user.id,
        expires: dateWithMilliseconds(86_400_000),
      };
      const created = await adapter().createSession(session);
      expect(created).toMatchObject(session);
      const stored = await db.session(session.sessionToken);
      expect(stored).toMatchObject(session);
      expect(stored?.expires.getTime()).toBe(session.expires.getTime());
    });

    test("getSessionAndUser returns the session together with its user", async () => {
      const user = await createdUser();
      const session = await createdSession(user.id);
      const found = await adapter().getSessionAndUser(session.sessionToken);
      expect(found).toMatchObject({ session, user });
      expect(found?.session.expires).toBeInstanceOf(Date);
      expect(found?.session.expires.getTime()).toBe(session.expires.getTime());
      expect(found?.user.emailVerified?.getTime()).toBe(user.emailVerified?.getTime());
    });

    test("getSessionAndUser returns null for an unknown session token", async () => {
      expect(await adapter().getSessionAndUser(mixedCaseToken())).toBeNull();
    });

    test("getSessionAndUser matches the session token exactly, including letter case", async () => {
      const user = await createdUser();
      const session = await createdSession(user.id);
      expect(await adapter().getSessionAndUser(session.sessionToken.toLowerCase())).toBeNull();
      expect(await adapter().getSessionAndUser(session.sessionToken.toUpperCase())).toBeNull();
    });

    test("updateSession moves the expiry, and what it returns is the updated session", async () => {
      const user = await createdUser();
      const session = await createdSession(user.id);
      const expires = dateWithMilliseconds(2 * 86_400_000);
      const updated = await adapter().updateSession({
        sessionToken: session.sessionToken,
        expires,
      });
      // The contract lets updateSession return nothing; when it returns a session it must be
      // the updated one.
      if (updated) expect(updated).toMatchObject({ ...session, expires });
      expect((await db.session(session.sessionToken))?.expires.getTime()).toBe(expires.getTime());
      const found = await adapter().getSessionAndUser(session.sessionToken);
      expect(found?.session.expires.getTime()).toBe(expires.getTime());
    });

    test("updateSession of an unknown session token returns null or undefined", async () => {
      const updated = await adapter().updateSession({
        sessionToken: mixedCaseToken(),
        expires: dateWithMilliseconds(86_400_000),
      });
      expect(updated ?? null).toBeNull();
    });

    test("deleteSession removes the session and keeps the user's other sessions", async () => {
      const user = await createdUser();
      const deleted = await createdSession(user.id);
      const kept = await createdSession(user.id);

      const result = await adapter().deleteSession(deleted.sessionToken);

      // Returning the deleted session is optional (it helps logging), but it must be right.
      if (result) expect(result).toMatchObject(deleted);
      expect(await db.session(deleted.sessionToken)).toBeNull();
      expect(await adapter().getSessionAndUser(deleted.sessionToken)).toBeNull();
      expect(await adapter().getSessionAndUser(kept.sessionToken)).toMatchObject({
        session: kept,
        user,
      });
    });

    test("deleteSession of an unknown token resolves without error", async () => {
      const result = await adapter().deleteSession(mixedCaseToken());
      expect(result ?? null).toBeNull();
    });
  });
}
