/**
 * `organizations(options)`: organisations, members with roles, invitations by e-mail and teams
 * with team-scoped roles, built as an extension. It adds one action row, `organizations`, whose
 * sub-paths are the operations; every one checks, against the adapter, that the signed-in user
 * may do it in the organisation the target belongs to. Its storage is the adapter's
 * {@link OrganizationAdapter} methods, checked when the config is resolved.
 */

import { AuthError, EmailSignInError } from "../../errors.js";
import type {
  ActionRow,
  AuthContext,
  InternalEmailProvider,
  ResolvedConfig,
  SessionFieldsContext,
} from "../../lib/config/internal.js";
import { defineExtension } from "../../lib/extension.js";
import type { TesseraExtension } from "../../lib/extension-handle.js";
import { readChunkedCookie } from "../../lib/http/cookies.js";
import { json } from "../../lib/http/response.js";
import { emailLanguage } from "../../lib/i18n/core/translator.js";
import type { MessageOverrides } from "../../lib/i18n/messages.js";
import { requestTranslator } from "../../lib/i18n/request.js";
import { readJwtSession, reissueJwtSession } from "../../lib/session/jwt-cookie.js";
import { readSessionClaims, storeSessionClaims } from "../../lib/session/session-claims.js";
import { signedInUserId } from "../../lib/session/signed-in.js";
import type { JWT, ResponseInternal } from "../../types.js";
import { PERMISSION_CHECK, type PermissionCheck } from "./has-permission.js";
import {
  type ActiveOrganization,
  asCarried,
  type CarriedMembership,
  decidePermission,
  heldBy,
  markChanged,
  membershipNow,
  organizationStore,
  type RoleBook,
  rolePermissions,
} from "./membership.js";
import { type OrganizationMessages, organizationMessages } from "./messages/index.js";
import { type InvitationView, invitationPage } from "./pages.js";
import {
  DEFAULT_ROLES,
  DEFAULT_TEAM_ROLES,
  grants,
  isWithin,
  type ORGANIZATION_STATEMENTS,
  type Permissions,
  parsePermissions,
  type Roles,
  type Statements,
} from "./permissions.js";
import {
  type InvitationRecord,
  type MemberRecord,
  ORGANIZATION_ADAPTER_METHODS,
  ORGANIZATION_ROLE_ADAPTER_METHODS,
  type OrganizationAdapter,
  type OrganizationRoleAdapter,
} from "./storage.js";

export type { ActiveOrganization } from "./membership.js";

/** The name of the action row: `<basePath>/organizations/<sub-path>`. */
export const ORGANIZATIONS_ACTION = "organizations";
/** The claim that carries the active organisation and the membership in it. */
export const ACTIVE_ORGANIZATION_CLAIM = "org";

/** One change, as the events receive it: the audit trail an app stores. */
export type OrganizationEvent =
  | { type: "organizationCreated"; organizationId: string; actorId: string }
  | { type: "organizationUpdated"; organizationId: string; actorId: string }
  | { type: "organizationDeleted"; organizationId: string; actorId: string }
  | {
      type: "invitationCreated" | "invitationRevoked";
      organizationId: string;
      actorId: string;
      invitationId: string;
      email: string;
    }
  | {
      type: "invitationAccepted" | "invitationDeclined";
      organizationId: string;
      actorId: string;
      invitationId: string;
    }
  | {
      type: "memberRoleChanged";
      organizationId: string;
      actorId: string;
      userId: string;
      role: string;
    }
  | {
      type: "memberRemoved" | "memberLeft";
      organizationId: string;
      actorId: string;
      userId: string;
    }
  | { type: "ownershipTransferred"; organizationId: string; actorId: string; userId: string }
  | {
      type: "teamCreated" | "teamDeleted";
      organizationId: string;
      actorId: string;
      teamId: string;
    }
  | {
      type: "teamMemberSet";
      organizationId: string;
      actorId: string;
      teamId: string;
      userId: string;
      role: string;
    }
  | {
      type: "teamMemberRemoved";
      organizationId: string;
      actorId: string;
      teamId: string;
      userId: string;
    }
  | { type: "activeOrganizationChanged"; organizationId: string | null; actorId: string }
  | {
      type: "roleCreated" | "roleUpdated" | "roleDeleted";
      organizationId: string;
      actorId: string;
      role: string;
    };

/** Options of {@link organizations}. */
export interface OrganizationOptions<S extends Statements = typeof ORGANIZATION_STATEMENTS> {
  /**
   * Organisation roles and what each grants; default `owner`, `admin`, `member`. The built-in
   * actions check the `organization`, `member`, `invitation` and `team` statements.
   */
  roles?: Roles<S>;
  /** Team roles (they hold in one team only); default `admin` (may update the team), `member`. */
  teamRoles?: Roles<S>;
  /** The role that owns an organisation (there is always one holder); default `owner`. */
  ownerRole?: string;
  /**
   * Lets organisations store roles of their own beside `roles` (`create-role`, `update-role`,
   * `delete-role`, checked with the `role` statements); needs the adapter's
   * `OrganizationRoleAdapter` methods. Default off.
   */
  storedRoles?: boolean;
  /** The role of a new member when an invitation names none; default `member`. */
  defaultRole?: string;
  /** How long an invitation can be accepted, in seconds; default 7 days. */
  invitationMaxAge?: number;
  /**
   * Sends an invitation. `url` is the built-in invitation page
   * (`<basePath>/organizations/join?invitationId=…`), where the invited user signs in with the
   * invited address and accepts or declines; or link to a page of yours that calls
   * `acceptInvitation`. Default: the configured e-mail provider's `sendVerificationRequest`
   * (Nodemailer, Resend, …) with the page as `url` and the address as `identifier`; without an
   * e-mail provider, nothing is sent (hand on the page's address yourself).
   */
  sendInvitation?(message: {
    invitation: InvitationRecord;
    organization: { id: string; name: string };
    url: string;
  }): void | Promise<void>;
  /** Every change; a handler that throws is logged, never breaks a flow. */
  onEvent?(event: OrganizationEvent): void | Promise<void>;
  /**
   * Your texts for the invitation page, by locale: keys are those of the English dictionary
   * (`organizations.invitation.heading`, …; a typo does not compile). See
   * docs/guides/languages.md.
   *
   * @example
   * ```ts
   * organizations({ messages: { de: { "organizations.invitation.heading": "Willkommen an Bord" } } })
   * ```
   */
  messages?: MessageOverrides<OrganizationMessages>;
}

