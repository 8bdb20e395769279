/**
 * The built-in sign-in page: one form per provider, in configuration order.
 */

import type { ResponseInternal } from "../../types.js";
import type {
  InternalCredentialsProvider,
  InternalEmailProvider,
  InternalProvider,
  InternalWebAuthnProvider,
} from "../config/internal.js";
import type { CoreMessages } from "../i18n/core/en.js";
import { englishCore } from "../i18n/core/translator.js";
import type { Translator } from "../i18n/messages.js";
import type { CredentialInput } from "../provider-types.js";
import { attributes, html, raw, type SafeHtml } from "./html.js";
import { actionBase, hiddenFields, icons, renderPage } from "./layout.js";
import { signInErrorMessage } from "./messages.js";
import { cspOrigin, readableTextOn, safeColor, safeHttpUrl, safeImageUrl } from "./security.js";
import type { PageTheme } from "./types.js";

type OAuthProvider = Extract<InternalProvider, { type: "oauth" | "oidc" }>;

/** Parameters of {@link renderSignInPage}. */
export interface SignInPageParams {
  url: URL;
  theme: PageTheme;
  providers: InternalProvider[];
  callbackUrl: string;
  csrfToken: string;
  error?: string;
  /** The `code` that came with the error (why an e-mail address was refused). */
  code?: string;
  email?: string;
  /**
   * Who is signed in (their e-mail address or name), when the visitor already has a session: the
   * page then says so and offers the methods as a way to link another one to that account.
   */
  signedInAs?: string;
  /**
   * Whether the adapter manages passkeys: the passkey script then signs in through `fetch` and
   * makes the WebAuthn Signal API calls (`data-passkeys-url`).
   */
  passkeySignals?: boolean;
  /**
   * The `<script>` element of the WebAuthn helper (`webauthnScriptElement()` of
   * lib/webauthn/script.ts), required with a WebAuthn provider: the caller loads the script only
   * for an app that has one.
   */
  webauthnScript?: string;
  /** The texts in the request's language (default English). */
  t?: Translator<CoreMessages>;
}

/** What a section needs to know about the page it is on. */
interface SectionContext extends SignInPageParams {
  t: Translator<CoreMessages>;
  /** More than one group of methods: sections get titles and built-in labels say what for. */
  severalMethods: boolean;
}

/**
 * Input attributes a credentials/WebAuthn field may set besides the well-known ones. An
 * allow-list, because field definitions are arbitrary records and must not smuggle in event
 * handlers, `style` or `formaction`.
 */
const EXTRA_INPUT_ATTRIBUTES = new Set([
  "minlength",
  "maxlength",
  "pattern",
  "min",
  "max",
  "step",
  "inputmode",
  "autocapitalize",
  "autocorrect",
  "spellcheck",
  "size",
  "readonly",
  "disabled",
  "multiple",
  "title",
  "dir",
  "autofocus",
]);
const KNOWN_FIELD_KEYS = new Set([
  "label",
  "type",
  "value",
  "placeholder",
  "required",
  "autocomplete",
]);

function extraAttributes(field: CredentialInput): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(field)) {
    // Field records use DOM property names (maxLength, inputMode); attributes are lower case.
    const name = key.toLowerCase();
    if (KNOWN_FIELD_KEYS.has(key) || !EXTRA_INPUT_ATTRIBUTES.has(name)) continue;
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") {
      out[name] = value;
    }
  }
  return out;
}

/** The input type of a field (`text` unless it says otherwise). */
function fieldType(field: CredentialInput): string {
  return typeof field.type === "string" && field.type !== "" ? field.type : "text";
}

/**
 * The `autocomplete` a credentials field gets when it sets none, so that password managers fill
 * the form and browsers stop warning: a password is the `current-password` (this is a sign-in,
 * not a sign-up), and the address beside it is the account's `username` (HTML's autofill tokens,
 * https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#autofill); an e-mail
 * field without a password is an `email`.
 */
