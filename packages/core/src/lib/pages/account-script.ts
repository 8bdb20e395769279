/**
 * The browser side of the built-in account page, inlined and allowed by the page's CSP through
 * its `'sha256-…'` source (as the WebAuthn helper is). Forms marked `data-account-fetch` (end a
 * session, rename or delete a passkey) are posted with `fetch` to the sessions and passkeys
 * actions, which answer JSON; then the page reloads. A passkey change is followed by the
 * WebAuthn Signal API calls (feature-detected) with the `signals` the answer carries; after a
 * name change (`data-signal-details` on the passkeys section) `signalCurrentUserDetails` tells
 * the authenticators the new name. A refusal shows the text of the form's `data-failed` in the
 * page's alert; a refusal for step-up (403 with a same-origin `url`) goes to that URL, where the
 * user signs in again and comes back. Once wired up, `<html>` gets `data-account-ready` (tests
 * wait for it).
 *
 * The source is plain ES2020 in a template literal without substitutions or escapes, so that no
 * build step can change the bytes the hash covers. It must never contain `</script`.
 */

/** The script's source. */
export const ACCOUNT_SCRIPT = `(() => {
  "use strict";
  const alertBox = document.getElementById("account-alert");
  const show = (text) => {
    if (!alertBox) return;
    alertBox.querySelector("p").textContent = text;
    alertBox.hidden = false;
  };
  const credentials = window.PublicKeyCredential;
  const signalAccepted = async (signals) => {
    if (!signals || !credentials || typeof credentials.signalAllAcceptedCredentials !== "function") return;
    for (const userId of signals.userHandles || []) {
      try {
        await credentials.signalAllAcceptedCredentials({ rpId: signals.rpId, userId, allAcceptedCredentialIds: signals.allAcceptedCredentialIds });
      } catch (error) {}
    }
  };
  const signalDetails = async (signals) => {
    if (!signals || !credentials || typeof credentials.signalCurrentUserDetails !== "function") return;
    for (const userId of signals.userHandles || []) {
      try {
        await credentials.signalCurrentUserDetails({ rpId: signals.rpId, userId, name: signals.name, displayName: signals.displayName });
      } catch (error) {}
    }
  };
  const section = document.querySelector("[data-passkey-signals]");
  if (section && section.hasAttribute("data-signal-details")) {
    try { signalDetails(JSON.parse(section.getAttribute("data-passkey-signals"))); } catch (error) {}
  }
  for (const form of document.querySelectorAll("form[data-account-fetch]")) {
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const failed = form.getAttribute("data-failed") || "";
      const body = new URLSearchParams(new FormData(form));
      let answer = null;
      try {
        const response = await fetch(form.action, { method: "POST", body, credentials: "same-origin", headers: { accept: "application/json" } });
        try { answer = await response.json(); } catch (error) {}
        if (!response.ok) {
          // Step-up: a sensitive change asks for a fresh sign-in first (our own origin only).
          const next = answer && typeof answer.url === "string" ? new URL(answer.url, window.location.href) : null;
          if (response.status === 403 && next && next.origin === window.location.origin) return window.location.assign(next.href);
          // The last way in is kept: say so rather than "try again".
          if (response.status === 409 && form.hasAttribute("data-last-way-in")) return show(form.getAttribute("data-last-way-in"));
          return show(failed);
        }
      } catch (error) {
        return show(failed);
      }
      if (answer && answer.signals) {
        await signalAccepted(answer.signals);
        if (form.hasAttribute("data-signal-details")) await signalDetails(answer.signals);
      }
      window.location.reload();
    });
  }
  document.documentElement.setAttribute("data-account-ready", "");
})();`;

/** CSP hash source of {@link ACCOUNT_SCRIPT} (base64 SHA-256); a unit test recomputes it. */
export const ACCOUNT_SCRIPT_HASH = "sha256-/L8nmqNAlT7Fq510CV79GZNF6S0ijwqyFaBWqSoeLYY=";
