/**
 * Organisations, admin, two-factor and the password extension with its provider in one config,
 * as a B2B app combines them: the extensions are opaque handles and the admin functions take no
 * type parameters, so combining them adds no inference (no TS2589), and one adapter type carries
 * every extension's storage.
 */
import { type AuthConfig, actionRunner } from "@tessera/core";
import {
  type AdminAdapter,
  type AdminEvent,
  admin,
  adminApi,
  impersonatorOf,
} from "@tessera/core/admin";
import { adminClient } from "@tessera/core/admin/client";
import { AdminActionRefused } from "@tessera/core/errors";
import {
  type OrganizationAdapter,
  organizations,
  organizationsApi,
} from "@tessera/core/organizations";
import { Password, type PasswordAdapter, password } from "@tessera/core/password";
import { type TwoFactorAdapter, twoFactor } from "@tessera/core/two-factor";
import { MemoryAdapter } from "@tessera/memory";

const statements = {
  organization: ["update", "delete"],
  member: ["create", "update", "delete"],
  invitation: ["create", "cancel"],
  team: ["create", "update", "delete"],
  project: ["create", "update", "delete"],
} as const;

const adapter = MemoryAdapter();
const storage: OrganizationAdapter & TwoFactorAdapter & PasswordAdapter & AdminAdapter = adapter;

const audit: AdminEvent[] = [];

export const config: AuthConfig = {
  adapter,
  session: { strategy: "jwt" },
  providers: [Password({ adapter })],
  experimental: {
    extensions: [
      admin({
        adminRoles: ["admin", "support"],
        roles: ["admin", "support", "user"],
        impersonationMaxAge: 15 * 60,
        onEvent: (event) => {
          audit.push(event);
          if (event.type === "userBanned") void event.expires?.toISOString();
          if (event.type === "impersonationStarted") void event.expires.getTime();
        },
      }),
      twoFactor({ issuer: "Example" }),
      password(),
      organizations<typeof statements>({
        roles: {
          owner: statements,
          admin: { member: ["create", "update"], project: ["create", "update", "delete"] },
          member: { project: ["create"] },
        },
      }),
    ],
  },
};

export async function support(request: Request): Promise<string | null> {
  const run = actionRunner(request, config);
  const administration = adminApi(run);
  const { users, total } = await administration.listUsers({ search: "ada", limit: 10 });
  const first = users[0];
  if (first) {
    await administration.ban(first.id, { reason: "chargebacks", expiresIn: 86_400 });
    const role: string | null = (await administration.getUser(first.id)).role;
    void role;
  }
  void total;
  void storage;
  try {
    await administration.setRole("someone", null);
  } catch (error) {
    if (error instanceof AdminActionRefused) void error.reason;
  }
  // @ts-expect-error The role is a string or null.
  await administration.setRole("someone", 42);
  const allowed = await organizationsApi<typeof statements>(run).hasPermission({
    project: ["create"],
  });
  void allowed;
  const session = await (await fetch("/auth/session")).json();
  void adminClient({ baseUrl: "", basePath: "/auth" }).stopImpersonating();
  return impersonatorOf(session);
}