function defaultAutocomplete(field: CredentialInput, formHasPassword: boolean): string | undefined {
  const type = fieldType(field);
  if (type === "password") return "current-password";
  if (type === "email") return formHasPassword ? "username" : "email";
  return undefined;
}

/** One labelled input of a credentials or WebAuthn form. */
function renderField(
  providerId: string,
  name: string,
  field: CredentialInput,
  options: { prefill?: string; autocomplete?: string } = {},
): SafeHtml {
  const id = `${providerId}-${name}`;
  const label = typeof field.label === "string" && field.label !== "" ? field.label : name;
  const type = fieldType(field);
  const prefill = options.prefill;
  // Never echo a secret back into the page, even when the caller passes one.
  const value = type === "password" ? undefined : (prefill ?? field.value);
  return html`<div class="field"><label for="${id}">${label}</label><input${attributes({
    id,
    name,
    type,
    value: typeof value === "string" ? value : undefined,
    placeholder: typeof field.placeholder === "string" ? field.placeholder : undefined,
    required: field.required === true,
    autocomplete:
      typeof field.autocomplete === "string" ? field.autocomplete : options.autocomplete,
    // Allow-listed names only, none of which collides with the attributes above.
    ...extraAttributes(field),
  })}></div>`;
}

/**
 * What an OAuth button shows besides its name: a validated brand colour (as a CSS rule for the
 * button's class, since the CSP allows no style="" attribute) and a validated logo URL.
 */
interface ProviderLook {
  className: string;
  css?: string;
  logo?: string;
}

function providerLook(provider: OAuthProvider, index: number, url: URL): ProviderLook {
  const className = `provider-${index}`;
  const brand = safeColor(provider.style?.brandColor);
  const logo = safeImageUrl(provider.style?.logo, url);
  return {
    className,
    ...(brand && {
      css: `.${className} { --provider-brand: ${brand}; --provider-text: ${readableTextOn(brand)}; }`,
    }),
    ...(logo && { logo }),
  };
}

function providerButton(
  provider: OAuthProvider,
  look: ProviderLook,
  t: Translator<CoreMessages>,
): SafeHtml {
  const initial = [...provider.name.trim()][0]?.toUpperCase() ?? "?";
  const mark = look.logo
    ? html`<img class="provider-logo" src="${look.logo}" alt="" width="20" height="20" loading="lazy" referrerpolicy="no-referrer">`
    : html`<span class="monogram" aria-hidden="true">${initial}</span>`;
  return html`<button type="submit" class="button provider ${look.className}">${mark}<span>${t("signIn.withProvider", { provider: provider.name })}</span></button>`;
}

function oauthSection(provider: OAuthProvider, look: ProviderLook, p: SectionContext): SafeHtml {
  return html`<form class="provider-form" action="${provider.signinUrl}" method="post" data-provider-id="${provider.id}">${hiddenFields(p.csrfToken, p.callbackUrl)}${providerButton(provider, look, p.t)}</form>`;
}

function emailSection(provider: InternalEmailProvider, p: SectionContext): SafeHtml {
  const id = `${provider.id}-email`;
  const input = attributes({
    id,
    name: "email",
    type: "email",
    value: p.email,
    placeholder: "you@example.com",
    autocomplete: "email",
    inputmode: "email",
    required: true,
  });
  return html`<form class="stack" action="${provider.signinUrl}" method="post" data-provider-id="${provider.id}">
${hiddenFields(p.csrfToken, p.callbackUrl)}
<div class="field"><label for="${id}">${p.t(p.severalMethods ? "signIn.emailForLink" : "signIn.email")}</label><input${input}></div>
<button type="submit" class="button primary">${p.t("signIn.withProvider", { provider: provider.name })}</button>
</form>`;
}

