/**
 * The built-in password pages, in the shell and style of the sign-in page: sign-in (with
 * "Create account" and "Forgot password?"), sign-up, the code page after sign-up, "forgot
 * password" and the reset page. Every value is escaped by `html`.
 */

import type { Translator } from "../../lib/i18n/messages.js";
import { html, type SafeHtml } from "../../lib/pages/html.js";
import { actionBase, hiddenFields, icons, renderPage } from "../../lib/pages/layout.js";
import type { PageTheme } from "../../lib/pages/types.js";
import type { ResponseInternal } from "../../types.js";
import type { PasswordMessages } from "./messages/index.js";

/** What every password page needs. */
export interface PasswordPageContext {
  url: URL;
  theme: PageTheme;
  csrfToken: string;
  callbackUrl: string;
  minLength: number;
  error?: string;
  notice?: string;
  status?: number;
  /** The password texts in the request's language. */
  t: Translator<PasswordMessages>;
  /** The app's extra sign-up inputs (`password({ signUpFields })`). */
  signUpFields?: Record<string, SignUpField>;
}

/** One extra input of the sign-up form. */
export interface SignUpField {
  /** The label shown above the input. */
  label: string;
  /** The input's type; default `text`. A checkbox posts `"on"` when ticked, `""` otherwise. */
  type?: "text" | "email" | "tel" | "url" | "number" | "date" | "checkbox";
  required?: boolean;
  /** The input's `autocomplete` hint (`organization`, `tel`, …). */
  autocomplete?: string;
}

const CSS = `
.links { display: flex; justify-content: space-between; gap: 8px; margin-top: 16px; font-size: 14px; }
.notice { margin: 0 0 16px; }
`;

function messages(p: PasswordPageContext): SafeHtml {
  return html`${p.error ? html`<div class="alert" role="alert">${icons.alert}<p>${p.error}</p></div>` : null}${p.notice ? html`<p class="notice" role="status">${p.notice}</p>` : null}`;
}

function page(
  p: PasswordPageContext,
  heading: string,
  subtitle: string,
  content: SafeHtml,
): ResponseInternal<string> {
  return renderPage({
    url: p.url,
    theme: p.theme,
    status: p.status ?? 200,
    title: heading,
    heading,
    subtitle,
    icon: { svg: icons.lock },
    css: CSS,
    language: p.t,
    content: html`${messages(p)}${content}`,
  });
}

function newPasswordField(p: PasswordPageContext): SafeHtml {
  return html`<div class="field"><label for="password">${p.t("password.password")}</label>
<input id="password" name="password" type="password" autocomplete="new-password" minlength="${String(p.minLength)}" required></div>`;
}

/** Sign-in with e-mail and password, posting to the core's credentials callback. */
export function signInPage(p: PasswordPageContext & { email?: string }): ResponseInternal<string> {
  const { t } = p;
  const base = actionBase(p.url);
  return page(
    p,
    t("password.signIn.title"),
    t("password.signIn.subtitle"),
    html`<form class="stack" action="${base}/callback/password" method="post">
${hiddenFields(p.csrfToken, p.callbackUrl)}
<div class="field"><label for="email">${t("password.email")}</label><input id="email" name="email" type="email" autocomplete="username" value="${p.email ?? ""}" required autofocus></div>
<div class="field"><label for="password">${t("password.password")}</label><input id="password" name="password" type="password" autocomplete="current-password" required></div>
<button type="submit" class="button primary">${t("password.signIn.submit")}</button>
</form>
<div class="links"><a href="${base}/password/signup">${t("password.signIn.createAccount")}</a><a href="${base}/password/forgot">${t("password.signIn.forgot")}</a></div>`,
  );
}

/** The app's extra inputs, each keeping what was posted when the form comes back. */
function extraFields(p: PasswordPageContext, values: Record<string, string>): SafeHtml[] {
  return Object.entries(p.signUpFields ?? {}).map(([name, field]) => {
    const id = `field-${name}`;
    const value = values[name] ?? "";
    if (field.type === "checkbox")
      return html`<div class="field"><label><input id="${id}" name="${name}" type="checkbox"${field.required ? html` required` : null}${value === "on" ? html` checked` : null}> ${field.label}</label></div>`;
    return html`<div class="field"><label for="${id}">${field.label}</label><input id="${id}" name="${name}" type="${field.type ?? "text"}" autocomplete="${field.autocomplete ?? "off"}" value="${value}"${field.required ? html` required` : null}></div>`;
  });
}

/** Sign-up: e-mail, password, optional name, and the app's extra inputs. */
export function signUpPage(
  p: PasswordPageContext & { email?: string; name?: string; values?: Record<string, string> },
) {
  const { t } = p;
  const base = actionBase(p.url);
  return page(
    p,
    t("password.signUp.title"),
    t("password.signUp.subtitle", { minLength: p.minLength }),
    html`<form class="stack" action="${base}/password/signup" method="post">
${hiddenFields(p.csrfToken, p.callbackUrl)}
<div class="field"><label for="email">${t("password.email")}</label><input id="email" name="email" type="email" autocomplete="email" value="${p.email ?? ""}" required autofocus></div>
<div class="field"><label for="name">${t("password.signUp.name")}</label><input id="name" name="name" type="text" autocomplete="name" value="${p.name ?? ""}"></div>
${extraFields(p, p.values ?? {})}
${newPasswordField(p)}
<button type="submit" class="button primary">${t("password.signUp.submit")}</button>
</form>
<div class="links"><a href="${base}/password/signin">${t("password.signUp.haveAccount")}</a></div>`,
  );
}

