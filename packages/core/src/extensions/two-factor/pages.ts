/**
 * The built-in two-factor pages, in the shell and style of the sign-in page (light and dark,
 * narrow screens): the challenge, enrolment (start, then QR code, manual key and confirmation),
 * the backup codes shown once, and the manage page. Every value is escaped by `html`; the QR code
 * is SVG markup the server drew from the `otpauth://` URI, inserted as it is.
 */

import { html, raw, type SafeHtml } from "../../lib/pages/html.js";
import { actionBase, icons, renderPage } from "../../lib/pages/layout.js";
import type { PageTheme } from "../../lib/pages/types.js";
import type { ResponseInternal } from "../../types.js";
import { PASSKEY_CHALLENGE_SCRIPT, PASSKEY_CHALLENGE_SCRIPT_HASH } from "./passkey-script.js";

/** What every two-factor page needs. */
export interface TwoFactorPageContext {
  url: URL;
  theme: PageTheme;
  csrfToken: string;
}

const CSS = `
.qr { display: flex; justify-content: center; margin: 0 0 16px; }
.qr svg { width: 200px; height: 200px; border-radius: 8px; }
.key { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 14px; word-break: break-all; text-align: center; padding: 10px; border: 1px dashed var(--border); border-radius: 8px; margin: 0 0 16px; }
.codes { display: grid; grid-template-columns: repeat(2, 1fr); gap: 8px; margin: 0 0 16px; padding: 0; list-style: none; font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 15px; text-align: center; }
.codes li { padding: 8px; border: 1px solid var(--border); border-radius: 8px; background: var(--hover); }
.check { display: flex; gap: 8px; align-items: center; font-size: 13px; font-weight: 400; }
.gap-top { margin-top: 16px; }
.pad { padding: 0 14px 14px; }
.lead { margin: 0 0 6px; }
@media print { .button, form { display: none; } }
`;