function credentialsSection(provider: InternalCredentialsProvider, p: SectionContext): SafeHtml {
  const entries = Object.entries(provider.credentials ?? {});
  const hasPassword = entries.some(([, field]) => fieldType(field) === "password");
  const fields = entries.map(([name, field]) => {
    const autocomplete = defaultAutocomplete(field, hasPassword);
    return renderField(provider.id, name, field, autocomplete ? { autocomplete } : {});
  });
  // Conditional create: the passkey script offers the first such WebAuthn provider's passkey
  // once this form has signed the user in.
  const creating = p.providers.find(
    (other): other is InternalWebAuthnProvider =>
      other.type === "webauthn" && other.conditionalCreate !== false,
  );
  const create = creating
    ? html` data-conditional-create="${actionBase(p.url)}/webauthn-options/${encodeURIComponent(creating.id)}" data-conditional-create-callback="${creating.callbackUrl}"`
    : "";
  // Only relative paths under the base path: a provider's link cannot point off-site.
  const links = (provider.links ?? [])
    .filter((link) => /^[a-z0-9][a-z0-9/_-]*$/i.test(link.path))
    .map((link) => html`<a href="${actionBase(p.url)}/${link.path}">${link.label}</a>`);
  const linkRow =
    links.length > 0
      ? html`<p class="hint">${links.flatMap((link, index) => (index === 0 ? [link] : [html` · `, link]))}</p>`
      : null;
  return html`<form class="stack" action="${provider.callbackUrl}" method="post" data-provider-id="${provider.id}"${create}>
${hiddenFields(p.csrfToken, p.callbackUrl)}
${fields}
<button type="submit" class="button primary">${p.t("signIn.withProvider", { provider: provider.name })}</button>
</form>${linkRow}`;
}

/** The default field of the passkey form; beside other methods its label says what it is for. */
function defaultWebAuthnFields(p: SectionContext): Record<string, CredentialInput> {
  return {
    email: {
      label: p.t(p.severalMethods ? "signIn.emailForPasskey" : "signIn.email"),
      type: "email",
      placeholder: "you@example.com",
      required: true,
      autocomplete: "username webauthn",
    },
  };
}

/**
 * The passkey script's error texts in the page's language, as JSON for `data-webauthn-messages`
 * (escaped by `html` like any attribute): the script stays the same bytes, so its CSP hash holds.
 */
function passkeyMessages(t: Translator<CoreMessages>): string {
  return JSON.stringify({
    closed: t("signIn.passkey.error.closed"),
    exists: t("signIn.passkey.error.exists"),
    refused: t("signIn.passkey.error.refused"),
    createFailed: t("signIn.passkey.error.createFailed"),
    signInFailed: t("signIn.passkey.error.signInFailed"),
    unsupported: t("signIn.passkey.error.unsupported"),
  });
}

/**
 * The passkey form. It does nothing by itself: the WebAuthn script (`webauthnScript`, inlined;
 * see lib/webauthn/script.ts) finds the wrapper by `id="webauthn-<id>"`, intercepts the form's
 * submit, reads `data-action` of the submitter, fetches options from `data-webauthn-options-url`,
 * runs the ceremony, fills the hidden `action` and `data` inputs and submits the form to the
 * provider's callback URL (`data-callback-url`), CSRF token included. `data-conditional-ui` says whether it offers passkeys in the autofill.
 */
