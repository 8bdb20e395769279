/**
 * The home page: signed out, what the demo offers and how to try each method; signed in, the
 * session (user, expiry, strategy), the sign-in methods linked to the user, and recent sign-ins.
 */
import type { Session } from "@tessera/core";
import type { UserOverview } from "../database.js";
import { html, type Markup } from "./html.js";
import {
  icons,
  initialOf,
  type RenderedPage,
  renderDocument,
  sessionNavUser,
  signOutControl,
} from "./layout.js";
import { demoStyles } from "./styles.js";

/** A sign-in method the demo offers, as the home page describes it. */
export interface MethodInfo {
  /** Provider id (`password`, `email`, `demo-idp`, `passkey`, `github`, `google`). */
  id: string;
  name: string;
  kind: "password" | "email" | "oauth" | "passkey";
}

/** Facts about the running demo, shown to help people try it. */
export interface DemoFacts {
  strategy: "database" | "jwt";
  database: string;
  demoUser: { email: string; password: string };
  idp: { issuer: string; username: string; password: string };
  methods: MethodInfo[];
  /** GitHub/Google are shown as "set AUTH_…_ID to enable" when missing. */
  missingOAuth: { name: string; variable: string }[];
}

const ICONS = {
  password: icons.key,
  email: icons.mail,
  oauth: icons.idp,
  passkey: icons.passkey,
} as const;

function iconFor(method: MethodInfo): Markup {
  if (method.id === "github") return icons.github;
  if (method.id === "google") return icons.google;
  return ICONS[method.kind];
}

/** "in 30 days", "5 minutes ago". */
export function relativeTime(date: Date, now = Date.now()): string {
  const seconds = Math.round((date.getTime() - now) / 1000);
  const units: [Intl.RelativeTimeFormatUnit, number][] = [
    ["day", 86400],
    ["hour", 3600],
    ["minute", 60],
  ];
  const format = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
  for (const [unit, size] of units) {
    if (Math.abs(seconds) >= size) return format.format(Math.round(seconds / size), unit);
  }
  return Math.abs(seconds) < 10 ? "just now" : format.format(seconds, "second");
}

