/**
 * The home page's "Devices" card: the signed-in user's sessions from `listSessions` (database
 * strategy), each with "Sign out this device", and "Sign out everywhere else". The forms post to
 * the demo's own `/devices` route, which calls `revokeSession` / `revokeOtherSessions`.
 */
import type { ListedSession } from "@tessera/core";
import { formatDate, relativeTime } from "./home.js";
import { html, type Markup } from "./html.js";

function revokeForm(fields: Record<string, string>, label: string, classes: string): Markup {
  return html`<form class="inline-form" method="post" action="/devices">${Object.entries(
    fields,
  ).map(
    ([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`,
  )}<button class="${classes}" type="submit">${label}</button></form>`;
}

function deviceRow(session: ListedSession): Markup {
  const seen = session.lastSeenAt ?? session.createdAt;
  const detail = [
    session.ip ? `IP ${session.ip}` : null,
    seen ? `active ${relativeTime(new Date(seen))}` : null,
    session.createdAt ? `signed in ${formatDate(new Date(session.createdAt))}` : null,
  ]
    .filter(Boolean)
    .join(" · ");
  const label = session.current ? "Sign out this device" : "Sign out";
  return html`<li data-testid="device" data-current="${session.current ? "yes" : "no"}"><div class="method-text"><strong title="${session.userAgent ?? ""}">${session.device ?? session.userAgent ?? "Unknown browser"}</strong><span>${detail}</span></div>${session.current ? html`<span class="badge ok">This device</span>` : null}${revokeForm({ id: session.id }, label, "button secondary small")}</li>`;
}

/**
 * The devices card, or a note when sessions cannot be listed (JWT strategy: nothing is stored).
 *
 * @example
 * ```ts
 * renderDevices(await listSessions(req, authConfig), "database")
 * ```
 */
export function renderDevices(
  sessions: ListedSession[] | null,
  strategy: "database" | "jwt",
): Markup {
  const body =
    strategy !== "database"
      ? html`<p class="muted">With JWT sessions nothing is stored per device, so there is nothing to list. Signing out still ends this cookie everywhere: the demo sets <code>jwt.revocation</code>, so its id goes on a denylist (<code>sqlStore</code>). Run the demo with <code>DEMO_SESSION_STRATEGY=database</code> to see your devices.</p>`
      : html`<ul class="methods devices">${(sessions ?? []).map(deviceRow)}</ul>`;
  const others = (sessions ?? []).some((session) => !session.current);
  return html`<section class="card" aria-labelledby="devices-title" data-testid="devices"><div class="card-head"><h2 id="devices-title">Devices</h2><p>Your sessions, from <code>GET /auth/sessions</code></p></div>${body}${others ? html`<div class="actions">${revokeForm({ others: "true" }, "Sign out everywhere else", "button secondary")}</div>` : null}</section>`;
}