function webauthnSection(provider: InternalWebAuthnProvider, p: SectionContext): SafeHtml {
  const formFields = provider.formFields ?? defaultWebAuthnFields(p);
  const fields = Object.entries(formFields).map(([name, field]) =>
    renderField(
      provider.id,
      name,
      field,
      name === "email" && p.email !== undefined ? { prefill: p.email } : {},
    ),
  );
  const optionsUrl = `${actionBase(p.url)}/webauthn-options/${encodeURIComponent(provider.id)}`;
  return html`<section class="webauthn" id="webauthn-${provider.id}" data-provider-id="${provider.id}"
  data-webauthn-options-url="${optionsUrl}" data-callback-url="${provider.callbackUrl}"
  data-conditional-ui="${provider.enableConditionalUI ? "true" : "false"}" data-webauthn-messages="${passkeyMessages(p.t)}"${p.passkeySignals ? html` data-passkeys-url="${actionBase(p.url)}/passkeys"` : ""}>
<form class="stack" action="${provider.callbackUrl}" method="post" data-provider-id="${provider.id}">
${hiddenFields(p.csrfToken, p.callbackUrl)}
<input type="hidden" name="action" value=""><input type="hidden" name="data" value="">
${fields}
<div class="button-stack">
<button type="submit" class="button primary" data-provider-id="${provider.id}" data-action="authenticate">${p.t("signIn.passkey.signIn")}</button>
<button type="submit" class="button secondary" data-provider-id="${provider.id}" data-action="register">${p.t("signIn.passkey.create")}</button>
</div>
<noscript><p class="hint">${p.t("signIn.passkey.needsScript")}</p></noscript>
</form>
</section>`;
}

function isOAuth(provider: InternalProvider): provider is OAuthProvider {
  return provider.type === "oauth" || provider.type === "oidc";
}

function section(
  provider: InternalProvider,
  look: ProviderLook | undefined,
  p: SectionContext,
): SafeHtml | null {
  switch (provider.type) {
    case "oauth":
    case "oidc":
      return look ? oauthSection(provider, look, p) : null;
    case "email":
      return emailSection(provider, p);
    case "credentials":
      return credentialsSection(provider, p);
    case "webauthn":
      return webauthnSection(provider, p);
    default:
      return null;
  }
}

/**
 * Origins the page's forms may end up at. Chromium applies `form-action` to every redirect that
 * follows a submission, and an OAuth sign-in POST redirects to the identity provider, which may
 * redirect further (brokered or federated logins: Cognito, Keycloak, Entra ID…). Those hops are
 * unknowable here, so a page with an OAuth provider allows any https: target plus the known
 * endpoints (a dev IdP may be plain http). Pages without OAuth stay restricted to our origin
 * and the callback URL's origin (the final redirect after sign-in).
 */
function formTargets(p: SignInPageParams): string[] {
  const targets: string[] = [];
  const callback = safeHttpUrl(p.callbackUrl, p.url);
  const callbackOrigin = callback ? cspOrigin(callback) : undefined;
  if (callbackOrigin) targets.push(callbackOrigin);
  for (const provider of p.providers) {
    if (!isOAuth(provider)) continue;
    targets.push("https:");
    for (const endpoint of [
      provider.authorization?.url?.href,
      provider.issuer,
      provider.wellKnown,
    ]) {
      const origin = typeof endpoint === "string" ? cspOrigin(endpoint) : undefined;
      if (origin) targets.push(origin);
    }
  }
  return [...new Set(targets)];
}

/**
 * Consecutive OAuth providers form one group; every other provider is its own group. An "or"
 * divider separates groups, so a row of social buttons is not interleaved with dividers.
 */
function groupProviders(providers: readonly InternalProvider[]): InternalProvider[][] {
  const groups: InternalProvider[][] = [];
  let previousWasOAuth = false;
  for (const provider of providers) {
    if (!(isOAuth(provider) || SECTION_TYPES.has(provider.type))) continue;
    const oauth = isOAuth(provider);
    const current = groups[groups.length - 1];
    if (oauth && previousWasOAuth && current) current.push(provider);
    else groups.push([provider]);
    previousWasOAuth = oauth;
  }
  return groups;
}

/** Provider types with a section of their own (OAuth providers share one). */
const SECTION_TYPES: ReadonlySet<string> = new Set(["email", "credentials", "webauthn"]);

/** The title of a group when the page offers several: what kind of sign-in it is. */
function groupTitle(first: InternalProvider, t: Translator<CoreMessages>): string {
  switch (first.type) {
    case "email":
      return t("signIn.group.email");
    case "credentials": {
      const fields = Object.values(first.credentials ?? {});
      return fields.some((field) => fieldType(field) === "password")
        ? t("signIn.group.password")
        : first.name;
    }
    case "webauthn":
      return t("signIn.group.passkey");
    default:
      return t("signIn.group.oauth");
  }
}