interface Resolved extends RoleBook {
  ownerRole: string;
  defaultRole: string;
  invitationMaxAge: number;
  sendInvitation: OrganizationOptions["sendInvitation"];
  onEvent: OrganizationOptions["onEvent"];
  messages: OrganizationOptions["messages"];
}

/** The adapter's organisation methods (present: the config check made sure). */
function store(ctx: AuthContext): OrganizationAdapter {
  return organizationStore(ctx.config);
}

/** The adapter's stored-role methods (present when `storedRoles` is on: the config check). */
function roleStore(ctx: AuthContext): OrganizationRoleAdapter {
  return organizationStore(ctx.config) as OrganizationRoleAdapter;
}

function refused(status: number, error: string): ResponseInternal {
  return json({ error }, status);
}

async function emit(ctx: AuthContext, options: Resolved, event: OrganizationEvent): Promise<void> {
  if (!options.onEvent) return;
  try {
    await options.onEvent(event);
  } catch (error) {
    ctx.logger.error(error instanceof Error ? error : new Error(String(error)));
  }
}

/** A body or query field as a non-empty string of bounded length, or null. */
function field(ctx: AuthContext, name: string, max = 200): string | null {
  const value = ctx.request.body?.[name] ?? ctx.request.query[name];
  if (typeof value !== "string") return null;
  const trimmed = value.trim();
  return trimmed.length > 0 && trimmed.length <= max ? trimmed : null;
}

const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

/** What a session carries: its claim, or null; with where to write a new one. */
interface CarriedClaims {
  claim: CarriedMembership | null;
  write(claim: CarriedMembership | null): Promise<ResponseInternal["cookies"]>;
}

async function carriedClaims(ctx: AuthContext): Promise<CarriedClaims | null> {
  const { config, cookies, request } = ctx;
  if (config.session.strategy === "jwt") {
    const read = await readJwtSession(config, request.cookies, cookies.sessionToken, 0);
    if (typeof read === "string") return null;
    return {
      claim: asCarried(read[ACTIVE_ORGANIZATION_CLAIM]),
      async write(claim) {
        const next: JWT = { ...read, [ACTIVE_ORGANIZATION_CLAIM]: claim ?? undefined };
        const expires = new Date(Date.now() + config.jwt.maxAge * 1000);
        return reissueJwtSession(
          config,
          request.cookies,
          cookies.sessionToken,
          read,
          next,
          expires,
        );
      },
    };
  }
  const sessionToken = readChunkedCookie(request.cookies, cookies.sessionToken.name);
  const found = sessionToken ? await config.adapter?.getSessionAndUser(sessionToken) : null;
  if (!sessionToken || !found || found.session.expires.valueOf() < Date.now()) return null;
  const claims = (await readSessionClaims(config, sessionToken)) ?? {};
  return {
    claim: asCarried(claims[ACTIVE_ORGANIZATION_CLAIM]),
    async write(claim) {
      const ttl = (found.session.expires.getTime() - Date.now()) / 1000;
      const next = { ...claims };
      if (claim) next[ACTIVE_ORGANIZATION_CLAIM] = claim;
      else delete next[ACTIVE_ORGANIZATION_CLAIM];
      await storeSessionClaims(config, sessionToken, next, ttl);
      return [];
    },
  };
}

/** Whether a helper answered with a refusal rather than what was asked for. */
function isRefusal<T extends object>(value: T | ResponseInternal): value is ResponseInternal {
  return "status" in value;
}

/**
 * The caller's membership of `organizationId`, or the refusal: 404 for an organisation the
 * caller is not in (IDOR: a member of A learns nothing of B, not even that it exists).
 */
async function memberOf(
  ctx: AuthContext,
  options: Resolved,
  organizationId: string,
  userId: string,
): Promise<ActiveOrganization | ResponseInternal> {
  const membership = await membershipNow(ctx.config, options, organizationId, userId);
  return membership ?? refused(404, "OrganizationNotFound");
}

/**
 * The caller's membership when it grants `asked` (in `teamId`, when given), else the refusal.
 * Always read from the adapter: a mutation is decided on the membership as it is now.
 */
async function allowed(
  ctx: AuthContext,
  options: Resolved,
  organizationId: string,
  userId: string,
  asked: Permissions,
  teamId?: string,
): Promise<ActiveOrganization | ResponseInternal> {
  const membership = await memberOf(ctx, options, organizationId, userId);
  if (isRefusal(membership)) return membership;
  if (!grants(heldBy(options, membership, teamId), asked)) return refused(403, "Forbidden");
  return membership;
}