/** `2025-01-31 14:05 UTC`. */
export function formatDate(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

const SIGN_IN_AGAIN = "/auth/signin?callbackUrl=%2F";

function methodRow(method: MethodInfo, overview: UserOverview): Markup {
  let status: Markup | string;
  let linked = false;
  switch (method.kind) {
    case "password":
      linked = overview.hasPassword;
      status = linked
        ? `Password set for ${overview.email ?? "this user"}`
        : "No password (in this demo only the demo user has one)";
      break;
    case "email":
      linked = overview.emailVerified !== null;
      status = overview.email
        ? linked
          ? `${overview.email}, verified ${relativeTime(overview.emailVerified!)}`
          : `A link to ${overview.email} signs you in (and verifies the address)`
        : "This user has no e-mail address";
      break;
    case "passkey":
      linked = overview.passkeys > 0;
      status = linked
        ? `${overview.passkeys} passkey${overview.passkeys === 1 ? "" : "s"} registered`
        : "Create one on the sign-in page while signed in";
      break;
    case "oauth": {
      const account = overview.accounts.find((candidate) => candidate.provider === method.id);
      linked = account !== undefined;
      status = account
        ? html`Linked account <code>${account.providerAccountId}</code>${method.id === "demo-idp" ? html` · <a href="/token" data-testid="access-token-link">access token</a>` : null}`
        : "Sign in with it now to link it to this user";
      break;
    }
  }
  let action: Markup;
  if (method.kind === "email")
    action = html`<span class="badge${linked ? " ok" : ""}">${linked ? icons.check : null}${linked ? " Verified" : "Available"}</span>`;
  else if (linked) action = html`<span class="badge ok">${icons.check} Linked</span>`;
  else if (method.kind === "password") action = html`<span class="badge">Not available</span>`;
  else
    action = html`<a class="button secondary small" href="${SIGN_IN_AGAIN}">${method.kind === "passkey" ? "Add" : "Link"}</a>`;
  return html`<li data-method="${method.id}" data-linked="${linked ? "yes" : "no"}"><div class="method-icon">${iconFor(method)}</div><div class="method-text"><strong>${method.name}</strong><span>${status}</span></div>${action}</li>`;
}

function nameOf(methods: MethodInfo[], providerId: string): string {
  return methods.find((method) => method.id === providerId)?.name ?? providerId;
}

function signedIn(
  session: Session,
  overview: UserOverview | null,
  facts: DemoFacts,
  csrfToken: string | undefined,
): Markup {
  const user = session.user ?? {};
  const expires = new Date(session.expires);
  const sessionFacts = html`<dl class="facts">
<dt>User</dt><dd>${user.name ?? "(no name)"}</dd>
<dt>Email</dt><dd>${user.email ?? "(none)"}</dd>
<dt>User id</dt><dd><code>${user.id ?? "?"}</code></dd>
<dt>Strategy</dt><dd><span class="badge accent" data-testid="strategy">${facts.strategy}</span> <span class="muted small">${facts.strategy === "database" ? "a session row in SQLite; the cookie holds its token" : "an encrypted JWT in the cookie (A256CBC-HS512)"}</span></dd>
<dt>Expires</dt><dd data-testid="expires">${formatDate(expires)} <span class="muted">(${relativeTime(expires)})</span></dd>
<dt>Cookie</dt><dd><code>authjs.session-token</code> <span class="muted small">HttpOnly, SameSite=Lax</span></dd>
<dt>Adapter</dt><dd><code>@tessera/sql</code> <span class="muted small">SQLite (better-sqlite3)</span></dd>
</dl>`;
  const methods = overview
    ? html`<ul class="methods">${facts.methods.map((method) => methodRow(method, overview))}</ul>`
    : html`<p class="muted">This user is not in the database (a JWT session of a user deleted since).</p>`;
  const recent =
    overview && overview.recentSignIns.length > 0
      ? html`<ul class="methods">${overview.recentSignIns.map(
          (entry) =>
            html`<li><div class="method-text"><strong>${nameOf(facts.methods, entry.provider)}</strong><span>${formatDate(entry.at)}</span></div><span class="badge">${relativeTime(entry.at)}</span></li>`,
        )}</ul>`
      : html`<p class="muted">No sign-ins recorded yet.</p>`;
  return html`<section class="card profile-card">
<div class="profile"><div class="avatar" aria-hidden="true">${initialOf(user)}</div><div><h1 data-testid="welcome">Hello, ${user.name ?? user.email ?? "there"}</h1><p>You are signed in. This is your session, read on the server with <code>getSession(req, config)</code>.</p></div>
<div class="actions"><a class="button secondary" href="/auth/account" data-testid="account-link">Your account</a><a class="button secondary" href="/protected">Protected page</a>${signOutControl(csrfToken, "button primary")}</div></div>
</section>
<div class="grid">
<section class="card" aria-labelledby="session-title"><div class="card-head"><h2 id="session-title">Session</h2></div>${sessionFacts}</section>
<section class="card" aria-labelledby="methods-title"><div class="card-head"><h2 id="methods-title">Sign-in methods</h2><p>Sign in with another one to link it</p></div>${methods}</section>
</div>
<div class="grid">
<section class="card" aria-labelledby="recent-title"><div class="card-head"><h2 id="recent-title">Recent sign-ins</h2></div>${recent}</section>
<section class="card" aria-labelledby="raw-title"><div class="card-head"><h2 id="raw-title">GET /auth/session</h2><p><a href="/auth/session">open</a></p></div><pre data-testid="session-json">${JSON.stringify(session, null, 2)}</pre></section>
</div>`;
}

function methodCard(method: MethodInfo, facts: DemoFacts): Markup {
  const help: Record<MethodInfo["kind"], Markup> = {
    password: html`Use the demo account <code>${facts.demoUser.email}</code> / <code>${facts.demoUser.password}</code>, hashed with scrypt.`,
    email: html`Any address works: the link lands in the <a href="/dev/mailbox">demo mailbox</a>, a local SMTP catcher.`,
    oauth:
      method.id === "demo-idp"
        ? html`OpenID Connect against a local <code>oidc-provider</code> at <code>${facts.idp.issuer}</code>. Account <code>${facts.idp.username}</code> / <code>${facts.idp.password}</code>.`
        : html`OAuth with the real ${method.name}, configured from the environment.`,
    passkey: html`Create a passkey while signed in (or for a new account), then sign in with it alone. WebAuthn via <code>@simplewebauthn/server</code>.`,
  };
  return html`<section class="card feature"><div class="method-icon">${iconFor(method)}</div><div><h2>${method.name}</h2><p>${help[method.kind]}</p></div></section>`;
}

function signedOut(facts: DemoFacts): Markup {
  const cards = facts.methods.map((method) => methodCard(method, facts));
  const pairs: Markup[] = [];
  for (let index = 0; index < cards.length; index += 2)
    pairs.push(html`<div class="grid">${cards.slice(index, index + 2)}</div>`);
  const missing =
    facts.missingOAuth.length > 0
      ? html`<p class="muted small center oauth-hint">${facts.missingOAuth.map(
          (entry, index) =>
            html`${index > 0 ? " · " : ""}${entry.name}: set <code>${entry.variable}_ID</code> and <code>${entry.variable}_SECRET</code>`,
        )}</p>`
      : null;
  return html`<section class="hero">
<h1 data-testid="welcome">Every way to sign in, on your machine</h1>
<p>This is Tessera on Express with a SQLite database, sessions stored in ${facts.strategy === "database" ? "the database" : "encrypted JWT cookies"}. Nothing here needs an account anywhere or a network connection.</p>
<div class="actions"><a class="button primary" href="/auth/signin">Sign in</a><a class="button secondary" href="/protected">Try the protected page</a></div>
</section>
${pairs}
${missing}`;
}

/** Renders the home page for `session` (null when signed out). */
export function renderHome(p: {
  session: Session | null;
  overview: UserOverview | null;
  facts: DemoFacts;
  /** For the one-click sign-out forms. */
  csrfToken?: string;
  /** What the last sign-in did, when there is something to say (a user switch, say). */
  notice?: Markup | null;
  /** The signed-in user's devices (sessions), shown under the session. */
  devices?: Markup | null;
  /** The signed-in user's two-factor card, shown under the devices. */
  twoFactor?: Markup | null;
  organizations?: Markup | null;
}): RenderedPage {
  const { session, facts } = p;
  return renderDocument({
    title: session ? "Home · Tessera demo" : "Tessera demo",
    styles: demoStyles,
    nav: {
      current: "home",
      user: sessionNavUser(session, p.csrfToken),
    },
    main: html`${p.notice ? html`<div class="notice" role="status" data-testid="notice">${icons.info}<p>${p.notice}</p></div>` : null}${session ? signedIn(session, p.overview, facts, p.csrfToken) : signedOut(facts)}${session ? (p.devices ?? null) : null}${session ? (p.twoFactor ?? null) : null}${session ? (p.organizations ?? null) : null}`,
    footer: demoFooter(facts),
  });
}

/** The footer of every demo page: where the data lives and which strategy is on. */
export function demoFooter(facts: DemoFacts): Markup {
  const other = facts.strategy === "database" ? "jwt" : "database";
  return html`<p>Database <code>${facts.database}</code> · sessions: ${facts.strategy} (restart with <code>DEMO_SESSION_STRATEGY=${other}</code> to switch)</p>`;
}
