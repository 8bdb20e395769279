/**
 * The browser side of the built-in sign-in page's passkey form, inlined into the page and allowed
 * by its CSP through a `'sha256-…'` source: no CDN, no extra request, works offline and under a
 * strict policy. It reads everything from the markup the page renders:
 *
 * - `section[data-webauthn-options-url]` wraps one provider's form (`data-callback-url` is where
 *   the result is posted; `data-conditional-ui="false"` turns autofill off);
 * - buttons with `data-action="authenticate|register"` start a ceremony;
 * - the form's hidden `action` and `data` inputs carry the result, posted like any form (CSRF
 *   token and callback URL included), so the browser follows the redirect itself;
 * - once a section is wired up it gets `data-webauthn-ready` (tests wait for it);
 * - `data-webauthn-messages` holds its error texts in the page's language (JSON; English is
 *   built in), so the script, and with it the hash, is the same in every language.
 *
 * With `data-passkeys-url` (the adapter manages passkeys), a passkey sign-in is posted through
 * `fetch` and followed by the WebAuthn Signal API calls before the page leaves.
 *
 * Passkey autofill (conditional mediation) starts on load for the first form with an input whose
 * `autocomplete` contains `webauthn`, when `PublicKeyCredential.isConditionalMediationAvailable()`
 * says the browser can.
 *
 * The source is plain ES2020 in a template literal without substitutions or escapes, so that no
 * build step or bundler can change the bytes the hash covers. It must never contain `</script`
 * (the HTML parser would end the element there).
 */

