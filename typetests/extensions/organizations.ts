/**
 * Organisations and two-factor in one config, with an app's own permission statements: the
 * statements type the roles and every `hasPermission` call, while the extensions stay opaque
 * handles, so combining them adds no inference (no TS2589).
 */
import { type AuthConfig, actionRunner, type Session } from "@tessera/core";
import {
  hasPermission,
  type OrganizationAdapter,
  type OrganizationEvent,
  organizations,
  organizationsApi,
} from "@tessera/core/organizations";
import { organizationsClient } from "@tessera/core/organizations/client";
import Credentials from "@tessera/core/providers/credentials";
import { type TwoFactorAdapter, twoFactor, twoFactorApi } from "@tessera/core/two-factor";
import { MemoryAdapter } from "@tessera/memory";

const statements = {
  organization: ["update", "delete"],
  member: ["create", "update", "delete"],
  invitation: ["create", "cancel"],
  team: ["create", "update", "delete"],
  project: ["create", "update", "delete"],
  billing: ["read", "update"],
} as const;
type AppStatements = typeof statements;

const adapter = MemoryAdapter();
// The memory adapter carries both extensions' methods in its type.
const storage: OrganizationAdapter & TwoFactorAdapter = adapter;

const audit: OrganizationEvent[] = [];

export const config: AuthConfig = {
  adapter,
  providers: [Credentials({ authorize: () => null })],
  experimental: {
    extensions: [
      twoFactor({ issuer: "Example" }),
      organizations<AppStatements>({
        roles: {
          owner: statements,
          admin: { member: ["create", "update"], project: ["create", "update", "delete"] },
          member: { project: ["create"] },
          billing: { billing: ["read", "update"] },
        },
        teamRoles: { lead: { project: ["update"] }, member: {} },
        onEvent: (event) => {
          audit.push(event);
          if (event.type === "memberRoleChanged") void event.role;
        },
      }),
    ],
  },
};

export async function check(request: Request): Promise<boolean> {
  const run = actionRunner(request, config);
  const orgs = organizationsApi<AppStatements>(run);
  const organization = await orgs.create({ name: "Acme", slug: "acme" });
  await orgs.setActive(organization.id);
  const status = await twoFactorApi(run).status();
  void status;
  void storage;
  void organizationsClient({ baseUrl: "", basePath: "/auth" }).setActive(organization.id);
  // @ts-expect-error "refund" is not an action on billing.
  await orgs.hasPermission({ billing: ["refund"] });
  // @ts-expect-error "invoices" is not a resource of the app.
  await orgs.hasPermission({ invoices: ["read"] });
  return orgs.hasPermission(
    { project: ["create"], billing: ["read"] },
    { organizationId: organization.id },
  );
}

/** The plain server function over a session: typed by the same statements. */
export async function checkSession(session: Session | null, organizationId: string) {
  // @ts-expect-error "refund" is not an action on billing.
  await hasPermission<AppStatements>(session, { billing: ["refund"] });
  return hasPermission<AppStatements>(
    session,
    { project: ["create"] },
    { organizationId, teamId: "t" },
  );
}

organizations<AppStatements>({
  storedRoles: true,
  // @ts-expect-error A role grants only actions the statements name.
  roles: { admin: { project: ["archive"] } },
});
