/**
 * The challenge page's "Use a passkey" helper: fetches the passkey options of the paused
 * sign-in, asks the browser's authenticator, and posts the assertion with the page's form. Inline
 * and allowed by its hash only (the page's CSP lists no other script); a test recomputes the hash.
 */

/** The script's source: plain ES2017 for every browser with WebAuthn. */
export const PASSKEY_CHALLENGE_SCRIPT = `(() => {
  const button = document.querySelector("[data-two-factor-passkey]");
  if (!button) return;
  if (!window.PublicKeyCredential) { button.closest("form").hidden = true; return; }
  const form = button.closest("form");
  const bytes = (text) => Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0)).buffer;
  const text = (buffer) => buffer ? btoa(String.fromCharCode(...new Uint8Array(buffer))).replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "") : undefined;
  button.addEventListener("click", async () => {
    try {
      const answer = await fetch(button.dataset.twoFactorPasskey, { credentials: "same-origin", headers: { Accept: "application/json" } });
      if (!answer.ok) throw new Error("no passkey options (" + answer.status + ")");
      const { options } = await answer.json();
      const allow = (options.allowCredentials || []).map((item) => Object.assign({}, item, { id: bytes(item.id) }));
      const credential = await navigator.credentials.get({ publicKey: Object.assign({}, options, { challenge: bytes(options.challenge), allowCredentials: allow }) });
      const response = credential.response;
      form.elements.passkey.value = JSON.stringify({
        id: credential.id, rawId: text(credential.rawId), type: credential.type,
        response: { clientDataJSON: text(response.clientDataJSON), authenticatorData: text(response.authenticatorData), signature: text(response.signature), userHandle: text(response.userHandle) },
        clientExtensionResults: credential.getClientExtensionResults(),
      });
      form.submit();
    } catch (error) {
      console.warn("[tessera] the passkey did not answer:", error);
    }
  });
})();`;

/** CSP hash source of {@link PASSKEY_CHALLENGE_SCRIPT} (base64 SHA-256 of its UTF-8 bytes). */
export const PASSKEY_CHALLENGE_SCRIPT_HASH = "sha256-nhcvcss+K4W8v7YZaX8OYMk6usKIbsEDKyhqvBR8sQA=";