function alert(message: string | undefined): SafeHtml | null {
  return message
    ? html`<div class="alert" role="alert">${icons.alert}<p>${message}</p></div>`
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
    error?: string;
    status?: number;
    trustDays: number;
    /** Offered: "e-mail me a code", or (once sent) the field for it. */
    emailCode?: { sent: boolean; address?: string; prefill?: string };
    /** Offered: "Use a passkey", with where its options come from. */
    passkeyOptionsUrl?: string;
  },
): ResponseInternal<string> {
  const trust =
    p.trustDays > 0
      ? html`<label class="check"><input type="checkbox" name="trustDevice" value="1"> Don't ask again on this browser for ${p.trustDays} days</label>`
      : null;
  const action = `${actionBase(p.url)}/two-factor/verify`;
  return renderPage({
    url: p.url,
    theme: p.theme,
    status: p.status ?? 200,
    title: "Two-factor authentication",
    heading: "Two-factor authentication",
    subtitle: "Enter the 6-digit code from your authenticator app.",
    icon: { svg: icons.lock },
    css: CSS,
    content: html`${alert(p.error)}<form class="stack" action="${action}" method="post">
${csrfField(p.csrfToken)}
<div class="field"><label for="code">Authentication code</label>
<input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]*" maxlength="10" required autofocus></div>
${trust}
<button type="submit" class="button primary">Verify</button>
</form>
<details class="detail gap-top"><summary>Use a backup code</summary>
<form class="stack pad" action="${action}" method="post">
${csrfField(p.csrfToken)}
<div class="field"><label for="backupCode">Backup code</label>
<input id="backupCode" name="backupCode" type="text" autocomplete="off" autocapitalize="characters" maxlength="20" required></div>
${trust}
<button type="submit" class="button secondary">Use backup code</button>
</form></details>${p.emailCode ? emailCodeForm(p, action, trust) : null}${
      p.passkeyOptionsUrl
        ? html`<form class="stack gap-top" action="${action}" method="post">
${csrfField(p.csrfToken)}<input type="hidden" name="passkey" value="">
${trust}
<button type="button" class="button secondary" data-two-factor-passkey="${p.passkeyOptionsUrl}">Use a passkey</button>
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
  const sent = p.emailCode?.sent === true;
  if (!sent)
    return html`<form class="stack gap-top" action="${actionBase(p.url)}/two-factor/email-code" method="post">
${csrfField(p.csrfToken)}
<button type="submit" class="button secondary">E-mail me a code</button>
</form>`;
  const where = p.emailCode?.address ? html` to ${p.emailCode.address}` : null;
  return html`<form class="stack gap-top" action="${verifyAction}" method="post">
${csrfField(p.csrfToken)}
<p class="hint lead">We sent a code${where}. It works for 10 minutes.</p>
<div class="field"><label for="emailCode">Code from the e-mail</label>
<input id="emailCode" name="emailCode" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]*" maxlength="8" required value="${p.emailCode?.prefill ?? ""}"></div>
${trust}
<button type="submit" class="button secondary">Verify e-mailed code</button>
</form>`;
}

/** The start of enrolment: what is about to happen, and the button that makes the secret. */
export function enrolStartPage(
  p: TwoFactorPageContext & { required: boolean },
): ResponseInternal<string> {
  return renderPage({
    url: p.url,
    theme: p.theme,
    status: 200,
    title: "Set up two-factor authentication",
    heading: "Set up two-factor authentication",
    subtitle: p.required
      ? "This site asks for a second factor. Set up an authenticator app to finish signing in."
      : "Protect your account with a code from an authenticator app.",
    icon: { svg: icons.lock },
    css: CSS,
    content: html`<form class="stack" action="${actionBase(p.url)}/two-factor/enrol" method="post">
${csrfField(p.csrfToken)}
<button type="submit" class="button primary">Set up authenticator app</button>
</form>`,
  });
}

/** The QR code, the key to type by hand, and the form confirming the first code. */
export function enrolPage(
  p: TwoFactorPageContext & { qrSvg: string; secret: string; uri: string; error?: string },
): ResponseInternal<string> {
  return renderPage({
    url: p.url,
    theme: p.theme,
    status: p.error ? 400 : 200,
    title: "Set up two-factor authentication",
    heading: "Scan the QR code",
    subtitle: "Scan it with your authenticator app, then enter the code it shows.",
    icon: { svg: icons.lock },
    css: CSS,
    content: html`${alert(p.error)}<div class="qr" role="img" aria-label="QR code for your authenticator app">${raw(p.qrSvg)}</div>
<p class="hint lead">Or enter this key by hand:</p>
<p class="key" data-secret="${p.secret}">${p.secret.replace(/(.{4})/g, "$1 ").trim()}</p>
<form class="stack" action="${actionBase(p.url)}/two-factor/activate" method="post">
${csrfField(p.csrfToken)}
<div class="field"><label for="code">Code from the app</label>
<input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]*" maxlength="10" required autofocus></div>
<button type="submit" class="button primary">Confirm</button>
</form>`,
  });
}

/** The backup codes, shown once, with print and a link onwards. */
export function backupCodesPage(
  p: TwoFactorPageContext & { codes: readonly string[]; next: string; heading?: string },
): ResponseInternal<string> {
  return renderPage({
    url: p.url,
    theme: p.theme,
    status: 200,
    title: "Backup codes",
    heading: p.heading ?? "Save your backup codes",
    subtitle:
      "Each code signs you in once if you lose your authenticator app. They are shown only now: print them or keep them somewhere safe.",
    icon: { svg: icons.lock },
    css: CSS,
    content: html`<ul class="codes" aria-label="Backup codes">${p.codes.map((code) => html`<li>${code}</li>`)}</ul>
<a class="button primary" href="${p.next}">Continue</a>`,
  });
}

/** The manage page: whether 2FA is on, regenerate backup codes, disable (each needs a code). */
export function managePage(
  p: TwoFactorPageContext & {
    enabled: boolean;
    backupCodesLeft: number;
    error?: string;
  },
): ResponseInternal<string> {
  const base = actionBase(p.url);
  const codeField = (id: string) =>
    html`<div class="field"><label for="${id}">Authentication or backup code</label>
<input id="${id}" name="code" type="text" autocomplete="one-time-code" maxlength="20" required></div>`;
  const content = p.enabled
    ? html`${alert(p.error)}<p class="message">Two-factor authentication is on. ${p.backupCodesLeft} backup codes left.</p>
<form class="stack" action="${base}/two-factor/backup-codes" method="post">
${csrfField(p.csrfToken)}${codeField("regenerate-code")}
<button type="submit" class="button secondary">New backup codes</button>
</form>
<form class="stack gap-top" action="${base}/two-factor/disable" method="post">
${csrfField(p.csrfToken)}${codeField("disable-code")}
<button type="submit" class="button secondary">Turn off two-factor authentication</button>
</form>`
    : html`<p class="message">Two-factor authentication is off.</p>
<a class="button primary" href="${base}/two-factor/enrol">Set up authenticator app</a>`;
  return renderPage({
    url: p.url,
    theme: p.theme,
    status: p.error ? 400 : 200,
    title: "Two-factor authentication",
    heading: "Two-factor authentication",
    icon: { svg: icons.lock },
    css: CSS,
    content,
  });
}

/** Step-up: a signed-in user confirms with a code before a sensitive action. */
export function reauthenticatePage(
  p: TwoFactorPageContext & { callbackUrl: string; error?: string; status?: number },
): ResponseInternal<string> {
  return renderPage({
    url: p.url,
    theme: p.theme,
    status: p.status ?? 200,
    title: "Confirm it's you",
    heading: "Confirm it's you",
    subtitle: "Enter a code from your authenticator app (or a backup code) to continue.",
    icon: { svg: icons.lock },
    css: CSS,
    content: html`${alert(p.error)}<form class="stack" action="${actionBase(p.url)}/two-factor/reauthenticate" method="post">
${csrfField(p.csrfToken)}<input type="hidden" name="callbackUrl" value="${p.callbackUrl}">
<div class="field"><label for="code">Authentication or backup code</label>
<input id="code" name="code" type="text" autocomplete="one-time-code" maxlength="20" required autofocus></div>
<button type="submit" class="button primary">Continue</button>
</form>`,
  });
}
