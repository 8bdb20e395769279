/**
 * The admin page: for an administrator (the demo user; `admin({ adminUserIds })` in
 * auth-config.ts), the users a page at a time with a search, and per user a ban or unban form
 * and an "Impersonate" button. Everything goes through `adminApi(actionRunner(req, config))` and
 * the admin action in the demo's /admin routes.
 */
import type { AdminUserPage } from "@tessera/core/admin";
import type { DemoFacts } from "./home.js";
import { demoFooter } from "./home.js";
import { html, type Markup } from "./html.js";
import { type NavUser, type RenderedPage, renderDocument } from "./layout.js";
import { demoStyles } from "./styles.js";

/** What the admin page shows. */
export interface AdminPage {
  user: NavUser;
  facts: DemoFacts;
  /** The page of users, or null when the signed-in user is no administrator. */
  listing: AdminUserPage | null;
  search: string;
  /** The administrator's own id: they can neither ban nor impersonate themselves. */
  adminId: string;
}

function userRow(user: AdminUserPage["users"][number], adminId: string): Markup {
  const hidden = html`<input type="hidden" name="userId" value="${user.id}">`;
  const own = user.id === adminId;
  const banControl = own
    ? null
    : user.ban
      ? html`<form method="post" action="/admin/unban" class="inline">${hidden}<button class="button secondary small" type="submit">Unban</button></form>`
      : html`<form method="post" action="/admin/ban" class="inline">${hidden}<input name="reason" placeholder="Reason" aria-label="Reason for banning ${user.email ?? user.id}" maxlength="200"><button class="button secondary small" type="submit">Ban</button></form>`;
  const impersonate =
    own || user.ban
      ? null
      : html`<form method="post" action="/admin/impersonate" class="inline">${hidden}<button class="button primary small" type="submit">Impersonate</button></form>`;
  const status = user.ban
    ? html` <strong data-testid="banned">banned${user.ban.reason ? html` (${user.ban.reason})` : null}</strong>`
    : null;
  return html`<li data-testid="admin-user" data-user-id="${user.id}">${user.email ?? user.name ?? user.id}${user.role ? html` · ${user.role}` : null}${status} ${banControl}${impersonate}</li>`;
}

/**
 * The page.
 *
 * @example
 * ```ts
 * send(res, renderAdmin({ user, facts, listing: await admin.listUsers(), search: "", adminId }))
 * ```
 */
export function renderAdmin(page: AdminPage): RenderedPage {
  const listing = page.listing;
  const body = listing
    ? html`<form method="get" action="/admin" class="actions" role="search"><label>Search <input name="search" value="${page.search}" maxlength="100"></label><button class="button secondary" type="submit">Search</button></form>
<p>${listing.total} user${listing.total === 1 ? "" : "s"}${page.search ? html` matching “${page.search}”` : null}.</p>
<ul data-testid="admin-users">${listing.users.map((user) => userRow(user, page.adminId))}</ul>${pager(listing, page.search)}`
    : html`<p data-testid="admin-refused">Only administrators see this page. In the demo, the demo user (demo@example.com) is the administrator.</p>`;
  return renderDocument({
    title: "Admin · Tessera demo",
    styles: demoStyles,
    status: listing ? 200 : 403,
    nav: { current: "admin", user: page.user },
    main: html`<section class="card" aria-labelledby="admin-title" data-testid="admin"><div class="card-head"><h2 id="admin-title">Users</h2><p>From <code>@tessera/core/admin</code></p></div>${body}</section>`,
    footer: demoFooter(page.facts),
  });
}

function pager(listing: AdminUserPage, search: string): Markup | null {
  const link = (offset: number, label: string) =>
    html`<a class="button secondary small" href="/admin?${new URLSearchParams({ search, offset: String(offset) }).toString()}">${label}</a>`;
  const previous =
    listing.offset > 0 ? link(Math.max(0, listing.offset - listing.limit), "Previous") : null;
  const next =
    listing.offset + listing.users.length < listing.total
      ? link(listing.offset + listing.limit, "Next")
      : null;
  return previous || next ? html`<p class="actions">${previous}${next}</p>` : null;
}
