/**
 * The home page's "Organisations" card: the signed-in user's organisations with their role, a
 * switcher that makes one the session's active organisation, the members of the active one, and
 * a form that creates one. Everything goes through `organizationsApi(actionRunner(req, config))`
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
}

/**
 * The card.
 *
 * @example
 * ```ts
 * renderOrganizations({ organizations: await orgs.list(), active: null, details: null })
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
  const members = card.details
    ? html`<h3>Members of ${card.details.organization.name}</h3><ul data-testid="organization-members">${card.details.members.map((member) => html`<li>${member.userId}: ${member.role}</li>`)}</ul>`
    : null;
  const create = html`<form method="post" action="/organizations/create" class="actions"><label>Name <input name="name" required maxlength="100"></label><label>Slug <input name="slug" required pattern="[a-z0-9-]+" maxlength="64"></label><button class="button primary" type="submit">Create organisation</button></form>`;
  return html`<section class="card" aria-labelledby="organizations-title" data-testid="organizations"><div class="card-head"><h2 id="organizations-title">Organisations</h2><p>From <code>@tessera/core/organizations</code></p></div>${switcher}${members}${create}</section>`;
}
