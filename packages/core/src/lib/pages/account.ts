/**
 * The built-in account page (`<basePath>/account`), in the shell and style of the sign-in page
 * (light and dark, narrow screens): profile, sessions and devices, linked sign-in methods,
 * passkeys, two-factor authentication and password, each shown only when the configuration
 * enables it. Every text comes from the account dictionary (lib/i18n/account/) in the request's language;
 * every value is escaped by `html`.
 *
 * Forms post with the CSRF token: the name and unlink forms to the account action (which
 * redirects back here), the session and passkey forms to the sessions and passkeys actions
 * through the page's script (they answer JSON), "Add a passkey" through the WebAuthn helper of
 * the sign-in page, and "Link" to the provider's sign-in (linking happens in its callback).
 */

import type { ResponseInternal } from "../../types.js";
import type { AccountOverview } from "../account/types.js";
import type { AccountMessages } from "../i18n/account/index.js";
import type { Translator } from "../i18n/messages.js";
import type { ListedSession } from "../session/devices.js";
import type { ListedPasskey } from "../webauthn/passkeys.js";
import { webauthnScriptElement } from "../webauthn/script.js";
import { ACCOUNT_SCRIPT, ACCOUNT_SCRIPT_HASH } from "./account-script.js";
import { html, raw, type SafeHtml } from "./html.js";
import { actionBase, hiddenFields, icons, renderPage } from "./layout.js";
import type { PageTheme } from "./types.js";

/** What the account page needs. */
export interface AccountPageParams {
  url: URL;
  theme: PageTheme;
  /** The account page's texts in the request's language (`<html lang dir>` too). */
  t: Translator<AccountMessages>;
  csrfToken: string;
  overview: AccountOverview;
  /** The WebAuthn provider that adds passkeys (its id and callback URL), when there is one. */
  passkeyProvider?: { id: string; callbackUrl: string };
  /** Origins the link forms may redirect to (OAuth authorization endpoints). */
  formTargets: readonly string[];
  /** Texts from the `notice` and `error` query parameters, already looked up by key. */
  notice?: string;
  error?: string;
  /** After a name change: tell the authenticators the new name. */
  signalDetails?: boolean;
}

const CSS = `
.card { max-width: 560px; }
.section { border-top: 1px solid var(--border); padding: 20px 0 4px; }
.section h2 { font-size: 15px; font-weight: 600; margin: 0 0 4px; }
.section .hint, .section .message { text-align: start; margin: 0 0 12px; }
.alert[hidden] { display: none; }
.rows { list-style: none; margin: 0 0 12px; padding: 0; display: grid; gap: 8px; }
.row { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: 8px; padding: 10px 12px; border: 1px solid var(--border); border-radius: 10px; }
.row-main { min-width: 0; flex: 1 1 200px; }
.row-title { font-size: 14px; font-weight: 500; overflow-wrap: anywhere; }
.row-meta { font-size: 12px; color: var(--muted); overflow-wrap: anywhere; }
.row form { margin: 0; }
.row .button { width: auto; padding: 6px 12px; font-size: 13px; min-height: 0; }
.badge { display: inline-block; font-size: 11px; font-weight: 600; padding: 1px 6px; margin-inline-start: 6px; border-radius: 999px; border: 1px solid var(--border); color: var(--muted); }
.inline { display: flex; flex-wrap: wrap; gap: 8px; align-items: flex-end; }
.inline .field { flex: 1 1 180px; margin: 0; }
.inline .button { width: auto; }
.rename { display: flex; gap: 6px; flex-wrap: wrap; }
.rename input { width: 10em; max-width: 100%; padding: 6px 8px; font-size: 13px; }
.links { display: flex; flex-wrap: wrap; gap: 8px 16px; font-size: 14px; margin: 0 0 12px; }
.stack-gap { display: grid; gap: 8px; margin: 0 0 12px; }
.section .webauthn { margin: 0 0 12px; }
`;

function alertBox(error: string | undefined): SafeHtml {
  // Always present (hidden when empty): the page's script writes refusals into it.
  return html`<div class="alert" role="alert" id="account-alert"${error ? "" : raw(" hidden")}>${icons.alert}<p>${error ?? ""}</p></div>`;
}

type AccountTranslator = Translator<AccountMessages>;
type AccountMessageKey = keyof AccountMessages & string;

function day(t: AccountTranslator, iso: string | null): SafeHtml {
  return iso
    ? html`<time dir="ltr" datetime="${iso}">${iso.slice(0, 10)}</time>`
    : html`${t("account.never")}`;
}

function section(
  t: AccountTranslator,
  id: string,
  heading: AccountMessageKey,
  body: SafeHtml,
  hint?: AccountMessageKey,
) {
  return html`<section class="section" id="${id}" aria-labelledby="${id}-heading">
<h2 id="${id}-heading">${t(heading)}</h2>
${hint ? html`<p class="hint">${t(hint)}</p>` : null}
${body}
</section>`;
}

