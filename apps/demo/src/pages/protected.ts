/**
 * The protected page: only signed-in users see it; the route redirects everyone else to the
 * sign-in page with a callback URL back here.
 */
import type { Session } from "@tessera/core";
import { type DemoFacts, demoFooter, formatDate, relativeTime } from "./home.js";
import { html } from "./html.js";
import { icons, type RenderedPage, renderDocument, sessionNavUser } from "./layout.js";
import { demoStyles } from "./styles.js";

/** Renders the protected page for a signed-in `session`. */
export function renderProtected(
  session: Session,
  facts: DemoFacts,
  csrfToken?: string,
): RenderedPage {
  const expires = new Date(session.expires);
  return renderDocument({
    title: "Protected · Tessera demo",
    styles: demoStyles,
    nav: { current: "protected", user: sessionNavUser(session, csrfToken) },
    main: html`<section class="card">
<div class="feature"><div class="method-icon">${icons.lock}</div><div>
<h2 data-testid="protected-title">Protected page</h2>
<p>Only signed-in users get here. The route calls <code>getSession(req, config)</code> and redirects to <code>/auth/signin?callbackUrl=/protected</code> when it returns <code>null</code>.</p>
</div></div>
</section>
<section class="card">
<dl class="facts">
<dt>Signed in as</dt><dd data-testid="protected-user">${session.user?.email ?? session.user?.name ?? "?"}</dd>
<dt>Session expires</dt><dd>${formatDate(expires)} <span class="muted">(${relativeTime(expires)})</span></dd>
</dl>
</section>`,
    footer: demoFooter(facts),
  });
}
