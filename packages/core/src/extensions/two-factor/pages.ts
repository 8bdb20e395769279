/**
 * The built-in two-factor pages, in the shell and style of the sign-in page (light and dark,
 * narrow screens): the challenge, enrolment (start, then QR code, manual key and confirmation),
 * the backup codes shown once, and the manage page. Every value is escaped by `html`; the QR code
 * is SVG markup the server drew from the `otpauth://` URI, inserted as it is.
 */

import type { Translator } from "../../lib/i18n/messages.js";
import { html, raw, type SafeHtml } from "../../lib/pages/html.js";
import { actionBase, icons, renderPage } from "../../lib/pages/layout.js";
import type { PageTheme } from "../../lib/pages/types.js";
import type { ResponseInternal } from "../../types.js";
import type { TwoFactorMessages } from "./messages/index.js";
import { PASSKEY_CHALLENGE_SCRIPT, PASSKEY_CHALLENGE_SCRIPT_HASH } from "./passkey-script.js";

/** What every two-factor page needs. */
export interface TwoFactorPageContext {
  url: URL;
  theme: PageTheme;
  csrfToken: string;
  /** The two-factor texts in the request's language. */
  t: Translator<TwoFactorMessages>;
}

/** A refusal the pages show: a key of the two-factor dictionary. */
export type TwoFactorPageError = "twoFactor.error.wrongCode" | "twoFactor.error.tooMany";

const CSS = `
.qr { display: flex; justify-content: center; margin: 0 0 16px; }
.qr svg { width: 200px; height: 200px; border-radius: 8px; }
.key { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 14px; word-break: break-all; text-align: center; padding: 10px; border: 1px dashed var(--border); border-radius: 8px; margin: 0 0 16px; }
.codes { display: grid; grid-template-columns: repeat(2, 1fr); gap: 8px; margin: 0 0 16px; padding: 0; list-style: none; font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 15px; text-align: center; }
.codes li { padding: 8px; border: 1px solid var(--border); border-radius: 8px; background: var(--hover); }
.check { display: flex; gap: 8px; align-items: center; font-size: 13px; font-weight: 400; }
.check input[type="checkbox"] { flex: none; width: 16px; height: 16px; margin: 0; padding: 0; }
.gap-top { margin-top: 16px; }
.pad { padding: 0 14px 14px; }
.lead { margin: 0 0 6px; }
@media print { .button, form { display: none; } }
`;

function alert(
  t: Translator<TwoFactorMessages>,
  error: TwoFactorPageError | undefined,
): SafeHtml | null {
  return error
    ? html`<div class="alert" role="alert">${icons.alert}<p>${t(error)}</p></div>`
    : null;
}

function csrfField(csrfToken: string): SafeHtml {
  return html`<input type="hidden" name="csrfToken" value="${csrfToken}">`;
}

/**
 * The challenge after the first factor: an authenticator code, or (under "Use a backup code") a
 * backup code. One message for every wrong code, whichever factor it was.
 */
export function challengePage(
  p: TwoFactorPageContext & {
    error?: TwoFactorPageError;
    status?: number;
    trustDays: number;
    /** Offered: "e-mail me a code", or (once sent) the field for it. */
    emailCode?: { sent: boolean; address?: string; prefill?: string };
    /** Offered: "Use a passkey", with where its options come from. */
    passkeyOptionsUrl?: string;
  },
): ResponseInternal<string> {
  const { t } = p;
  const trust =
    p.trustDays > 0
      ? html`<label class="check"><input type="checkbox" name="trustDevice" value="1"> ${t("twoFactor.challenge.trust", { days: p.trustDays })}</label>`
      : null;
  const action = `${actionBase(p.url)}/two-factor/verify`;
  return renderPage({
    url: p.url,
    theme: p.theme,
    status: p.status ?? 200,
    title: t("twoFactor.title"),
    heading: t("twoFactor.title"),
    subtitle: t("twoFactor.challenge.subtitle"),
    icon: { svg: icons.lock },
    css: CSS,
    language: t,
    content: html`${alert(t, p.error)}<form class="stack" action="${action}" method="post">
${csrfField(p.csrfToken)}
<div class="field"><label for="code">${t("twoFactor.challenge.codeLabel")}</label>
<input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]*" maxlength="10" required autofocus></div>
${trust}
<button type="submit" class="button primary">${t("twoFactor.challenge.verify")}</button>
</form>
<details class="detail gap-top"><summary>${t("twoFactor.backup.use")}</summary>
<form class="stack pad" action="${action}" method="post">
${csrfField(p.csrfToken)}
<div class="field"><label for="backupCode">${t("twoFactor.backup.label")}</label>
<input id="backupCode" name="backupCode" type="text" autocomplete="off" autocapitalize="characters" maxlength="20" required></div>
${trust}
<button type="submit" class="button secondary">${t("twoFactor.backup.submit")}</button>
</form></details>${p.emailCode ? emailCodeForm(p, action, trust) : null}${
      p.passkeyOptionsUrl
        ? html`<form class="stack gap-top" action="${action}" method="post">
${csrfField(p.csrfToken)}<input type="hidden" name="passkey" value="">
${trust}
<button type="button" class="button secondary" data-two-factor-passkey="${p.passkeyOptionsUrl}">${t("twoFactor.passkey.use")}</button>
</form>`
        : null
    }`,
    ...(p.passkeyOptionsUrl && {
      scripts: raw(`<script>${PASSKEY_CHALLENGE_SCRIPT}</script>`),
      scriptHashes: [PASSKEY_CHALLENGE_SCRIPT_HASH],
    }),
  });
}

