/**
 * CSP source allowing exactly \`WEBAUTHN_SCRIPT\` (script.ts; CSP Level 3 §8.4 hash sources): base64
 * SHA-256 of its UTF-8 bytes. A constant, so every runtime (edge included) renders pages
 * synchronously; a unit test recomputes it and fails when the script changes without it. In a
 * module of its own because every page's Content-Security-Policy names it, while only the
 * sign-in page carries the script.
 */
export const WEBAUTHN_SCRIPT_HASH = "sha256-4KUZa7TAEMAQ4s4svVMxCxOuJDS0PkblqKcgaKfNapo=";