/**
 * Whether the caller (role `held`) may give someone the role `role`: the role must exist, and
 * grant nothing the caller's own role does not (raising privileges through another member, or
 * through an invitation, is refused); only an owner makes owners.
 */
async function mayGrant(
  ctx: AuthContext,
  options: Resolved,
  held: ActiveOrganization,
  role: string,
): Promise<boolean> {
  const granted = await rolePermissions(ctx.config, options, held.id, role);
  if (!granted) return false;
  if (role === options.ownerRole) return held.role === options.ownerRole;
  return isWithin(heldBy(options, held)[0] ?? {}, granted);
}

async function create(ctx: AuthContext, options: Resolved, userId: string) {
  const name = field(ctx, "name");
  const slug = field(ctx, "slug", 64)?.toLowerCase();
  if (!name || !slug || !SLUG.test(slug)) return refused(400, "InvalidOrganization");
  const id = crypto.randomUUID();
  const createdAt = new Date();
  const owner: MemberRecord = { organizationId: id, userId, role: options.ownerRole, createdAt };
  if (!(await store(ctx).createOrganization({ id, name, slug, createdAt }, owner)))
    return refused(409, "SlugTaken");
  await emit(ctx, options, { type: "organizationCreated", organizationId: id, actorId: userId });
  return json({ organization: { id, name, slug, createdAt } });
}

async function read(ctx: AuthContext, options: Resolved, userId: string, organizationId: string) {
  const membership = await memberOf(ctx, options, organizationId, userId);
  if (isRefusal(membership)) return membership;
  const adapter = store(ctx);
  const [organization, members, teams] = await Promise.all([
    adapter.getOrganization(organizationId),
    adapter.listMembers(organizationId),
    adapter.listTeams(organizationId),
  ]);
  // Pending invitations name addresses: shown to those who may manage them only.
  const seesInvitations = grants(heldBy(options, membership), { invitation: ["create"] });
  const invitations = seesInvitations
    ? (await adapter.listInvitations(organizationId)).filter((i) => i.status === "pending")
    : [];
  return json({ organization, members, teams, invitations, membership });
}

async function invite(ctx: AuthContext, options: Resolved, userId: string, organizationId: string) {
  const membership = await allowed(ctx, options, organizationId, userId, {
    invitation: ["create"],
  });
  if (isRefusal(membership)) return membership;
  const email = field(ctx, "email", 320)?.toLowerCase();
  const role = field(ctx, "role", 64) ?? options.defaultRole;
  if (!email || !/^[^\s@]+@[^\s@]+$/.test(email)) return refused(400, "InvalidEmail");
  // Privilege escalation: an admin inviting a confederate (or a second address) as owner.
  if (!(await mayGrant(ctx, options, membership, role))) return refused(403, "RoleNotGrantable");
  const organization = await store(ctx).getOrganization(organizationId);
  if (!organization) return refused(404, "OrganizationNotFound");
  const now = new Date();
  const invitation: InvitationRecord = {
    id: crypto.randomUUID(),
    organizationId,
    email,
    role,
    inviterId: userId,
    status: "pending",
    expires: new Date(now.getTime() + options.invitationMaxAge * 1000),
    createdAt: now,
  };
  await store(ctx).createInvitation(invitation);
  await sendInvitation(ctx, options, invitation, organization);
  await emit(ctx, options, {
    type: "invitationCreated",
    organizationId,
    actorId: userId,
    invitationId: invitation.id,
    email,
  });
  return json({ invitation });
}

/** The built-in invitation page of `invitationId`. */
function invitationPageUrl(ctx: AuthContext, invitationId: string): string {
  return `${ctx.url.href.replace(/\/$/, "")}/organizations/join?${new URLSearchParams({ invitationId })}`;
}

/**
 * Sends the invitation: through `sendInvitation` when given, else through the configured e-mail
 * provider as every Tessera e-mail is. A failure to send is the inviter's error to see (the
 * invitation stays, and can be revoked or sent again).
 */
async function sendInvitation(
  ctx: AuthContext,
  options: Resolved,
  invitation: InvitationRecord,
  organization: { id: string; name: string },
): Promise<void> {
  const url = invitationPageUrl(ctx, invitation.id);
  const message = {
    invitation,
    organization: { id: organization.id, name: organization.name },
    url,
  };
  try {
    if (options.sendInvitation) return await options.sendInvitation(message);
    const provider = ctx.providers.find(
      (candidate): candidate is InternalEmailProvider => candidate.type === "email",
    );
    if (!provider) return;
    await provider.sendVerificationRequest({
      identifier: invitation.email,
      token: invitation.id,
      expires: invitation.expires,
      url,
      provider,
      theme: ctx.config.theme,
      request: ctx.request.request,
      ...emailLanguage(ctx),
    });
  } catch (error) {
    if (error instanceof AuthError) throw error;
    const cause = error instanceof Error ? error : new Error(String(error));
    throw new EmailSignInError(`Sending the invitation e-mail failed: ${cause.message}`, {
      cause,
    });
  }
}

/**
 * `join`: the built-in invitation page. Signed out, it offers sign-in and tells nothing of the
 * invitation (a forwarded or leaked link shows no organisation); signed in with another address,
 * it says so without naming the invited one; signed in with it, it shows the organisation and
 * the role with "Accept" and "Decline", which post back here (CSRF token included).
 */
