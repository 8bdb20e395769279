/**
 * Permissions as typed statements: the resources of an app and the actions on each
 * (`project: ["create", "update", "delete"]`), roles as the subset of those a holder may do.
 * Roles are defined in code and, optionally (`storedRoles`), stored per organisation; a check compares the statements a caller asks for with the
 * union of the caller's organisation role and (for a team) their role in that team.
 */

/** Every resource an app names, with the actions it allows on it. */
export type Statements = Readonly<Record<string, readonly string[]>>;

/** Some actions on some resources of `S`: what a role grants, or what a check asks for. */
export type Permissions<S extends Statements = Statements> = {
  readonly [Resource in keyof S]?: readonly S[Resource][number][];
};

/** Role names and what each grants. */
export type Roles<S extends Statements = Statements> = Readonly<Record<string, Permissions<S>>>;

/** What organisations themselves check: the statements of the built-in actions. */
export const ORGANIZATION_STATEMENTS = {
  organization: ["update", "delete"],
  member: ["create", "update", "delete"],
  invitation: ["create", "cancel"],
  team: ["create", "update", "delete"],
  /** Roles an organisation stores for itself (`storedRoles`). */
  role: ["create", "update", "delete"],
} as const satisfies Statements;

/** The built-in statements with an app's own (an app's resource of the same name wins). */
export type WithOrganizationStatements<S extends Statements> = Omit<
  typeof ORGANIZATION_STATEMENTS,
  keyof S
> &
  S;

/** The default organisation roles: `owner` may do everything, `admin` all but delete it, `member` none of it. */
export const DEFAULT_ROLES = {
  owner: ORGANIZATION_STATEMENTS,
  admin: {
    organization: ["update"],
    member: ["create", "update", "delete"],
    invitation: ["create", "cancel"],
    team: ["create", "update", "delete"],
    role: ["create", "update", "delete"],
  },
  member: {},
} as const satisfies Roles<typeof ORGANIZATION_STATEMENTS>;

/** The default team roles: a team `admin` may change the team and who is in it. */
export const DEFAULT_TEAM_ROLES = {
  admin: { team: ["update"] },
  member: {},
} as const satisfies Roles<typeof ORGANIZATION_STATEMENTS>;

/**
 * Whether the grants `held` (one or more roles' permissions) cover every action `asked` names.
 * An empty ask is allowed; an unknown resource or action is not.
 *
 * @example
 * ```ts
 * grants([{ project: ["create", "update"] }], { project: ["create"] }) // true
 * grants([{ project: ["create"] }], { project: ["delete"] })           // false
 * ```
 */
export function grants(held: readonly Permissions[], asked: Permissions): boolean {
  for (const [resource, actions] of Object.entries(asked)) {
    if (!Array.isArray(actions)) return false;
    for (const action of actions as unknown[]) {
      if (typeof action !== "string") return false;
      const covered = held.some((permissions) =>
        (permissions[resource] as readonly string[] | undefined)?.includes(action),
      );
      if (!covered) return false;
    }
  }
  return true;
}

/**
 * Whether the role `granted` is within `held`: a member may hand on only what they may do
 * themselves, so an admin cannot make anyone (themselves included) an owner.
 */
export function isWithin(held: Permissions, granted: Permissions): boolean {
  return grants([held], granted);
}

/**
 * Reads `value` as permissions (from a request body): an object of string arrays, or null.
 * Anything else is refused rather than guessed at.
 */
export function parsePermissions(value: unknown): Permissions | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const parsed: Record<string, string[]> = {};
  for (const [resource, actions] of Object.entries(value)) {
    if (!Array.isArray(actions) || !actions.every((action) => typeof action === "string"))
      return null;
    parsed[resource] = actions;
  }
  return parsed;
}