function renderGroups(
  p: SignInPageParams,
  t: Translator<CoreMessages>,
  looks: Map<InternalProvider, ProviderLook>,
): SafeHtml[] {
  const groups = groupProviders(p.providers);
  const context: SectionContext = { ...p, t, severalMethods: groups.length > 1 };
  return groups.map((group, index) => {
    const sections = group.map((provider) => section(provider, looks.get(provider), context));
    if (!context.severalMethods) return html`<div class="group">${sections}</div>`;
    const titleId = `method-${index + 1}-title`;
    const [first] = group;
    return html`<div class="group" role="group" aria-labelledby="${titleId}"><h2 class="group-title" id="${titleId}">${first ? groupTitle(first, t) : ""}</h2>${sections}</div>`;
  });
}

/**
 * Renders the sign-in page: one form per provider in configuration order, and an error banner
 * when `error` is given (known values get a specific message, anything else a generic one; the
 * raw value is never shown). With several methods, each group has a title and the built-in
 * e-mail fields say what they are for; a signed-in visitor (`signedInAs`) is told so and offered
 * the methods as a way to link another one.
 *
 * `url` is `<origin><basePath>` without a trailing slash.
 *
 * @example
 * ```ts
 * const page = renderSignInPage({ url, theme: {}, providers, callbackUrl: "/", csrfToken })
 * ```
 */
export function renderSignInPage(p: SignInPageParams): ResponseInternal<string> {
  const t = p.t ?? englishCore;
  const looks = new Map<InternalProvider, ProviderLook>();
  p.providers.forEach((provider, index) => {
    if (isOAuth(provider)) looks.set(provider, providerLook(provider, index, p.url));
  });
  const groups = renderGroups(p, t, looks);
  const content: SafeHtml[] = [];
  if (p.signedInAs !== undefined) {
    content.push(
      html`<div class="notice" role="status" data-testid="signed-in-as"><p>${t.html(
        "signIn.signedInAs",
        {
          user: html`<strong>${p.signedInAs}</strong>`,
          signOut: html`<a href="${actionBase(p.url)}/signout">${t("signIn.signedInAs.signOut")}</a>`,
        },
      )}</p></div>`,
    );
  }
  if (p.error !== undefined) {
    content.push(
      html`<div class="alert" role="alert">${icons.alert}<p>${signInErrorMessage(t, p.error, p.code)}</p></div>`,
    );
  }
  groups.forEach((group, index) => {
    if (index > 0)
      content.push(html`<div class="divider" role="separator">${t("signIn.or")}</div>`);
    content.push(group);
  });
  if (groups.length === 0) {
    content.push(html`<p class="message">${t("signIn.noMethods")}</p>`);
  }
  const hasWebAuthn = p.providers.some((provider) => provider.type === "webauthn");
  if (hasWebAuthn && p.webauthnScript === undefined)
    throw new TypeError(
      "A sign-in page with a WebAuthn provider needs `webauthnScript`: its forms do nothing without the helper.",
    );
  return renderPage({
    url: p.url,
    theme: p.theme,
    status: 200,
    title: t("signIn.title"),
    heading: t("signIn.title"),
    subtitle: t.html("signIn.continueTo", { host: html`<strong>${p.url.host}</strong>` }),
    language: t,
    icon: { svg: icons.lock },
    content: html`${content}`,
    formTargets: formTargets(p),
    images: [...looks.values()].flatMap((look) => (look.logo ? [look.logo] : [])),
    css: [...looks.values()].flatMap((look) => (look.css ? [look.css] : [])).join("\n"),
    scripts: hasWebAuthn && p.webauthnScript !== undefined ? raw(p.webauthnScript) : undefined,
  });
}