/** "E-mail me a code", or the field for the code once it was sent. */
function emailCodeForm(
  p: TwoFactorPageContext & { emailCode?: { sent: boolean; address?: string; prefill?: string } },
  verifyAction: string,
  trust: SafeHtml | null,
): SafeHtml {
  const { t } = p;
  const sent = p.emailCode?.sent === true;
  if (!sent)
    return html`<form class="stack gap-top" action="${actionBase(p.url)}/two-factor/email-code" method="post">
${csrfField(p.csrfToken)}
<button type="submit" class="button secondary">${t("twoFactor.emailCode.send")}</button>
</form>`;
  const address = p.emailCode?.address;
  // <bdi>: an address is left to right inside right-to-left text, and keeps its own order.
  const sentText = address
    ? t.html("twoFactor.emailCode.sentTo", { address: html`<bdi>${address}</bdi>` })
    : t("twoFactor.emailCode.sent");
  return html`<form class="stack gap-top" action="${verifyAction}" method="post">
${csrfField(p.csrfToken)}
<p class="hint lead">${sentText}</p>
<div class="field"><label for="emailCode">${t("twoFactor.emailCode.label")}</label>
<input id="emailCode" name="emailCode" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]*" maxlength="8" required value="${p.emailCode?.prefill ?? ""}"></div>
${trust}
<button type="submit" class="button secondary">${t("twoFactor.emailCode.submit")}</button>
</form>`;
}

/** The start of enrolment: what is about to happen, and the button that makes the secret. */
export function enrolStartPage(
  p: TwoFactorPageContext & { required: boolean },
): ResponseInternal<string> {
  const { t } = p;
  return renderPage({
    url: p.url,
    theme: p.theme,
    status: 200,
    title: t("twoFactor.enrol.title"),
    heading: t("twoFactor.enrol.title"),
    subtitle: t(p.required ? "twoFactor.enrol.required" : "twoFactor.enrol.optional"),
    icon: { svg: icons.lock },
    css: CSS,
    language: t,
    content: html`<form class="stack" action="${actionBase(p.url)}/two-factor/enrol" method="post">
${csrfField(p.csrfToken)}
<button type="submit" class="button primary">${t("twoFactor.enrol.start")}</button>
</form>`,
  });
}

/** The QR code, the key to type by hand, and the form confirming the first code. */
export function enrolPage(
  p: TwoFactorPageContext & {
    qrSvg: string;
    secret: string;
    uri: string;
    error?: TwoFactorPageError;
  },
): ResponseInternal<string> {
  const { t } = p;
  return renderPage({
    url: p.url,
    theme: p.theme,
    status: p.error ? 400 : 200,
    title: t("twoFactor.enrol.title"),
    heading: t("twoFactor.enrol.scanHeading"),
    subtitle: t("twoFactor.enrol.scanSubtitle"),
    icon: { svg: icons.lock },
    css: CSS,
    language: t,
    content: html`${alert(t, p.error)}<div class="qr" role="img" aria-label="${t("twoFactor.enrol.qrLabel")}">${raw(p.qrSvg)}</div>
<p class="hint lead">${t("twoFactor.enrol.manualKey")}</p>
<p class="key" dir="ltr" data-secret="${p.secret}">${p.secret.replace(/(.{4})/g, "$1 ").trim()}</p>
<form class="stack" action="${actionBase(p.url)}/two-factor/activate" method="post">
${csrfField(p.csrfToken)}
<div class="field"><label for="code">${t("twoFactor.enrol.codeLabel")}</label>
<input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]*" maxlength="10" required autofocus></div>
<button type="submit" class="button primary">${t("twoFactor.enrol.confirm")}</button>
</form>`,
  });
}