async function join(ctx: AuthContext, options: Resolved): Promise<ResponseInternal> {
  const invitationId = field(ctx, "invitationId");
  const page = (view: InvitationView, status = 200) =>
    invitationPage(
      {
        url: ctx.url,
        theme: ctx.config.theme,
        csrfToken: ctx.csrfToken ?? "",
        pageUrl: invitationPageUrl(ctx, invitationId ?? ""),
        t: requestTranslator(ctx, organizationMessages, options.messages),
      },
      view,
      status,
    );
  const userId = await signedInUserId(ctx);
  if (!userId) return page({ state: "signed-out" });
  const invitation = invitationId ? await store(ctx).getInvitation(invitationId) : null;
  if (!invitation) return page({ state: "closed" }, 404);
  const user = await ctx.config.adapter?.getUser(userId);
  if (!user?.email || user.email.toLowerCase() !== invitation.email)
    return page({ state: "other-address", email: user?.email ?? "" }, 403);
  const organization = (await store(ctx).getOrganization(invitation.organizationId))?.name ?? "";
  if (ctx.request.method === "POST") {
    const choice = field(ctx, "answer");
    if (choice !== "accept" && choice !== "decline") return refused(400, "BadRequest");
    const settled = await answer(
      ctx,
      options,
      userId,
      choice === "accept" ? "accepted" : "declined",
    );
    if ((settled.status ?? 200) !== 200) return page({ state: "closed" }, settled.status);
    return page({ state: choice === "accept" ? "accepted" : "declined", organization });
  }
  if (invitation.status !== "pending" || invitation.expires.valueOf() <= Date.now())
    return page({ state: "closed" }, 410);
  return page({ state: "open", invitationId: invitation.id, organization, role: invitation.role });
}

/**
 * `accept` and `decline`: only the invited address may answer. An invitation accepted by
 * another account (a forwarded link, a guessed id) is refused as if it did not exist.
 */
async function answer(
  ctx: AuthContext,
  options: Resolved,
  userId: string,
  status: "accepted" | "declined",
) {
  const invitationId = field(ctx, "invitationId");
  const invitation = invitationId ? await store(ctx).getInvitation(invitationId) : null;
  const user = await ctx.config.adapter?.getUser(userId);
  if (!invitation || !user?.email || user.email.toLowerCase() !== invitation.email)
    return refused(404, "InvitationNotFound");
  const member: MemberRecord | undefined =
    status === "accepted"
      ? {
          organizationId: invitation.organizationId,
          userId,
          role: invitation.role,
          createdAt: new Date(),
        }
      : undefined;
  if (!(await store(ctx).settleInvitation(invitation.id, status, member)))
    return refused(410, "InvitationNotPending");
  if (member) await markChanged(ctx.config, invitation.organizationId, userId);
  await emit(ctx, options, {
    type: status === "accepted" ? "invitationAccepted" : "invitationDeclined",
    organizationId: invitation.organizationId,
    actorId: userId,
    invitationId: invitation.id,
  });
  return json({ status, organizationId: invitation.organizationId });
}

async function showInvitation(ctx: AuthContext, userId: string) {
  const invitationId = field(ctx, "invitationId");
  const invitation = invitationId ? await store(ctx).getInvitation(invitationId) : null;
  const user = await ctx.config.adapter?.getUser(userId);
  if (!invitation || user?.email?.toLowerCase() !== invitation.email)
    return refused(404, "InvitationNotFound");
  const organization = await store(ctx).getOrganization(invitation.organizationId);
  return json({
    invitation,
    organization: organization && { id: organization.id, name: organization.name },
  });
}

async function revoke(ctx: AuthContext, options: Resolved, userId: string) {
  const invitationId = field(ctx, "invitationId");
  const invitation = invitationId ? await store(ctx).getInvitation(invitationId) : null;
  if (!invitation) return refused(404, "InvitationNotFound");
  // IDOR: the right to cancel is checked in the invitation's own organisation.
  const membership = await allowed(ctx, options, invitation.organizationId, userId, {
    invitation: ["cancel"],
  });
  if (isRefusal(membership)) return refused(404, "InvitationNotFound");
  if (!(await store(ctx).settleInvitation(invitation.id, "revoked")))
    return refused(410, "InvitationNotPending");
  await emit(ctx, options, {
    type: "invitationRevoked",
    organizationId: invitation.organizationId,
    actorId: userId,
    invitationId: invitation.id,
    email: invitation.email,
  });
  return json({ status: "revoked" });
}

function changeAnswer(result: "done" | "not-found" | "last-owner"): ResponseInternal | null {
  if (result === "not-found") return refused(404, "MemberNotFound");
  if (result === "last-owner") return refused(409, "LastOwner");
  return null;
}

async function setRole(
  ctx: AuthContext,
  options: Resolved,
  userId: string,
  organizationId: string,
) {
  const membership = await allowed(ctx, options, organizationId, userId, { member: ["update"] });
  if (isRefusal(membership)) return membership;
  const target = field(ctx, "userId");
  const role = field(ctx, "role", 64);
  if (!target || !role) return refused(400, "BadRequest");
  // Privilege escalation: nobody changes their own role (ownership moves by `transfer`).
  if (target === userId) return refused(403, "OwnRole");
  const current = await store(ctx).getMember(organizationId, target);
  if (!current) return refused(404, "MemberNotFound");
  // An admin can neither make an owner nor unmake one: both take the owner role.
  if (
    !(await mayGrant(ctx, options, membership, role)) ||
    !(await mayGrant(ctx, options, membership, current.role))
  )
    return refused(403, "RoleNotGrantable");
  const refusal = changeAnswer(
    await store(ctx).setMemberRole(organizationId, target, role, options.ownerRole),
  );
  if (refusal) return refusal;
  await markChanged(ctx.config, organizationId, target);
  await emit(ctx, options, {
    type: "memberRoleChanged",
    organizationId,
    actorId: userId,
    userId: target,
    role,
  });
  return json({ userId: target, role });
}

