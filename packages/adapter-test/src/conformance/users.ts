import { randomUUID } from "node:crypto";
import type { AdapterUser } from "@tessera/core/adapters";
import { describe, expect, test } from "vitest";
import { accountFixture, dateWithMilliseconds, userFixture } from "../fixtures.js";
import { type SuiteContext, settled } from "./context.js";

/**
 * `createUser`, `getUser`, `getUserByEmail`, `updateUser`, `deleteUser`. The adapter may assign
 * its own user ids (of any format): the tests use the id `createUser` returns.
 */
export function userTests(context: SuiteContext): void {
  const { adapter, db, createdUser, createdSession, absentUserId, features } = context;

  describe("users", () => {
    test("createUser stores the user and returns it with the id it is stored under", async () => {
      const user = userFixture();
      const { id: _coreId, ...fields } = user;
      const created = await adapter().createUser(user);
      expect(created).toMatchObject(fields);
      expect(created.id ?? "").not.toBe("");
      expect(await db.user(created.id)).toMatchObject({ ...fields, id: created.id });
      expect(await adapter().getUser(created.id)).toMatchObject({ ...fields, id: created.id });
    });

    test("createUser assigns distinct ids when the core passes none", async () => {
      const { id: _first, ...first } = userFixture();
      const { id: _second, ...second } = userFixture();
      // The contract types `id` as required, but the core may leave it to the adapter.
      const createdFirst = await adapter().createUser(first as AdapterUser);
      const createdSecond = await adapter().createUser(second as AdapterUser);
      expect(createdFirst.id ?? "").not.toBe("");
      expect(createdSecond.id ?? "").not.toBe("");
      expect(createdFirst.id).not.toBe(createdSecond.id);
      expect(createdFirst).toMatchObject(first);
      expect(await db.user(createdFirst.id)).toMatchObject(first);
    });

    test("createUser round-trips emailVerified to the exact millisecond", async () => {
      const emailVerified = new Date("2024-02-29T23:59:58.987Z");
      const created = await createdUser({ emailVerified });
      const stored = await adapter().getUser(created.id);
      expect(stored?.emailVerified).toBeInstanceOf(Date);
      expect(stored?.emailVerified?.getTime()).toBe(emailVerified.getTime());
      expect((await db.user(created.id))?.emailVerified?.getTime()).toBe(emailVerified.getTime());
    });

    test("createUser stores a user whose emailVerified is null", async () => {
      const created = await createdUser({ emailVerified: null });
      expect(created.emailVerified).toBeNull();
      expect((await adapter().getUser(created.id))?.emailVerified).toBeNull();
    });

    test("createUser keeps non-ASCII names intact", async () => {
      const name = "Zoë Ñúñez-Łukasiewicz 李小龍 🚀";
      const created = await createdUser({ name });
      expect((await adapter().getUser(created.id))?.name).toBe(name);
    });

    test("createUser stores a user that has neither name nor image", async () => {
      const email = `minimal.${randomUUID()}@example.com`;
      const created = await adapter().createUser({ id: randomUUID(), email, emailVerified: null });
      const stored = await adapter().getUser(created.id);
      expect(stored).toMatchObject({ id: created.id, email });
      expect(stored?.name ?? null).toBeNull();
      expect(stored?.image ?? null).toBeNull();
    });

    if (features.uniqueEmail) {
      test("createUser rejects a second user with an e-mail that is already taken", async () => {
        const first = await createdUser();
        await expect(
          settled(() => adapter().createUser(userFixture({ email: first.email }))),
        ).rejects.toThrow();
        expect(await adapter().getUserByEmail(first.email)).toMatchObject(first);
      });
    } else {
      test("createUser accepts a second user with a taken e-mail, as declared by uniqueEmail: false", async () => {
        const first = await createdUser();
        const second = await adapter().createUser(userFixture({ email: first.email }));
        expect(second.email).toBe(first.email);
      });
    }

    test("parallel createUser calls of one new user (a first sign-in sent twice) store it once, whole, and reject the others", async () => {
      const user = userFixture();
      const results = await Promise.allSettled(
        Array.from(
          { length: 8 },
          () => settled(() => adapter().createUser({ ...user })) as Promise<AdapterUser>,
        ),
      );
      const created = results.filter((result) => result.status === "fulfilled");
      // An adapter that assigns its own ids may store each call as a user of its own; the e-mail
      // constraint then still lets only one through.
      if (features.uniqueEmail) expect(created).toHaveLength(1);
      else expect(created.length).toBeGreaterThanOrEqual(1);
      const [first] = created;
      if (first?.status !== "fulfilled") throw new Error("no createUser call succeeded");
      // The losers' failures leave the winner's user and its e-mail lookup intact.
      expect(await adapter().getUser(first.value.id)).toMatchObject({ email: user.email });
      expect(await adapter().getUserByEmail(user.email)).toMatchObject({ email: user.email });
    });

    test("getUser returns the stored user", async () => {
      const created = await createdUser();
      expect(await adapter().getUser(created.id)).toMatchObject(created);
    });

    test("getUser returns null for an unknown id", async () => {
      expect(await adapter().getUser(await absentUserId())).toBeNull();
    });

    test("getUserByEmail returns the user with that e-mail", async () => {
      const created = await createdUser();
      expect(await adapter().getUserByEmail(created.email)).toMatchObject(created);
    });

    test("getUserByEmail returns null for an unknown e-mail", async () => {
      expect(await adapter().getUserByEmail(`nobody.${randomUUID()}@example.com`)).toBeNull();
    });

    test("updateUser changes the given fields, keeps the others and returns the whole user", async () => {
      const created = await createdUser();
      const updated = await adapter().updateUser({ id: created.id, name: "Ada King" });
      const expected = { ...created, name: "Ada King" };
      expect(updated).toMatchObject(expected);
      expect(await db.user(created.id)).toMatchObject(expected);
    });

    test("updateUser sets emailVerified and it round-trips to the exact millisecond", async () => {
      const created = await createdUser({ emailVerified: null });
      const emailVerified = dateWithMilliseconds(0);
      const updated = await adapter().updateUser({ id: created.id, emailVerified });
      expect(updated.emailVerified?.getTime()).toBe(emailVerified.getTime());
      const stored = await adapter().getUser(created.id);
      expect(stored?.emailVerified).toBeInstanceOf(Date);
      expect(stored?.emailVerified?.getTime()).toBe(emailVerified.getTime());
    });

    test("updateUser clears a nullable field that is set to null", async () => {
      const created = await createdUser();
      const updated = await adapter().updateUser({ id: created.id, image: null });
      expect(updated.image ?? null).toBeNull();
      expect((await adapter().getUser(created.id))?.image ?? null).toBeNull();
    });

    test("updateUser with a new e-mail moves the e-mail lookup to the new address", async () => {
      const created = await createdUser();
      const email = `moved.${randomUUID()}@example.com`;
      await adapter().updateUser({ id: created.id, email });
      expect(await adapter().getUserByEmail(email)).toMatchObject({ ...created, email });
      expect(await adapter().getUserByEmail(created.email)).toBeNull();
    });

    test("deleteUser removes the user and cascades to its sessions and accounts", async () => {
      const user = await createdUser();
      const account = accountFixture(user.id);
      await adapter().linkAccount(account);
      const session = await createdSession(user.id);

      await adapter().deleteUser(user.id);

      expect(await db.user(user.id)).toBeNull();
      expect(await db.session(session.sessionToken)).toBeNull();
      expect(await db.account(account)).toBeNull();
      expect(await adapter().getUser(user.id)).toBeNull();
      expect(await adapter().getUserByEmail(user.email)).toBeNull();
      expect(await adapter().getUserByAccount(account)).toBeNull();
      expect(await adapter().getSessionAndUser(session.sessionToken)).toBeNull();
    });

    test("deleteUser leaves other users and their data untouched", async () => {
      const doomed = await createdUser();
      const survivor = await createdUser();
      const account = accountFixture(survivor.id);
      await adapter().linkAccount(account);
      const session = await createdSession(survivor.id);

      await adapter().deleteUser(doomed.id);

      expect(await adapter().getUser(survivor.id)).toMatchObject(survivor);
      expect(await adapter().getUserByAccount(account)).toMatchObject(survivor);
      expect(await adapter().getSessionAndUser(session.sessionToken)).toMatchObject({
        session,
        user: survivor,
      });
    });

    test("deleteUser of a user that no longer exists resolves without error", async () => {
      const id = await absentUserId();
      await expect(settled(() => adapter().deleteUser(id))).resolves.not.toThrow();
    });
  });
}
