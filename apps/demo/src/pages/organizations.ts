/**
 * The home page's "Organisations" card: the signed-in user's organisations with their role, a
 * switcher that makes one the session's active organisation, the members of the active one (with
 * a role picker and an invitation form for those who may manage members), and a form that
 * creates one. Everything goes through `organizationsApi(actionRunner(req, config))`
 * in the demo's /organizations routes.
 */
import type { ActiveOrganization, OrganizationDetails } from "@tessera/core/organizations";
import { html, type Markup } from "./html.js";

/** What the card shows. */
export interface OrganizationsCard {
  organizations: { id: string; name: string; slug: string; role: string }[];
  active: ActiveOrganization | null;
  /** The active organisation's members (null: none active). */
  details: OrganizationDetails | null;
  /** The roles that may be handed on in the active organisation. */
  roles: string[];
  /** Whether the user may change roles and invite there (`hasPermission` said so). */
  managesMembers: boolean;
  /** The signed-in user's id: their own role is not theirs to change. */
  userId: string;
}

/**
 * The card.
 *
 * @example
 * ```ts
 * renderOrganizations({ organizations: await orgs.list(), active: null, details: null, roles: [], managesMembers: false, userId: "1" })
 * ```
 */
export function renderOrganizations(card: OrganizationsCard): Markup {
  const options = card.organizations.map(
    (organization) =>
      html`<option value="${organization.id}"${organization.id === card.active?.id ? html` selected` : null}>${organization.name} (${organization.role})</option>`,
  );
  const switcher =
    card.organizations.length > 0
      ? html`<form method="post" action="/organizations/active" class="actions" data-testid="organization-switcher"><label>Active organisation <select name="organizationId"><option value="">None</option>${options}</select></label><button class="button secondary" type="submit">Switch</button></form>`
      : html`<p>You are in no organisation yet.</p>`;
  const details = card.details;
  const roleOptions = (current: string) =>
    card.roles.map(
      (role) =>
        html`<option value="${role}"${role === current ? html` selected` : null}>${role}</option>`,
    );
  const memberRow = (member: { userId: string; role: string }) =>
    card.managesMembers && member.userId !== card.userId
      ? html`<li>${member.userId}: <form method="post" action="/organizations/role" class="inline" data-testid="member-role"><input type="hidden" name="organizationId" value="${details?.organization.id ?? ""}"><input type="hidden" name="userId" value="${member.userId}"><select name="role" aria-label="Role of ${member.userId}">${roleOptions(member.role)}</select><button class="button secondary" type="submit">Change role</button></form></li>`
      : html`<li>${member.userId}: ${member.role}</li>`;
  const invite =
    details && card.managesMembers
      ? html`<form method="post" action="/organizations/invite" class="actions" data-testid="organization-invite"><input type="hidden" name="organizationId" value="${details.organization.id}"><label>E-mail <input name="email" type="email" required maxlength="320"></label><label>Role <select name="role">${roleOptions("member")}</select></label><button class="button primary" type="submit">Invite</button></form>${
          details.invitations.length > 0
            ? html`<h3>Pending invitations</h3><ul data-testid="organization-invitations">${details.invitations.map((invitation) => html`<li>${invitation.email} (${invitation.role})</li>`)}</ul>`
            : null
        }`
      : null;
  const members = details
    ? html`<h3>Members of ${details.organization.name}</h3><ul data-testid="organization-members">${details.members.map(memberRow)}</ul>${invite}`
    : null;
  const create = html`<form method="post" action="/organizations/create" class="actions"><label>Name <input name="name" required maxlength="100"></label><label>Slug <input name="slug" required pattern="[a-z0-9-]+" maxlength="64"></label><button class="button primary" type="submit">Create organisation</button></form>`;
  return html`<section class="card" aria-labelledby="organizations-title" data-testid="organizations"><div class="card-head"><h2 id="organizations-title">Organisations</h2><p>From <code>@tessera/core/organizations</code></p></div>${switcher}${members}${create}</section>`;
}