async function removeMember(
  ctx: AuthContext,
  options: Resolved,
  userId: string,
  organizationId: string,
) {
  const target = field(ctx, "userId");
  if (!target) return refused(400, "BadRequest");
  const leaving = target === userId;
  if (!leaving) {
    const membership = await allowed(ctx, options, organizationId, userId, { member: ["delete"] });
    if (isRefusal(membership)) return membership;
    const current = await store(ctx).getMember(organizationId, target);
    if (!current) return refused(404, "MemberNotFound");
    if (!(await mayGrant(ctx, options, membership, current.role)))
      return refused(403, "RoleNotGrantable");
  } else {
    const membership = await memberOf(ctx, options, organizationId, userId);
    if (isRefusal(membership)) return membership;
  }
  const refusal = changeAnswer(
    await store(ctx).removeMember(organizationId, target, options.ownerRole),
  );
  if (refusal) return refusal;
  await markChanged(ctx.config, organizationId, target);
  await emit(ctx, options, {
    type: leaving ? "memberLeft" : "memberRemoved",
    organizationId,
    actorId: userId,
    userId: target,
  });
  return json({ removed: target });
}

async function transfer(
  ctx: AuthContext,
  options: Resolved,
  userId: string,
  organizationId: string,
) {
  const membership = await memberOf(ctx, options, organizationId, userId);
  if (isRefusal(membership)) return membership;
  if (membership.role !== options.ownerRole) return refused(403, "Forbidden");
  const target = field(ctx, "userId");
  if (!target || target === userId) return refused(400, "BadRequest");
  const adapter = store(ctx);
  // The new owner first: the organisation is never without one, even if the second step fails.
  const promoted = await adapter.setMemberRole(
    organizationId,
    target,
    options.ownerRole,
    options.ownerRole,
  );
  if (promoted !== "done") return refused(404, "MemberNotFound");
  const fallback = options.roles.admin ? "admin" : options.defaultRole;
  await adapter.setMemberRole(organizationId, userId, fallback, options.ownerRole);
  await markChanged(ctx.config, organizationId, target);
  await markChanged(ctx.config, organizationId, userId);
  await emit(ctx, options, {
    type: "ownershipTransferred",
    organizationId,
    actorId: userId,
    userId: target,
  });
  return json({ owner: target });
}

async function update(ctx: AuthContext, options: Resolved, userId: string, organizationId: string) {
  const membership = await allowed(ctx, options, organizationId, userId, {
    organization: ["update"],
  });
  if (isRefusal(membership)) return membership;
  const name = field(ctx, "name") ?? undefined;
  const slug = field(ctx, "slug", 64)?.toLowerCase();
  if (slug !== undefined && !SLUG.test(slug)) return refused(400, "InvalidOrganization");
  if (!(await store(ctx).updateOrganization(organizationId, { name, slug })))
    return refused(409, "SlugTaken");
  await emit(ctx, options, { type: "organizationUpdated", organizationId, actorId: userId });
  return json({ organization: await store(ctx).getOrganization(organizationId) });
}

async function remove(ctx: AuthContext, options: Resolved, userId: string, organizationId: string) {
  const membership = await allowed(ctx, options, organizationId, userId, {
    organization: ["delete"],
  });
  if (isRefusal(membership)) return membership;
  const members = await store(ctx).listMembers(organizationId);
  await store(ctx).deleteOrganization(organizationId);
  for (const member of members) await markChanged(ctx.config, organizationId, member.userId);
  await emit(ctx, options, { type: "organizationDeleted", organizationId, actorId: userId });
  return json({ deleted: organizationId });
}

async function createTeam(
  ctx: AuthContext,
  options: Resolved,
  userId: string,
  organizationId: string,
) {
  const membership = await allowed(ctx, options, organizationId, userId, { team: ["create"] });
  if (isRefusal(membership)) return membership;
  const name = field(ctx, "name");
  if (!name) return refused(400, "BadRequest");
  const team = { id: crypto.randomUUID(), organizationId, name, createdAt: new Date() };
  await store(ctx).createTeam(team);
  await emit(ctx, options, {
    type: "teamCreated",
    organizationId,
    actorId: userId,
    teamId: team.id,
  });
  return json({ team });
}

/** The team named in the request and the caller's right over it (team-scoped roles count). */
async function teamAccess(ctx: AuthContext, options: Resolved, userId: string, asked: Permissions) {
  const teamId = field(ctx, "teamId");
  const team = teamId ? await store(ctx).getTeam(teamId) : null;
  if (!team) return refused(404, "TeamNotFound");
  // IDOR: the team's own organisation decides, never one the request names.
  const membership = await allowed(ctx, options, team.organizationId, userId, asked, team.id);
  if (isRefusal(membership))
    return membership.status === 404 ? refused(404, "TeamNotFound") : membership;
  return { team, membership };
}

async function deleteTeam(ctx: AuthContext, options: Resolved, userId: string) {
  const access = await teamAccess(ctx, options, userId, { team: ["delete"] });
  if (isRefusal(access)) return access;
  const { team } = access;
  const places = await store(ctx).listTeamMembers(team.id);
  await store(ctx).deleteTeam(team.id);
  for (const place of places) await markChanged(ctx.config, team.organizationId, place.userId);
  await emit(ctx, options, {
    type: "teamDeleted",
    organizationId: team.organizationId,
    actorId: userId,
    teamId: team.id,
  });
  return json({ deleted: team.id });
}

