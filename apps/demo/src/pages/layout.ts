/**
 * The document shell of the demo's pages (navigation bar, content, footer), the icons they use,
 * and the security headers every page is served with.
 */
import type { Session } from "@tessera/core";
import { impersonatorOf } from "@tessera/core/admin";
import { html, type Markup, trusted } from "./html.js";
import type { Stylesheet } from "./styles.js";

/** A rendered page: its HTML and the headers to send with it. */
export interface RenderedPage {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Who is signed in, for the navigation bar. */
export interface NavUser {
  name?: string | null;
  email?: string | null;
  /** The CSRF token for the bar's sign-out form; without it, the bar links to /auth/signout. */
  csrfToken?: string;
  /** The administrator acting as this user (an impersonated session), or null. */
  impersonatedBy?: string | null;
}

/**
 * The navigation bar's user for a signed-in `session`: with the administrator who impersonates
 * them, so that every page shows the banner.
 *
 * @example
 * ```ts
 * renderDocument({ ..., nav: { current: "home", user: sessionNavUser(session, csrfToken) } })
 * ```
 */
export function sessionNavUser(session: Session | null, csrfToken?: string): NavUser | null {
  if (!session?.user) return null;
  return { ...session.user, csrfToken, impersonatedBy: impersonatorOf(session) };
}

/** What {@link renderDocument} needs. */
export interface DocumentOptions {
  title: string;
  styles: Stylesheet;
  main: Markup;
  /** `narrow` centres a single card (sign-in style pages). */
  layout?: "wide" | "narrow";
  /** The navigation bar; omitted on the identity provider's pages. */
  nav?: { current: "home" | "protected" | "mailbox" | "admin" | "none"; user: NavUser | null };
  footer?: Markup;
  status?: number;
  /** Extra `form-action` sources (where a form's redirects may lead). */
  formTargets?: readonly string[];
  /** Reload the page every n seconds (the empty mailbox waits for mail this way, without script). */
  refreshSeconds?: number;
}

/** The Tessera mark: four tiles of a mosaic. */
export const logoSvg = `<svg width="28" height="28" viewBox="0 0 28 28" aria-hidden="true"><rect x="1" y="1" width="12" height="12" rx="3.5" fill="#4f46e5"/><rect x="15" y="1" width="12" height="12" rx="3.5" fill="#818cf8"/><rect x="1" y="15" width="12" height="12" rx="3.5" fill="#a5b4fc"/><rect x="15" y="15" width="12" height="12" rx="3.5" fill="#ec4899"/></svg>`;

/** The mark as a data: URL, for `theme.logo` of the built-in pages. */
export const logoDataUrl = `data:image/svg+xml,${encodeURIComponent(
  logoSvg
    .replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ')
    .replace(/ aria-hidden="true"/, ""),
)}`;

const stroke = (paths: string, size = 18) =>
  trusted(
    `<svg width="${size}" height="${size}" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="1.75" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true">${paths}</svg>`,
  );

/** Static icons, drawn for the demo. */
export const icons = {
  key: stroke(
    '<circle cx="7.5" cy="15.5" r="4.5"/><path d="m10.7 12.3 9.8-9.8"/><path d="m17 6 3 3"/><path d="m14.5 8.5 2 2"/>',
  ),
  mail: stroke('<rect x="2.5" y="4.5" width="19" height="15" rx="2.5"/><path d="m3 7 9 6 9-6"/>'),
  idp: stroke(
    '<circle cx="12" cy="12" r="9.5"/><path d="M2.5 12h19"/><path d="M12 2.5a14.5 14.5 0 0 1 0 19a14.5 14.5 0 0 1 0-19"/>',
  ),
  passkey: stroke(
    '<circle cx="9" cy="8" r="4"/><path d="M2.5 20a6.5 6.5 0 0 1 10.3-5.3"/><circle cx="18" cy="14" r="2.5"/><path d="M18 16.5V21l1.5-1.2"/>',
  ),
  github: stroke(
    '<path d="M9 19c-4.3 1.4-4.3-2.5-6-3m12 5v-3.5c0-1 .1-1.4-.5-2 2.8-.3 5.5-1.4 5.5-6a4.6 4.6 0 0 0-1.3-3.2 4.2 4.2 0 0 0-.1-3.2s-1.1-.3-3.5 1.3a12.3 12.3 0 0 0-6.2 0C6.5 2.8 5.4 3.1 5.4 3.1a4.2 4.2 0 0 0-.1 3.2A4.6 4.6 0 0 0 4 9.5c0 4.6 2.7 5.7 5.5 6-.6.6-.6 1.2-.5 2V21"/>',
  ),
  google: stroke(
    '<path d="M21 12.2c0-.7-.1-1.3-.2-1.9H12v3.6h5.1a4.4 4.4 0 0 1-1.9 2.9v2.4h3.1c1.8-1.7 2.7-4.1 2.7-7Z"/><path d="M12 21.5c2.6 0 4.7-.9 6.3-2.3l-3.1-2.4c-.9.6-1.9.9-3.2.9-2.5 0-4.5-1.7-5.3-3.9H3.5v2.5a9.5 9.5 0 0 0 8.5 5.2Z"/><path d="M6.7 13.8a5.7 5.7 0 0 1 0-3.6V7.7H3.5a9.5 9.5 0 0 0 0 8.6Z"/><path d="M12 6.3c1.4 0 2.6.5 3.6 1.4l2.7-2.7A9.5 9.5 0 0 0 3.5 7.7l3.2 2.5C7.5 8 9.5 6.3 12 6.3Z"/>',
  ),
  lock: stroke(
    '<rect x="3.5" y="10.5" width="17" height="11" rx="2.5"/><path d="M7.5 10.5V7a4.5 4.5 0 0 1 9 0v3.5"/>',
  ),
  inbox: stroke(
    '<path d="M22 12h-6l-2 3h-4l-2-3H2"/><path d="M5.5 5.1 2 12v6a2 2 0 0 0 2 2h16a2 2 0 0 0 2-2v-6l-3.5-6.9A2 2 0 0 0 16.8 4H7.2a2 2 0 0 0-1.7 1.1z"/>',
    22,
  ),
  check: stroke('<path d="M20 6 9 17l-5-5"/>', 14),
  info: stroke('<circle cx="12" cy="12" r="10"/><path d="M12 16v-4"/><path d="M12 8h.01"/>', 16),
} as const;

/** The initial shown in an avatar. */
export function initialOf(user: NavUser): string {
  const source = (user.name ?? user.email ?? "?").trim();
  return ([...source][0] ?? "?").toUpperCase();
}

/**
 * The sign-out control: with a CSRF token, a form posting to Tessera's sign-out action (one
 * click); without one, a link to its confirmation page.
 */
export function signOutControl(csrfToken: string | undefined, classes: string): Markup {
  if (!csrfToken) return html`<a class="${classes}" href="/auth/signout">Sign out</a>`;
  return html`<form class="inline-form" method="post" action="/auth/signout"><input type="hidden" name="csrfToken" value="${csrfToken}"><input type="hidden" name="callbackUrl" value="/"><button class="${classes}" type="submit">Sign out</button></form>`;
}

function navBar(nav: NonNullable<DocumentOptions["nav"]>): Markup {
  const link = (key: typeof nav.current, href: string, label: string) =>
    html`<a href="${href}"${key === nav.current ? trusted(' aria-current="page"') : null}>${label}</a>`;
  const right = nav.user
    ? html`<div class="nav-user"><span>${nav.user.email ?? nav.user.name ?? ""}</span><div class="avatar small" aria-hidden="true">${initialOf(nav.user)}</div>${signOutControl(nav.user.csrfToken, "button secondary small")}</div>`
    : html`<a class="button primary small" href="/auth/signin">Sign in</a>`;
  return html`<div class="nav-wrap"><nav class="nav" aria-label="Main">
<a class="brand" href="/">${trusted(logoSvg)}<span>Tessera <small>demo</small></span></a>
<div class="nav-links">${link("home", "/", "Home")}${link("protected", "/protected", "Protected")}${link("mailbox", "/dev/mailbox", "Mailbox")}${nav.user ? link("admin", "/admin", "Admin") : null}</div>
${right}
</nav></div>${nav.user?.impersonatedBy ? impersonationBanner(nav.user) : null}`;
}

/** Every page of an impersonated session says so, with the way back to the administrator. */
function impersonationBanner(user: NavUser): Markup {
  return html`<div class="notice impersonation" role="status" data-testid="impersonation-banner">${icons.info}<p>You are impersonating ${user.email ?? user.name ?? "this user"} (administrator ${user.impersonatedBy ?? ""}).</p><form method="post" action="/admin/stop-impersonating" class="inline-form"><button class="button secondary small" type="submit">Stop impersonating</button></form></div>`;
}

/**
 * The Content-Security-Policy of the demo's pages: no script at all, the stylesheet by hash,
 * forms only to ourselves (plus `formTargets`), never framed.
 */
export function contentSecurityPolicy(
  styles: Stylesheet,
  formTargets: readonly string[] = [],
): string {
  return [
    "default-src 'none'",
    `style-src ${styles.hash}`,
    "img-src 'self' data:",
    `form-action ${["'self'", ...formTargets].join(" ")}`,
    "base-uri 'none'",
    // Clickjacking defence: nobody may frame these pages.
    "frame-ancestors 'none'",
  ].join("; ");
}

/** The headers every demo page is sent with. */
export function pageHeaders(csp: string): Record<string, string> {
  return {
    "Content-Type": "text/html; charset=utf-8",
    "Content-Security-Policy": csp,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    // Pages show who is signed in: never from a shared cache.
    "Cache-Control": "private, no-store",
  };
}

/** Renders a complete page. */
export function renderDocument(options: DocumentOptions): RenderedPage {
  const body = html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="robots" content="noindex, nofollow">
${options.refreshSeconds ? html`<meta http-equiv="refresh" content="${options.refreshSeconds}">` : null}
<title>${options.title}</title>
<link rel="icon" href="${logoDataUrl}">
<style>${trusted(options.styles.css)}</style>
</head>
<body>
${options.nav ? navBar(options.nav) : null}
<main${options.layout === "narrow" ? trusted(' class="narrow"') : null}>
${options.main}
</main>
${options.footer ? html`<footer class="footer">${options.footer}</footer>` : null}
</body>
</html>
`;
  return {
    status: options.status ?? 200,
    headers: pageHeaders(contentSecurityPolicy(options.styles, options.formTargets)),
    body: body.value,
  };
}
