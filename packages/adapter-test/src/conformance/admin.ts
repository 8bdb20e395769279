import type { AdminAdapter } from "@tessera/core/admin";
import { describe, expect, test } from "vitest";
import { dateWithMilliseconds } from "../fixtures.js";
import type { SuiteContext } from "./context.js";

/**
 * Tessera's admin methods (`@tessera/core/admin`'s `AdminAdapter`): a user's global role and
 * ban, and a paginated user listing searched by e-mail or name. The store is shared with the
 * other groups, so each listing test searches for a marker only its own users carry.
 */
export function adminTests(context: SuiteContext): void {
  const { createdUser } = context;
  const adapter = () => context.adapter() as unknown as AdminAdapter;
  /** A marker of lower-case letters and digits no other user's e-mail or name contains. */
  const marker = () => `m${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;

  describe("admin (Tessera extension)", () => {
    test("getAdminUser: a new user has no role and no ban; an absent user is null", async () => {
      const user = await createdUser();
      expect(await adapter().getAdminUser(user.id)).toMatchObject({
        id: user.id,
        email: user.email,
        role: null,
        ban: null,
      });
      expect(await adapter().getAdminUser(await context.absentUserId())).toBeNull();
    });

    test("setUserRole sets and clears the role; an absent user answers false", async () => {
      const user = await createdUser();
      expect(await adapter().setUserRole(user.id, "admin")).toBe(true);
      expect((await adapter().getAdminUser(user.id))?.role).toBe("admin");
      expect(await adapter().setUserRole(user.id, null)).toBe(true);
      expect((await adapter().getAdminUser(user.id))?.role).toBeNull();
      expect(await adapter().setUserRole(await context.absentUserId(), "admin")).toBe(false);
    });

    test("setUserBan keeps reason and expiry (milliseconds included), lifts the ban, and a ban without either", async () => {
      const user = await createdUser();
      const expires = dateWithMilliseconds(86_400_000);
      expect(await adapter().setUserBan(user.id, { reason: "spam", expires })).toBe(true);
      expect((await adapter().getAdminUser(user.id))?.ban).toEqual({ reason: "spam", expires });
      expect(await adapter().setUserBan(user.id, { reason: null, expires: null })).toBe(true);
      expect((await adapter().getAdminUser(user.id))?.ban).toEqual({ reason: null, expires: null });
      expect(await adapter().setUserBan(user.id, null)).toBe(true);
      expect((await adapter().getAdminUser(user.id))?.ban).toBeNull();
      expect(await adapter().setUserBan(await context.absentUserId(), null)).toBe(false);
    });

    test("role and ban leave the user's own fields alone, and go with the user", async () => {
      const user = await createdUser();
      await adapter().setUserRole(user.id, "admin");
      await adapter().setUserBan(user.id, { reason: "x", expires: null });
      const plain = await context.adapter().getUser(user.id);
      expect(plain).toMatchObject({ id: user.id, email: user.email, name: user.name });
      expect(plain).not.toHaveProperty("ban");
      await context.adapter().deleteUser(user.id);
      expect(await adapter().getAdminUser(user.id)).toBeNull();
    });

    test("listUsers finds a substring of e-mail or name (any case), ordered by e-mail, a page at a time", async () => {
      const tag = marker();
      const created = [];
      for (const letter of ["c", "a", "d", "b"])
        created.push(await createdUser({ email: `${letter}-${tag}@example.com`, name: "Someone" }));
      const byName = await createdUser({
        email: `z-${crypto.randomUUID()}@example.com`,
        name: `Zed ${tag.toUpperCase()}`,
      });
      await adapter().setUserRole(created[1]?.id ?? "", "admin");
      const first = await adapter().listUsers({ search: tag.toUpperCase(), limit: 2, offset: 0 });
      expect(first.total).toBe(5);
      expect(first.users.map((user) => user.email)).toEqual([
        `a-${tag}@example.com`,
        `b-${tag}@example.com`,
      ]);
      expect(first.users[0]).toMatchObject({ role: "admin", ban: null });
      const rest = await adapter().listUsers({ search: tag, limit: 10, offset: 2 });
      expect(rest.total).toBe(5);
      expect(rest.users.map((user) => user.email)).toEqual([
        `c-${tag}@example.com`,
        `d-${tag}@example.com`,
        byName.email,
      ]);
      const beyond = await adapter().listUsers({ search: tag, limit: 10, offset: 10 });
      expect(beyond).toEqual({ users: [], total: 5 });
      const all = await adapter().listUsers({ limit: 1, offset: 0 });
      expect(all.total).toBeGreaterThanOrEqual(5);
      expect(all.users).toHaveLength(1);
    });

    test("listUsers matches % and _ in a search literally (no pattern injection)", async () => {
      const tag = marker();
      const literal = await createdUser({ email: `pct%_${tag}@example.com`, name: "Percent" });
      await createdUser({ email: `pctxy${tag}@example.com`, name: "Other" });
      const found = await adapter().listUsers({ search: `%_${tag}`, limit: 10, offset: 0 });
      expect(found.users.map((user) => user.id)).toEqual([literal.id]);
      expect(found.total).toBe(1);
    });
  });
}