function profileSection(p: AccountPageParams, base: string): SafeHtml {
  const t = p.t;
  const { profile, password } = p.overview;
  const email = profile.email
    ? html`<span dir="ltr">${profile.email}</span>${profile.emailVerified ? null : html`<span class="badge">${t("account.emailUnverified")}</span>`}`
    : html`${t("account.emailNone")}`;
  return section(
    p.t,
    "profile",
    "account.profileHeading",
    html`<form class="inline" action="${base}/account/profile" method="post">
<input type="hidden" name="csrfToken" value="${p.csrfToken}">
<div class="field"><label for="name">${t("account.nameLabel")}</label><input id="name" name="name" type="text" autocomplete="name" maxlength="100" value="${profile.name ?? ""}"></div>
<button type="submit" class="button secondary">${t("account.saveName")}</button>
</form>
<p class="message" data-testid="account-email"><strong>${t("account.emailLabel")}:</strong> ${email}</p>
${password?.changeEmailUrl ? html`<div class="links"><a href="${password.changeEmailUrl}">${t("account.changeEmail")}</a></div>` : null}`,
  );
}

function sessionRow(session: ListedSession, p: AccountPageParams, base: string): SafeHtml {
  const t = p.t;
  const name = session.device ?? session.userAgent ?? t("account.unknownDevice");
  const seen = session.lastSeenAt ?? session.createdAt;
  return html`<li class="row" data-session-id="${session.id}">
<div class="row-main"><div class="row-title">${name}${session.current ? html`<span class="badge">${t("account.thisDevice")}</span>` : null}</div>
<div class="row-meta">${t("account.lastSeen")}: ${day(t, seen)}${session.ip ? html` · <span dir="ltr">${session.ip}</span>` : null}</div></div>
${
  session.current
    ? null
    : html`<form action="${base}/sessions/revoke" method="post" data-account-fetch data-failed="${t("account.requestFailed")}">
<input type="hidden" name="csrfToken" value="${p.csrfToken}"><input type="hidden" name="id" value="${session.id}">
<button type="submit" class="button secondary">${t("account.endSession")}</button></form>`
}
</li>`;
}

function sessionsSection(p: AccountPageParams, base: string): SafeHtml | null {
  const t = p.t;
  const sessions = p.overview.sessions;
  if (!sessions) return null;
  const others = sessions.some((session) => !session.current);
  return section(
    p.t,
    "sessions",
    "account.sessionsHeading",
    html`<ul class="rows">${sessions.map((session) => sessionRow(session, p, base))}</ul>
${
  others
    ? html`<form class="stack-gap" action="${base}/sessions/revoke" method="post" data-account-fetch data-failed="${t("account.requestFailed")}">
<input type="hidden" name="csrfToken" value="${p.csrfToken}"><input type="hidden" name="others" value="true">
<button type="submit" class="button secondary">${t("account.endOtherSessions")}</button></form>`
    : null
}`,
    "account.sessionsHint",
  );
}

function methodsSection(p: AccountPageParams, base: string, accountUrl: string): SafeHtml | null {
  const t = p.t;
  const { linkedAccounts, linkableProviders } = p.overview;
  if (!linkedAccounts && linkableProviders.length === 0) return null;
  const rows = (linkedAccounts ?? []).map(
    (account) => html`<li class="row" data-provider="${account.provider}">
<div class="row-main"><div class="row-title">${account.providerName}</div>
${account.canUnlink ? null : html`<div class="row-meta">${t("account.lastMethod")}</div>`}</div>
${
  account.canUnlink
    ? html`<form action="${base}/account/unlink" method="post">
<input type="hidden" name="csrfToken" value="${p.csrfToken}"><input type="hidden" name="provider" value="${account.provider}"><input type="hidden" name="providerAccountId" value="${account.providerAccountId}">
<button type="submit" class="button secondary">${t("account.unlink")}</button></form>`
    : null
}
</li>`,
  );
  const links = linkableProviders.map(
    (
      provider,
    ) => html`<form action="${provider.signinUrl}" method="post" data-link-provider="${provider.id}">
${hiddenFields(p.csrfToken, accountUrl)}
<button type="submit" class="button secondary">${t("account.linkProvider", { provider: provider.name })}</button></form>`,
  );
  return section(
    p.t,
    "methods",
    "account.methodsHeading",
    html`${linkedAccounts && linkedAccounts.length > 0 ? html`<ul class="rows">${rows}</ul>` : html`<p class="hint">${t("account.noLinkedAccounts")}</p>`}
${links.length > 0 ? html`<div class="stack-gap">${links}</div>` : null}`,
    "account.methodsHint",
  );
}