/** The 6-digit code after sign-up (the e-mailed link fills it in). */
export function verifyPage(p: PasswordPageContext & { email: string; code?: string }) {
  const { t } = p;
  const base = actionBase(p.url);
  return page(
    p,
    t("password.verify.title"),
    t("password.verify.subtitle"),
    html`<form class="stack" action="${base}/password/verify" method="post">
${hiddenFields(p.csrfToken, p.callbackUrl)}
<input type="hidden" name="email" value="${p.email}">
<div class="field"><label for="code">${t("password.code")}</label><input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]*" maxlength="10" value="${p.code ?? ""}" required autofocus></div>
<button type="submit" class="button primary">${t("password.continue")}</button>
</form>`,
  );
}

/** "Forgot password?": asks for the address. */
export function forgotPage(p: PasswordPageContext & { email?: string }) {
  const { t } = p;
  const base = actionBase(p.url);
  return page(
    p,
    t("password.forgot.title"),
    t("password.forgot.subtitle"),
    html`<form class="stack" action="${base}/password/forgot" method="post">
${hiddenFields(p.csrfToken, p.callbackUrl)}
<div class="field"><label for="email">${t("password.email")}</label><input id="email" name="email" type="email" autocomplete="email" value="${p.email ?? ""}" required autofocus></div>
<button type="submit" class="button primary">${t("password.forgot.submit")}</button>
</form>`,
  );
}

/** The reset: the code (filled in by the e-mailed link) and a new password. */
export function resetPage(p: PasswordPageContext & { email: string; code?: string }) {
  const { t } = p;
  const base = actionBase(p.url);
  return page(
    p,
    t("password.reset.title"),
    t("password.reset.subtitle"),
    html`<form class="stack" action="${base}/password/reset" method="post">
${hiddenFields(p.csrfToken, p.callbackUrl)}
<input type="hidden" name="email" value="${p.email}">
<div class="field"><label for="code">${t("password.code")}</label><input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]*" maxlength="10" value="${p.code ?? ""}" required></div>
${newPasswordField(p)}
<button type="submit" class="button primary">${t("password.reset.submit")}</button>
</form>`,
  );
}

/** Change password: the current one (proof it is the user, not a borrowed session) and a new one. */
export function changePage(p: PasswordPageContext) {
  const { t } = p;
  const base = actionBase(p.url);
  return page(
    p,
    t("password.change.title"),
    t("password.change.subtitle"),
    html`<form class="stack" action="${base}/password/change" method="post">
${hiddenFields(p.csrfToken, p.callbackUrl)}
<div class="field"><label for="currentPassword">${t("password.change.current")}</label><input id="currentPassword" name="currentPassword" type="password" autocomplete="current-password" required autofocus></div>
${newPasswordField(p)}
<button type="submit" class="button primary">${t("password.change.submit")}</button>
</form>`,
  );
}

/** Delete account: the current password confirms it (a session left open is not enough). */
export function deletePage(p: PasswordPageContext) {
  const { t } = p;
  const base = actionBase(p.url);
  return page(
    p,
    t("password.delete.title"),
    t("password.delete.subtitle"),
    html`<form class="stack" action="${base}/password/delete" method="post">
${hiddenFields(p.csrfToken, p.callbackUrl)}
<div class="field"><label for="currentPassword">${t("password.password")}</label><input id="currentPassword" name="currentPassword" type="password" autocomplete="current-password" required autofocus></div>
<button type="submit" class="button primary">${t("password.delete.submit")}</button>
</form>`,
  );
}

/** Change e-mail: the new address, and the password (a session left open is not enough). */
export function changeEmailPage(p: PasswordPageContext & { email?: string }) {
  const { t } = p;
  const base = actionBase(p.url);
  return page(
    p,
    t("password.changeEmail.title"),
    t("password.changeEmail.subtitle"),
    html`<form class="stack" action="${base}/password/change-email" method="post">
${hiddenFields(p.csrfToken, p.callbackUrl)}
<div class="field"><label for="email">${t("password.changeEmail.newEmail")}</label><input id="email" name="email" type="email" autocomplete="email" value="${p.email ?? ""}" required autofocus></div>
<div class="field"><label for="currentPassword">${t("password.password")}</label><input id="currentPassword" name="currentPassword" type="password" autocomplete="current-password" required></div>
<button type="submit" class="button primary">${t("password.changeEmail.submit")}</button>
</form>`,
  );
}

/** The code sent to the new address (the e-mailed link fills it in). */
export function confirmEmailPage(p: PasswordPageContext & { email: string; code?: string }) {
  const { t } = p;
  const base = actionBase(p.url);
  return page(
    p,
    t("password.confirmEmail.title"),
    t("password.confirmEmail.subtitle"),
    html`<form class="stack" action="${base}/password/confirm-email" method="post">
${hiddenFields(p.csrfToken, p.callbackUrl)}
<input type="hidden" name="email" value="${p.email}">
<div class="field"><label for="code">${t("password.code")}</label><input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]*" maxlength="10" value="${p.code ?? ""}" required autofocus></div>
<button type="submit" class="button primary">${t("password.confirmEmail.submit")}</button>
</form>`,
  );
}