async function setTeamMember(ctx: AuthContext, options: Resolved, userId: string) {
  const access = await teamAccess(ctx, options, userId, { team: ["update"] });
  if (isRefusal(access)) return access;
  const { team, membership } = access;
  const target = field(ctx, "userId");
  const role = field(ctx, "role", 64) ?? "member";
  if (!target || !options.teamRoles[role]) return refused(400, "BadRequest");
  // A team admin may not raise themselves, nor hand on more than their own team role.
  const ownTeamRole = membership.teams[team.id];
  const orgWide = grants(heldBy(options, membership).slice(0, 1), { team: ["update"] });
  if (
    !orgWide &&
    (target === userId ||
      !isWithin(options.teamRoles[ownTeamRole ?? ""] ?? {}, options.teamRoles[role] ?? {}))
  )
    return refused(403, "RoleNotGrantable");
  if (!(await store(ctx).getMember(team.organizationId, target)))
    return refused(404, "MemberNotFound");
  await store(ctx).setTeamMember({
    teamId: team.id,
    organizationId: team.organizationId,
    userId: target,
    role,
  });
  await markChanged(ctx.config, team.organizationId, target);
  await emit(ctx, options, {
    type: "teamMemberSet",
    organizationId: team.organizationId,
    actorId: userId,
    teamId: team.id,
    userId: target,
    role,
  });
  return json({ teamId: team.id, userId: target, role });
}

async function removeTeamMember(ctx: AuthContext, options: Resolved, userId: string) {
  const target = field(ctx, "userId");
  if (!target) return refused(400, "BadRequest");
  const access = await teamAccess(
    ctx,
    options,
    userId,
    target === userId ? {} : { team: ["update"] },
  );
  if (isRefusal(access)) return access;
  const { team } = access;
  await store(ctx).removeTeamMember(team.id, target);
  await markChanged(ctx.config, team.organizationId, target);
  await emit(ctx, options, {
    type: "teamMemberRemoved",
    organizationId: team.organizationId,
    actorId: userId,
    teamId: team.id,
    userId: target,
  });
  return json({ removed: target });
}

async function setActive(ctx: AuthContext, options: Resolved, userId: string) {
  const carried = await carriedClaims(ctx);
  if (!carried) return refused(401, "NotSignedIn");
  const organizationId = field(ctx, "organizationId");
  let claim: CarriedMembership | null = null;
  if (organizationId) {
    // Read time first: a change while reading is then newer than the copy, never missed.
    const at = Date.now();
    const membership = await memberOf(ctx, options, organizationId, userId);
    if (isRefusal(membership)) return membership;
    claim = { ...membership, at };
  }
  const cookies = await carried.write(claim);
  await emit(ctx, options, {
    type: "activeOrganizationChanged",
    organizationId: claim?.id ?? null,
    actorId: userId,
  });
  return { ...json({ activeOrganization: claim && publicClaim(claim) }), cookies: cookies ?? [] };
}

function publicClaim(claim: CarriedMembership): ActiveOrganization {
  const { at: _readAt, ...shown } = claim;
  return shown;
}

/** Permissions from a body or query field (JSON text or an object), or null when malformed. */
function askedPermissions(ctx: AuthContext): Permissions | null {
  const raw = ctx.request.body?.permissions ?? ctx.request.query.permissions;
  try {
    return parsePermissions(typeof raw === "string" ? JSON.parse(raw) : raw);
  } catch {
    return null;
  }
}

/**
 * `has-permission`: answered from the session's membership when it carries the one asked about
 * and no change was recorded since it was read; else from the adapter (and the session's claim
 * is renewed). One shared-store read decides which: the same store that revokes JWT sessions.
 */
async function hasPermission(ctx: AuthContext, options: Resolved, userId: string) {
  const asked = askedPermissions(ctx);
  if (!asked) return refused(400, "InvalidPermissions");
  const carried = await carriedClaims(ctx);
  if (!carried) return refused(401, "NotSignedIn");
  const at = Date.now();
  const scope = {
    organizationId: field(ctx, "organizationId") ?? undefined,
    teamId: field(ctx, "teamId") ?? undefined,
  };
  const answer = await decidePermission(ctx.config, options, userId, carried.claim, asked, scope);
  const renews = answer.renewed !== undefined && carried.claim?.id === answer.organizationId;
  const cookies = renews
    ? ((await carried.write(answer.renewed ? { ...answer.renewed, at } : null)) ?? [])
    : [];
  return { ...json({ allowed: answer.allowed, source: answer.source }), cookies };
}

/** A stored role's name: the shape of a slug, so it reads well in URLs and lists. */
const ROLE_NAME = /^[a-z0-9](?:[a-z0-9_-]{0,62}[a-z0-9])?$/;

/** `roles`: the roles in code and the organisation's own, for a member to pick from. */
async function listRoles(
  ctx: AuthContext,
  options: Resolved,
  userId: string,
  organizationId: string,
) {
  const membership = await memberOf(ctx, options, organizationId, userId);
  if (isRefusal(membership)) return membership;
  const stored = options.storedRoles
    ? await roleStore(ctx).listOrganizationRoles(organizationId)
    : [];
  return json({
    roles: [
      ...Object.entries(options.roles).map(([name, permissions]) => ({
        name,
        permissions,
        stored: false,
      })),
      ...stored.map((role) => ({ name: role.name, permissions: role.permissions, stored: true })),
    ],
  });
}