function passkeyRow(passkey: ListedPasskey, p: AccountPageParams, base: string): SafeHtml {
  const t = p.t;
  const failed = t("account.requestFailed");
  return html`<li class="row" data-passkey-id="${passkey.id}">
<div class="row-main"><div class="row-title">${passkey.name ?? t("account.unnamedPasskey")}<span class="badge">${passkey.backedUp ? t("account.synced") : t("account.thisDeviceOnly")}</span></div>
<div class="row-meta">${t("account.created")}: ${day(t, passkey.createdAt)} · ${t("account.lastUsed")}: ${day(t, passkey.lastUsedAt)}</div></div>
<form class="rename" action="${base}/passkeys/rename" method="post" data-account-fetch data-failed="${failed}">
<input type="hidden" name="csrfToken" value="${p.csrfToken}"><input type="hidden" name="id" value="${passkey.id}">
<input name="name" type="text" maxlength="64" aria-label="${t("account.passkeyName")}" value="${passkey.name ?? ""}">
<button type="submit" class="button secondary">${t("account.rename")}</button></form>
<form action="${base}/passkeys/delete" method="post" data-account-fetch data-failed="${failed}" data-last-way-in="${t("account.passkeyLastWayIn")}">
<input type="hidden" name="csrfToken" value="${p.csrfToken}"><input type="hidden" name="id" value="${passkey.id}">
<button type="submit" class="button secondary">${t("account.delete")}</button></form>
</li>`;
}

function passkeysSection(p: AccountPageParams, base: string, accountUrl: string): SafeHtml | null {
  const t = p.t;
  const listing = p.overview.passkeys;
  if (!listing) return null;
  const provider = p.passkeyProvider;
  const add = provider
    ? html`<section class="webauthn" id="webauthn-${provider.id}" data-provider-id="${provider.id}"
  data-webauthn-options-url="${base}/webauthn-options/${encodeURIComponent(provider.id)}" data-callback-url="${provider.callbackUrl}" data-conditional-ui="false">
<form class="stack" action="${provider.callbackUrl}" method="post" data-provider-id="${provider.id}">
${hiddenFields(p.csrfToken, accountUrl)}
<input type="hidden" name="action" value=""><input type="hidden" name="data" value="">
<button type="submit" class="button secondary" data-provider-id="${provider.id}" data-action="register">${t("account.addPasskey")}</button>
</form></section>`
    : null;
  const body = html`<div data-passkey-signals="${JSON.stringify(listing.signals)}"${p.signalDetails ? raw(" data-signal-details") : ""}>
${
  listing.passkeys.length > 0
    ? html`<ul class="rows">${listing.passkeys.map((passkey) => passkeyRow(passkey, p, base))}</ul>`
    : html`<p class="hint">${t("account.noPasskeys")}</p>`
}
${add}</div>`;
  return section(p.t, "passkeys", "account.passkeysHeading", body, "account.passkeysHint");
}

function twoFactorSection(p: AccountPageParams): SafeHtml | null {
  const t = p.t;
  const twoFactor = p.overview.twoFactor;
  if (!twoFactor) return null;
  return section(
    p.t,
    "two-factor",
    "account.twoFactorHeading",
    html`<p class="message">${
      twoFactor.enabled
        ? t("account.twoFactorOn", { count: String(twoFactor.backupCodesLeft) })
        : t("account.twoFactorOff")
    }</p>
<div class="links"><a href="${twoFactor.manageUrl}">${t(twoFactor.enabled ? "account.manageTwoFactor" : "account.setUpTwoFactor")}</a></div>`,
  );
}

function passwordSection(p: AccountPageParams): SafeHtml | null {
  const t = p.t;
  const password = p.overview.password;
  if (!password) return null;
  return section(
    p.t,
    "password",
    "account.passwordHeading",
    html`<p class="message">${t(password.set ? "account.passwordSet" : "account.passwordNotSet")}</p>
<div class="links">${password.set ? html`<a href="${password.changeUrl}">${t("account.changePassword")}</a><a href="${password.deleteUrl}">${t("account.deleteAccount")}</a>` : null}</div>`,
  );
}

/**
 * Renders the account page of the signed-in user.
 *
 * @example
 * ```ts
 * renderAccountPage({ url, theme, t: accountTranslator(ctx), csrfToken, overview: await readAccountOverview(ctx, user), formTargets: [] })
 * ```
 */
export function renderAccountPage(p: AccountPageParams): ResponseInternal<string> {
  const t = p.t;
  const base = actionBase(p.url);
  const accountUrl = `${base}/account`;
  const content = html`${alertBox(p.error)}${p.notice ? html`<div class="notice" role="status"><p>${p.notice}</p></div>` : null}
${profileSection(p, base)}${sessionsSection(p, base)}${methodsSection(p, base, accountUrl)}${passkeysSection(p, base, accountUrl)}${twoFactorSection(p)}${passwordSection(p)}`;
  const scripts = html`<script>${raw(ACCOUNT_SCRIPT)}</script>${p.passkeyProvider ? raw(webauthnScriptElement()) : null}`;
  return renderPage({
    url: p.url,
    theme: p.theme,
    language: t,
    status: 200,
    title: t("account.title"),
    heading: t("account.title"),
    subtitle: p.overview.profile.email ?? p.overview.profile.name ?? t("account.subtitle"),
    icon: { svg: icons.lock },
    css: CSS,
    content,
    formTargets: p.formTargets,
    scripts,
    scriptHashes: [ACCOUNT_SCRIPT_HASH],
    footer: html`<a href="${base}/signout">${t("account.signOut")}</a>`,
  });
}