/** The backup codes, shown once, with print and a link onwards. */
export function backupCodesPage(
  p: TwoFactorPageContext & { codes: readonly string[]; next: string; regenerated?: boolean },
): ResponseInternal<string> {
  const { t } = p;
  return renderPage({
    url: p.url,
    theme: p.theme,
    status: 200,
    title: t("twoFactor.backupCodes.title"),
    heading: t(
      p.regenerated ? "twoFactor.backupCodes.newHeading" : "twoFactor.backupCodes.heading",
    ),
    subtitle: t("twoFactor.backupCodes.subtitle"),
    icon: { svg: icons.lock },
    css: CSS,
    language: t,
    content: html`<ul class="codes" dir="ltr" aria-label="${t("twoFactor.backupCodes.title")}">${p.codes.map((code) => html`<li>${code}</li>`)}</ul>
<a class="button primary" href="${p.next}">${t("twoFactor.backupCodes.continue")}</a>`,
  });
}

/** The manage page: whether 2FA is on, regenerate backup codes, disable (each needs a code). */
export function managePage(
  p: TwoFactorPageContext & {
    enabled: boolean;
    backupCodesLeft: number;
    error?: TwoFactorPageError;
  },
): ResponseInternal<string> {
  const { t } = p;
  const base = actionBase(p.url);
  const codeField = (id: string) =>
    html`<div class="field"><label for="${id}">${t("twoFactor.manage.codeLabel")}</label>
<input id="${id}" name="code" type="text" autocomplete="one-time-code" maxlength="20" required></div>`;
  const content = p.enabled
    ? html`${alert(t, p.error)}<p class="message">${t("twoFactor.manage.on", { count: p.backupCodesLeft })}</p>
<form class="stack" action="${base}/two-factor/backup-codes" method="post">
${csrfField(p.csrfToken)}${codeField("regenerate-code")}
<button type="submit" class="button secondary">${t("twoFactor.manage.newBackupCodes")}</button>
</form>
<form class="stack gap-top" action="${base}/two-factor/disable" method="post">
${csrfField(p.csrfToken)}${codeField("disable-code")}
<button type="submit" class="button secondary">${t("twoFactor.manage.turnOff")}</button>
</form>`
    : html`<p class="message">${t("twoFactor.manage.off")}</p>
<a class="button primary" href="${base}/two-factor/enrol">${t("twoFactor.enrol.start")}</a>`;
  return renderPage({
    url: p.url,
    theme: p.theme,
    status: p.error ? 400 : 200,
    title: t("twoFactor.title"),
    heading: t("twoFactor.title"),
    icon: { svg: icons.lock },
    css: CSS,
    language: t,
    content,
  });
}

/** Step-up: a signed-in user confirms with a code before a sensitive action. */
export function reauthenticatePage(
  p: TwoFactorPageContext & { callbackUrl: string; error?: TwoFactorPageError; status?: number },
): ResponseInternal<string> {
  const { t } = p;
  return renderPage({
    url: p.url,
    theme: p.theme,
    status: p.status ?? 200,
    title: t("twoFactor.reauthenticate.title"),
    heading: t("twoFactor.reauthenticate.title"),
    subtitle: t("twoFactor.reauthenticate.subtitle"),
    icon: { svg: icons.lock },
    css: CSS,
    language: t,
    content: html`${alert(t, p.error)}<form class="stack" action="${actionBase(p.url)}/two-factor/reauthenticate" method="post">
${csrfField(p.csrfToken)}<input type="hidden" name="callbackUrl" value="${p.callbackUrl}">
<div class="field"><label for="code">${t("twoFactor.manage.codeLabel")}</label>
<input id="code" name="code" type="text" autocomplete="one-time-code" maxlength="20" required autofocus></div>
<button type="submit" class="button primary">${t("twoFactor.reauthenticate.continue")}</button>
</form>`,
  });
}
