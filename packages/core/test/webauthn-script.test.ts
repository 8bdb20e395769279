/**
 * The inline browser script: its CSP hash, and the properties that keep it intact inside an HTML
 * page. Its behaviour is exercised in Chromium by e2e/webauthn.test.ts.
 */
import { createHash } from "node:crypto";
import { Script } from "node:vm";
import { describe, expect, it } from "vitest";
import { WEBAUTHN_SCRIPT, webauthnScriptElement } from "../src/lib/webauthn/script.js";
import { WEBAUTHN_SCRIPT_HASH } from "../src/lib/webauthn/script-hash.js";

describe("webauthn browser script", () => {
  it("has the CSP hash the pages allow", () => {
    const hash = `sha256-${createHash("sha256").update(WEBAUTHN_SCRIPT, "utf8").digest("base64")}`;
    // When this fails after editing the script, put the new value into WEBAUTHN_SCRIPT_HASH.
    expect(WEBAUTHN_SCRIPT_HASH).toBe(hash);
  });

  it("is valid JavaScript", () => {
    expect(() => new Script(WEBAUTHN_SCRIPT, { filename: "webauthn.js" })).not.toThrow();
  });

  it("survives the HTML parser byte for byte", () => {
    // The hash covers the element's text: nothing the parser would end, rewrite or normalise.
    expect(WEBAUTHN_SCRIPT).not.toMatch(/<\/script|<!--|\r|\\/i);
    expect(WEBAUTHN_SCRIPT).toMatch(/^[\x20-\x7e\n]*$/);
    expect(webauthnScriptElement()).toBe(`<script>${WEBAUTHN_SCRIPT}</script>`);
  });

  it("talks only to the page's own origin", () => {
    expect(WEBAUTHN_SCRIPT).not.toMatch(/https?:\/\//);
    expect(WEBAUTHN_SCRIPT).not.toMatch(/\beval\(|new Function|innerHTML|document\.write/);
  });
});