/**
 * `create-role` and `update-role`: the caller needs the `role` statement for it, and the role may
 * grant nothing the caller's own role does not (privilege escalation: a member with `role:
 * ["create"]` writing a role with `organization: ["delete"]` and having someone hand it back).
 */
async function writeRole(
  ctx: AuthContext,
  options: Resolved,
  userId: string,
  organizationId: string,
  mode: "create" | "update",
) {
  if (!options.storedRoles) return refused(404, "StoredRolesOff");
  const membership = await allowed(ctx, options, organizationId, userId, { role: [mode] });
  if (isRefusal(membership)) return membership;
  const name = field(ctx, "name", 64);
  const permissions = askedPermissions(ctx);
  if (!name || !ROLE_NAME.test(name)) return refused(400, "InvalidRoleName");
  if (!permissions) return refused(400, "InvalidPermissions");
  // A stored role never shadows one in code: `owner` (or `admin`) keeps meaning what the code says.
  if (Object.hasOwn(options.roles, name)) return refused(409, "RoleExists");
  const own = heldBy(options, membership)[0] ?? {};
  if (!isWithin(own, permissions)) return refused(403, "RoleNotGrantable");
  const cleaned = Object.fromEntries(
    Object.entries(permissions).filter(([, actions]) => (actions?.length ?? 0) > 0),
  );
  const adapter = roleStore(ctx);
  let createdAt: Date | undefined;
  if (mode === "create") {
    createdAt = new Date();
    const role = { organizationId, name, permissions: cleaned, createdAt };
    if (!(await adapter.createOrganizationRole(role))) return refused(409, "RoleExists");
  } else {
    // Narrowing a role stronger than one's own is a change of what its holders may do: refused too.
    const current = await adapter.getOrganizationRole(organizationId, name);
    if (!current) return refused(404, "RoleNotFound");
    if (!isWithin(own, current.permissions)) return refused(403, "RoleNotGrantable");
    if (!(await adapter.updateOrganizationRole(organizationId, name, cleaned)))
      return refused(404, "RoleNotFound");
    await markHoldersChanged(ctx, organizationId, name);
  }
  await emit(ctx, options, {
    type: mode === "create" ? "roleCreated" : "roleUpdated",
    organizationId,
    actorId: userId,
    role: name,
  });
  return json({
    role: { organizationId, name, permissions: cleaned, ...(createdAt && { createdAt }) },
  });
}

/** Makes every session that carries the role `name` of the organisation read it again. */
async function markHoldersChanged(ctx: AuthContext, organizationId: string, name: string) {
  const members = await store(ctx).listMembers(organizationId);
  for (const member of members)
    if (member.role === name) await markChanged(ctx.config, organizationId, member.userId);
}

/** `delete-role`: refused while a member holds it (they would silently lose every right). */
async function deleteRole(
  ctx: AuthContext,
  options: Resolved,
  userId: string,
  organizationId: string,
) {
  if (!options.storedRoles) return refused(404, "StoredRolesOff");
  const membership = await allowed(ctx, options, organizationId, userId, { role: ["delete"] });
  if (isRefusal(membership)) return membership;
  const name = field(ctx, "name", 64);
  const current = name ? await roleStore(ctx).getOrganizationRole(organizationId, name) : null;
  if (!name || !current) return refused(404, "RoleNotFound");
  if (!isWithin(heldBy(options, membership)[0] ?? {}, current.permissions))
    return refused(403, "RoleNotGrantable");
  const members = await store(ctx).listMembers(organizationId);
  if (members.some((member) => member.role === name)) return refused(409, "RoleInUse");
  if (!(await roleStore(ctx).deleteOrganizationRole(organizationId, name)))
    return refused(404, "RoleNotFound");
  await emit(ctx, options, { type: "roleDeleted", organizationId, actorId: userId, role: name });
  return json({ deleted: name });
}

async function list(ctx: AuthContext, userId: string) {
  const found = await store(ctx).listOrganizationsOfUser(userId);
  return json({
    organizations: found.map(({ organization, member }) => ({
      ...organization,
      role: member.role,
    })),
  });
}

const MUTATIONS = new Set([
  "create",
  "update",
  "delete",
  "invite",
  "accept",
  "decline",
  "revoke",
  "set-role",
  "remove-member",
  "leave",
  "transfer",
  "create-team",
  "delete-team",
  "set-team-member",
  "remove-team-member",
  "set-active",
  "create-role",
  "update-role",
  "delete-role",
]);