/** The script's source. */
export const WEBAUTHN_SCRIPT = `(() => {
  "use strict";
  const sections = Array.from(document.querySelectorAll("section[data-webauthn-options-url]"));
  if (sections.length === 0) return;
  const supported = typeof window.PublicKeyCredential === "function" && !!navigator.credentials;
  let conditional = null;
  let busy = false;

  const toBuffer = (text) => {
    const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes.buffer;
  };
  const toBase64url = (buffer) => {
    if (!buffer) return undefined;
    let binary = "";
    for (const byte of new Uint8Array(buffer)) binary += String.fromCharCode(byte);
    return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
  };
  const descriptors = (list) => (list || []).map((item) => ({ ...item, id: toBuffer(item.id) }));
  const creationOptions = (options) => ({
    ...options,
    challenge: toBuffer(options.challenge),
    user: { ...options.user, id: toBuffer(options.user.id) },
    excludeCredentials: descriptors(options.excludeCredentials),
  });
  const requestOptions = (options) => ({
    ...options,
    challenge: toBuffer(options.challenge),
    allowCredentials: descriptors(options.allowCredentials),
  });
  const credentialJSON = (credential) => {
    const r = credential.response;
    const response = { clientDataJSON: toBase64url(r.clientDataJSON) };
    if (r.attestationObject) {
      response.attestationObject = toBase64url(r.attestationObject);
      response.transports = typeof r.getTransports === "function" ? r.getTransports() : [];
    } else {
      response.authenticatorData = toBase64url(r.authenticatorData);
      response.signature = toBase64url(r.signature);
      response.userHandle = toBase64url(r.userHandle);
    }
    return {
      id: credential.id,
      rawId: toBase64url(credential.rawId),
      type: credential.type,
      response,
      authenticatorAttachment: credential.authenticatorAttachment || undefined,
      clientExtensionResults: credential.getClientExtensionResults(),
    };
  };

  const show = (section, text) => {
    let box = section.querySelector("[data-webauthn-message]");
    if (!box) {
      box = document.createElement("p");
      box.className = "alert";
      box.setAttribute("role", "alert");
      box.setAttribute("data-webauthn-message", "");
      section.prepend(box);
    }
    box.textContent = text;
    box.hidden = !text;
  };
  const setBusy = (section, value) => {
    busy = value;
    section.setAttribute("aria-busy", String(value));
    for (const button of section.querySelectorAll("button")) button.disabled = value;
  };
  const ENGLISH = {
    closed: "The passkey prompt was closed or timed out. Try again.",
    exists: "This device already holds a passkey for this account.",
    refused: "A passkey cannot be created for this address. If you already have an account, sign in first.",
    createFailed: "The passkey could not be created. Try again.",
    signInFailed: "Signing in with a passkey failed. Try again.",
    unsupported: "This browser does not support passkeys.",
  };
  const say = (section, key) => {
    try {
      const texts = JSON.parse(section.getAttribute("data-webauthn-messages") || "{}");
      if (typeof texts[key] === "string" && texts[key]) return texts[key];
    } catch (error) {}
    return ENGLISH[key];
  };
  const explain = (section, error, action) => {
    if (error && error.name === "NotAllowedError") return say(section, "closed");
    if (error && error.name === "InvalidStateError") return say(section, "exists");
    if (error && error.status === 400 && action === "register") return say(section, "refused");
    return say(section, action === "register" ? "createFailed" : "signInFailed");
  };

  const fetchOptions = async (section, form, action, withFields) => {
    const url = new URL(section.getAttribute("data-webauthn-options-url"), location.href);
    url.searchParams.set("action", action);
    if (withFields)
      for (const input of form.querySelectorAll("input[name]"))
        if (input.type !== "hidden" && input.value) url.searchParams.set(input.name, input.value);
    const response = await fetch(url, {
      credentials: "same-origin",
      headers: { accept: "application/json" },
    });
    if (!response.ok) throw Object.assign(new Error("options request failed"), { status: response.status });
    return response.json();
  };

  const post = (section, form, action, credential) => {
    const field = (name, value) => {
      let input = form.querySelector('input[type="hidden"][name="' + name + '"]');
      if (!input) {
        input = document.createElement("input");
        input.type = "hidden";
        input.name = name;
        form.append(input);
      }
      input.value = value;
    };
    field("action", action);
    field("data", JSON.stringify(credentialJSON(credential)));
    const target = section.getAttribute("data-callback-url");
    if (target) form.setAttribute("action", target);
    const passkeysUrl = section.getAttribute("data-passkeys-url");
    if (passkeysUrl && action === "authenticate") void signIn(form, passkeysUrl, credential);
    else HTMLFormElement.prototype.submit.call(form);
  };

  // WebAuthn Signal API (Chrome 132+), feature-detected: a browser without it gets no call. A
  // signal is a hint to the authenticator and may never settle (seen with Chromium's virtual
  // authenticator): it gets a second at most before the page moves on.
  const signal = async (name, options) => {
    const method = window.PublicKeyCredential && PublicKeyCredential[name];
    if (typeof method !== "function") return;
    let timer;
    try {
      await Promise.race([
        method.call(PublicKeyCredential, options),
        new Promise((resolve) => {
          timer = setTimeout(resolve, 1000);
        }),
      ]);
    } catch (error) {
      console.warn("Passkey signal " + name + " refused:", error);
    } finally {
      clearTimeout(timer);
    }
  };
  const readJSON = async (url) => {
    try {
      const response = await fetch(url, { credentials: "same-origin", headers: { accept: "application/json" } });
      return response.ok ? await response.json() : null;
    } catch {
      return null;
    }
  };
  // Posts the assertion through fetch so the page learns how it ended before it leaves: a
  // credential the server does not know is hidden by the authenticator (signalUnknownCredential);
  // after a sign-in the authenticator learns which of the user's passkeys remain and the user's
  // current name (signalAllAcceptedCredentials, signalCurrentUserDetails).
  const signIn = async (form, passkeysUrl, credential) => {
    let next = null;
    try {
      // Not form.action: the form's input named "action" shadows that property.
      const response = await fetch(new URL(form.getAttribute("action") || "", location.href), {
        method: "POST",
        credentials: "same-origin",
        headers: { "content-type": "application/x-www-form-urlencoded", "x-auth-return-redirect": "1" },
        body: new URLSearchParams(new FormData(form)),
      });
      const answer = await response.json();
      if (answer && typeof answer.url === "string") next = new URL(answer.url, location.href);
    } catch {}
    if (!next) {
      location.reload();
      return;
    }
    const base = new URL(passkeysUrl, location.href);
    if (next.searchParams.has("error")) {
      const probe = new URL(base.href + "/unknown");
      probe.searchParams.set("id", credential.id);
      const known = await readJSON(probe);
      if (known && known.unknown === true)
        await signal("signalUnknownCredential", { rpId: known.rpId, credentialId: credential.id });
    } else {
      const list = await readJSON(base);
      const userId = toBase64url(credential.response.userHandle);
      if (list && list.signals && userId) {
        const s = list.signals;
        await signal("signalAllAcceptedCredentials", { rpId: s.rpId, userId, allAcceptedCredentialIds: s.allAcceptedCredentialIds });
        await signal("signalCurrentUserDetails", { rpId: s.rpId, userId, name: s.name, displayName: s.displayName });
      }
    }
    location.assign(next.href);
  };

  const startConditional = async (section, form) => {
    if (typeof PublicKeyCredential.isConditionalMediationAvailable !== "function") return;
    if (!(await PublicKeyCredential.isConditionalMediationAvailable())) return;
    const controller = new AbortController();
    const ready = fetchOptions(section, form, "authenticate", false);
    conditional = { controller, ready, section, form };
    try {
      const { options } = await ready;
      const credential = await navigator.credentials.get({
        mediation: "conditional",
        publicKey: requestOptions(options),
        signal: controller.signal,
      });
      if (credential && !busy) {
        setBusy(section, true);
        post(section, form, "authenticate", credential);
      }
    } catch (error) {
      // Chromium ends a pending autofill with NotAllowedError on its own (no passkey chosen, the
      // page left): the normal end of an offer, not worth a console line on every page load.
      const ordinary = controller.signal.aborted || (error && error.name === "NotAllowedError");
      if (!ordinary) console.warn("Passkey autofill stopped:", error);
    }
  };

  const ceremony = async (section, form, requested) => {
    if (busy) return;
    setBusy(section, true);
    show(section, "");
    try {
      const pending = conditional;
      if (pending) {
        // Wait for its options (and challenge cookie) first, so ours are the ones that count.
        await pending.ready.catch(() => {});
        pending.controller.abort();
        conditional = null;
      }
      const { action, options } = await fetchOptions(section, form, requested, true);
      const credential =
        action === "register"
          ? await navigator.credentials.create({ publicKey: creationOptions(options) })
          : await navigator.credentials.get({ publicKey: requestOptions(options) });
      if (!credential) throw new Error("no credential");
      post(section, form, action, credential);
    } catch (error) {
      console.warn("Passkey " + requested + " failed:", error);
      show(section, explain(section, error, requested));
      setBusy(section, false);
      const autofill = sections.find((s) => s.hasAttribute("data-webauthn-autofill"));
      if (autofill && !conditional) void startConditional(autofill, autofill.querySelector("form"));
    }
  };

  // Conditional create: once a password form has signed the user in (posted through fetch, so
  // the page is still here), the browser may create a passkey without a prompt. Chrome decides;
  // a request it does not grant within a few seconds is given up and the sign-in goes on.
  const conditionalCreate = async (form) => {
    const capabilities =
      typeof PublicKeyCredential.getClientCapabilities === "function"
        ? await PublicKeyCredential.getClientCapabilities().catch(() => ({}))
        : {};
    if (!capabilities || capabilities.conditionalCreate !== true) return;
    const url = new URL(form.getAttribute("data-conditional-create"), location.href);
    url.searchParams.set("action", "register");
    const ceremony = await readJSON(url);
    if (!ceremony || ceremony.action !== "register") return;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 4000);
    let credential = null;
    try {
      credential = await navigator.credentials.create({
        mediation: "conditional",
        publicKey: creationOptions(ceremony.options),
        signal: controller.signal,
      });
    } catch {}
    clearTimeout(timer);
    if (!credential) return;
    const body = new URLSearchParams();
    body.set("action", "register");
    body.set("data", JSON.stringify(credentialJSON(credential)));
    const csrf = form.querySelector('input[name="csrfToken"]');
    if (csrf) body.set("csrfToken", csrf.value);
    await fetch(new URL(form.getAttribute("data-conditional-create-callback"), location.href), {
      method: "POST",
      credentials: "same-origin",
      headers: { "content-type": "application/x-www-form-urlencoded", "x-auth-return-redirect": "1" },
      body,
    }).catch(() => {});
  };
  if (supported)
    for (const form of document.querySelectorAll("form[data-conditional-create]")) {
      form.addEventListener("submit", async (event) => {
        event.preventDefault();
        let next = null;
        try {
          const response = await fetch(new URL(form.getAttribute("action") || "", location.href), {
            method: "POST",
            credentials: "same-origin",
            headers: { "content-type": "application/x-www-form-urlencoded", "x-auth-return-redirect": "1" },
            body: new URLSearchParams(new FormData(form)),
          });
          const answer = await response.json();
          if (answer && typeof answer.url === "string") next = new URL(answer.url, location.href);
        } catch {}
        if (!next) {
          HTMLFormElement.prototype.submit.call(form);
          return;
        }
        if (!next.searchParams.has("error")) await conditionalCreate(form);
        location.assign(next.href);
      });
      form.setAttribute("data-conditional-create-ready", "");
    }

  for (const section of sections) {
    const form = section.querySelector("form");
    if (!form) continue;
    if (!supported) {
      show(section, say(section, "unsupported"));
      for (const button of section.querySelectorAll("button[data-action]")) button.disabled = true;
      continue;
    }
    const actionOf = (button) =>
      button && button.getAttribute("data-action") === "register" ? "register" : "authenticate";
    section.addEventListener("click", (event) => {
      const button = event.target instanceof Element ? event.target.closest("button[data-action]") : null;
      if (!button || !section.contains(button)) return;
      // Handled before form validation: signing in with a passkey needs no typed address.
      event.preventDefault();
      const action = actionOf(button);
      if (action === "register" && !form.reportValidity()) return;
      void ceremony(section, form, action);
    });
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      void ceremony(section, form, actionOf(event.submitter));
    });
    section.setAttribute("data-webauthn-ready", "");
    const autofill =
      section.getAttribute("data-conditional-ui") !== "false" &&
      section.querySelector('input[autocomplete~="webauthn"]');
    if (autofill && !sections.some((s) => s.hasAttribute("data-webauthn-autofill"))) {
      section.setAttribute("data-webauthn-autofill", "");
      void startConditional(section, form);
    }
  }
})();
`;

/** The inline `<script>` element carrying {@link WEBAUTHN_SCRIPT}. */
export function webauthnScriptElement(): string {
  return `<script>${WEBAUTHN_SCRIPT}</script>`;
}
