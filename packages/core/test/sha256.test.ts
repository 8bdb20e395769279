/**
 * The plain-JavaScript SHA-256 that runtimes without `node:crypto` (workerd without
 * `nodejs_compat`, Vercel's Edge Runtime) use for store keys: FIPS 180-2 Appendix B's examples,
 * then random messages of every length around the padding boundaries against `node:crypto`.
 */
import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sha256, sha256Base64url } from "../src/lib/crypto/sha256.js";

const hexOf = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");
const ascii = (text: string) => new TextEncoder().encode(text);

describe("sha256 without node:crypto", () => {
  it("hashes the FIPS 180-2 Appendix B examples (one block, two blocks, a million bytes)", () => {
    expect(hexOf(sha256(ascii("abc")))).toBe(
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    );
    expect(hexOf(sha256(ascii("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")))).toBe(
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
    );
    expect(hexOf(sha256(new Uint8Array(1_000_000).fill(0x61)))).toBe(
      "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
    );
  });

  it("hashes the empty message and every length across the padding boundaries like node:crypto", () => {
    for (let length = 0; length <= 200; length++) {
      const message = new Uint8Array(length).map((_, i) => (i * 31 + length) & 0xff);
      expect(hexOf(sha256(message)), `length ${length}`).toBe(
        createHash("sha256").update(message).digest("hex"),
      );
    }
  });

  it("hashes random messages like node:crypto", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 4096 }), (message) => {
        expect(hexOf(sha256(message))).toBe(createHash("sha256").update(message).digest("hex"));
      }),
    );
  });

  it("gives the same store key for any text, multi-byte characters included, as node:crypto does", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 300 }), (text) => {
        const expected = createHash("sha256").update(text).digest("base64url");
        expect(sha256Base64url(text)).toBe(expected);
        expect(Buffer.from(sha256(ascii(text))).toString("base64url")).toBe(expected);
      }),
    );
  });
});