function handlerFor(options: Resolved) {
  return async function organizationsAction(ctx: AuthContext): Promise<ResponseInternal> {
    const { method, subAction } = ctx.request;
    // CSRF: every mutation needs the double-submit token (in-process calls count as verified);
    // a forged cross-site form carries none.
    if (method === "POST" && !ctx.csrfTokenVerified) return refused(403, "MissingCSRF");
    const action = subAction ?? "list";
    if (action === "join") return join(ctx, options);
    if (MUTATIONS.has(action) && method !== "POST") return refused(405, "UsePost");
    const userId = await signedInUserId(ctx);
    if (!userId) return refused(401, "NotSignedIn");
    const organizationId = field(ctx, "organizationId");
    const needsOrganization = (
      then: (organizationId: string) => Promise<ResponseInternal>,
    ): Promise<ResponseInternal> | ResponseInternal =>
      organizationId ? then(organizationId) : refused(400, "OrganizationIdRequired");
    switch (action) {
      case "list":
        return list(ctx, userId);
      case "get":
        return needsOrganization((id) => read(ctx, options, userId, id));
      case "invitation":
        return showInvitation(ctx, userId);
      case "create":
        return create(ctx, options, userId);
      case "update":
        return needsOrganization((id) => update(ctx, options, userId, id));
      case "delete":
        return needsOrganization((id) => remove(ctx, options, userId, id));
      case "invite":
        return needsOrganization((id) => invite(ctx, options, userId, id));
      case "accept":
        return answer(ctx, options, userId, "accepted");
      case "decline":
        return answer(ctx, options, userId, "declined");
      case "revoke":
        return revoke(ctx, options, userId);
      case "set-role":
        return needsOrganization((id) => setRole(ctx, options, userId, id));
      case "remove-member":
        return needsOrganization((id) => removeMember(ctx, options, userId, id));
      case "leave":
        return needsOrganization((id) => {
          ctx.request.body = { ...ctx.request.body, userId };
          return removeMember(ctx, options, userId, id);
        });
      case "transfer":
        return needsOrganization((id) => transfer(ctx, options, userId, id));
      case "create-team":
        return needsOrganization((id) => createTeam(ctx, options, userId, id));
      case "delete-team":
        return deleteTeam(ctx, options, userId);
      case "set-team-member":
        return setTeamMember(ctx, options, userId);
      case "remove-team-member":
        return removeTeamMember(ctx, options, userId);
      case "set-active":
        return setActive(ctx, options, userId);
      case "has-permission":
        return hasPermission(ctx, options, userId);
      case "roles":
        return needsOrganization((id) => listRoles(ctx, options, userId, id));
      case "create-role":
        return needsOrganization((id) => writeRole(ctx, options, userId, id, "create"));
      case "update-role":
        return needsOrganization((id) => writeRole(ctx, options, userId, id, "update"));
      case "delete-role":
        return needsOrganization((id) => deleteRole(ctx, options, userId, id));
      default:
        return refused(404, "UnknownAction");
    }
  };
}

/**
 * The session's `activeOrganization` field, from the claim (none when unset or malformed); and,
 * in-process only, the check `hasPermission(session, …)` answers with.
 */
function activeOrganizationFields(options: Resolved) {
  return (token: JWT, session: SessionFieldsContext): Record<string | symbol, unknown> => {
    const claim = asCarried(token[ACTIVE_ORGANIZATION_CLAIM]);
    const { userId } = session;
    const fields: Record<string | symbol, unknown> = {};
    if (claim) fields.activeOrganization = publicClaim(claim);
    if (userId) fields[PERMISSION_CHECK] = permissionCheck(session.config, options, userId, claim);
    return fields;
  };
}

function permissionCheck(
  config: ResolvedConfig,
  options: Resolved,
  userId: string,
  claim: CarriedMembership | null,
): PermissionCheck {
  return async (asked, scope) => {
    const parsed = parsePermissions(asked);
    if (!parsed) return false;
    return (await decidePermission(config, options, userId, claim, parsed, scope)).allowed;
  };
}

/**
 * Organisations for `experimental.extensions`. Needs an adapter with the organisation methods
 * (`@tessera/memory`, `@tessera/sql`, `@tessera/redis`).
 *
 * @example
 * ```ts
 * import { organizations } from "@tessera/core/organizations"
 * const config = { adapter, providers, experimental: { extensions: [organizations()] } }
 * ```
 */
export function organizations<S extends Statements = typeof ORGANIZATION_STATEMENTS>(
  options: OrganizationOptions<S> = {},
): TesseraExtension {
  const resolved: Resolved = {
    roles: (options.roles ?? DEFAULT_ROLES) as Roles,
    teamRoles: (options.teamRoles ?? DEFAULT_TEAM_ROLES) as Roles,
    storedRoles: options.storedRoles ?? false,
    ownerRole: options.ownerRole ?? "owner",
    defaultRole: options.defaultRole ?? "member",
    invitationMaxAge: options.invitationMaxAge ?? 7 * 24 * 60 * 60,
    sendInvitation: options.sendInvitation,
    onEvent: options.onEvent,
    messages: options.messages,
  };
  const row: ActionRow = {
    name: ORGANIZATIONS_ACTION,
    methods: ["GET", "POST"],
    tail: [
      "list",
      "get",
      "invitation",
      "create",
      "update",
      "delete",
      "invite",
      "accept",
      "decline",
      "revoke",
      "set-role",
      "remove-member",
      "leave",
      "transfer",
      "create-team",
      "delete-team",
      "set-team-member",
      "remove-team-member",
      "set-active",
      "has-permission",
      "join",
      "roles",
      "create-role",
      "update-role",
      "delete-role",
    ],
    csrf: "all",
    page: false,
    callbackUrl: false,
    reach: "both",
    handler: handlerFor(resolved),
  };
  return defineExtension({
    name: "organizations",
    actions: [row],
    sessionFields: activeOrganizationFields(resolved),
    keptClaims: [ACTIVE_ORGANIZATION_CLAIM],
    requires: [
      {
        of: "adapter",
        methods: ORGANIZATION_ADAPTER_METHODS,
        implementedBy: "@tessera/memory, @tessera/sql, @tessera/redis",
      },
      ...(resolved.storedRoles
        ? [
            {
              of: "adapter" as const,
              methods: ORGANIZATION_ROLE_ADAPTER_METHODS,
              implementedBy: "@tessera/memory, @tessera/sql (migration 0009), @tessera/redis",
            },
          ]
        : []),
    ],
  });
}
