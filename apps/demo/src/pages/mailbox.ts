/**
 * The demo mailbox (/dev/mailbox): every message the local SMTP catcher received, newest first,
 * with the sign-in link as a button. Mail content is data from outside the page and is escaped
 * like everything else; the HTML part is only ever shown on its own sandboxed page.
 */
import type { CaughtMail } from "../mailbox.js";
import { type DemoFacts, demoFooter, formatDate, relativeTime } from "./home.js";
import { html, httpUrl, type Markup } from "./html.js";
import { icons, type NavUser, type RenderedPage, renderDocument } from "./layout.js";
import { demoStyles } from "./styles.js";

/** The http(s) links in a text, in order, without duplicates. */
export function linksIn(text: string): string[] {
  const found = text.match(/https?:\/\/[^\s<>"')\]]+/g) ?? [];
  return [...new Set(found.map((link) => httpUrl(link)).filter((link) => link !== undefined))];
}

/** The links of a mail that lead back to this demo (the only ones shown as buttons). */
export function ownLinksIn(mail: CaughtMail, origin: string): string[] {
  // The catcher accepts mail from anyone on this machine, and a button to a foreign site would
  // lend it the demo's look.
  return linksIn(mail.text).filter((link) => new URL(link).origin === origin);
}

function mailCard(mail: CaughtMail, origin: string, usedLinks: ReadonlySet<string>): Markup {
  const ownLinks = ownLinksIn(mail, origin);
  const buttons = ownLinks.map((link, index) => {
    // A used or expired link stays visible (opening it shows why it fails) but no longer looks fresh.
    if (usedLinks.has(link))
      return html`<a class="button secondary used" href="${link}" data-testid="mail-link" data-used="yes">Link used or expired</a>`;
    return html`<a class="button ${index === 0 ? "primary" : "secondary"}" href="${link}" data-testid="mail-link" data-used="no">${ownLinks.length === 1 ? "Open the sign-in link" : `Open link ${index + 1}`}</a>`;
  });
  return html`<article class="card mail" data-mail-id="${mail.id}">
<div class="mail-head"><div><h2>${mail.subject}</h2><p class="mail-meta">From ${mail.from || "(unknown)"} to ${mail.to.join(", ")}</p></div><span class="badge" title="${formatDate(mail.receivedAt)}">${relativeTime(mail.receivedAt)}</span></div>
<div class="mail-body">
${buttons.length > 0 || mail.html ? html`<div class="actions">${buttons}${mail.html ? html`<a class="button secondary" href="/dev/mailbox/${mail.id}">View as HTML</a>` : null}</div>` : null}
<details${buttons.length === 0 ? html` open` : null}><summary>Plain-text version</summary><pre>${mail.text || "(empty)"}</pre></details>
</div>
</article>`;
}

/** Renders the inbox. `origin` is the demo's origin as the browser sees it. */
export function renderMailbox(p: {
  mails: readonly CaughtMail[];
  origin: string;
  user: NavUser | null;
  facts: DemoFacts;
  /** Sign-in links that were used already or expired. */
  usedLinks?: ReadonlySet<string>;
}): RenderedPage {
  const empty = p.mails.length === 0;
  const list = empty
    ? html`<section class="card empty"><div class="method-icon">${icons.inbox}</div><h2>No mail yet</h2><p>Sign in with <a href="/auth/signin">Email</a> and the message appears here. This page reloads itself while it waits.</p></section>`
    : html`${p.mails.map((mail) => mailCard(mail, p.origin, p.usedLinks ?? new Set()))}`;
  return renderDocument({
    title: "Mailbox · Tessera demo",
    styles: demoStyles,
    nav: { current: "mailbox", user: p.user },
    refreshSeconds: empty ? 3 : undefined,
    main: html`<section class="hero">
<h1>Mailbox</h1>
<p>A local SMTP server started by the demo catches every e-mail Tessera sends, so magic links work without a mail account. Messages live in memory until the demo stops.</p>
</section>
${list}`,
    footer: demoFooter(p.facts),
  });
}

/**
 * The HTML part of a message, as its own document. The policy runs it in a sandbox (an opaque
 * origin, no script, no forms, no plugins) and loads nothing from anywhere, so hostile mail can
 * neither run code as the demo nor read its cookies.
 */
export function renderMailHtml(mail: CaughtMail): RenderedPage {
  return {
    status: 200,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy":
        "sandbox allow-top-navigation-by-user-activation; default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'",
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "no-referrer",
      "Cache-Control": "private, no-store",
    },
    body: mail.html,
  };
}

/** Where Tessera sends the browser after mailing a link (`pages.verifyRequest`). */
/**
 * The demo's "check your email" page. `codeForm` is given in the browser that asked for the
 * e-mail (it holds the e-mail-code cookie): the 6-digit code from the e-mail signs in here.
 */
export function renderCheckEmail(
  facts: DemoFacts,
  user: NavUser | null,
  codeForm?: { csrfToken: string; provider: string },
): RenderedPage {
  const form = codeForm
    ? html`<form class="stack" method="post" action="/auth/callback/${codeForm.provider}" data-testid="email-code-form">
<input type="hidden" name="csrfToken" value="${codeForm.csrfToken}">
<label for="code">Or enter the 6-digit code from the email</label>
<input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]*" maxlength="7" required>
<button type="submit" class="button primary block">Sign in with the code</button>
</form>`
    : null;
  return renderDocument({
    title: "Check your email · Tessera demo",
    styles: demoStyles,
    layout: "narrow",
    nav: { current: "none", user },
    main: html`<div class="card login-card">
<header><div class="avatar" aria-hidden="true">${icons.mail}</div><h1>Check your email</h1><p>A sign-in link is on its way.</p></header>
<p class="center muted">In this demo, e-mail goes to a local mail catcher instead of the internet. Open it and click the link.</p>
${form}
<div class="stack"><a class="button primary block" href="/dev/mailbox" data-testid="open-mailbox">Open the demo mailbox</a><a class="button secondary block" href="/auth/signin">Back to sign in</a></div>
</div>`,
    footer: demoFooter(facts),
  });
}
