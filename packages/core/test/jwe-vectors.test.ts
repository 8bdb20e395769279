/**
 * The session JWE (lib/crypto/jwe.ts) against published test vectors and against `jose`:
 * - RFC 7518 Appendix B.3: the AES_256_CBC_HMAC_SHA_512 (A256CBC-HS512) computation, byte for byte.
 * - RFC 7516 Appendix A.1: its A256GCM content encryption (CEK, IV, AAD, ciphertext, tag).
 * - Compact `dir` tokens: no RFC publishes one for dir + A256CBC-HS512 or dir + A256GCM (RFC 7516
 *   Appendix A uses RSA-OAEP, RSA1_5 and A128KW; RFC 7520 §5.6 uses dir with A128GCM, which Tessera
 *   does not accept), so `jose` produces them here with a fixed IV and a key derived without
 *   Tessera's code, and the tokens are pinned.
 * - Property tests: random payloads and secrets, Tessera → jose and jose → Tessera, both encs.
 */
import { hkdfSync } from "node:crypto";
import fc from "fast-check";
import { base64url, CompactEncrypt, calculateJwkThumbprint, EncryptJWT, jwtDecrypt } from "jose";
import { describe, expect, it } from "vitest";
import type { ContentEncryption } from "../src/lib/crypto/jwe.js";
import {
  aadLengthBits,
  cbcHmacTag,
  decryptNode,
  decryptSessionToken,
  encryptSessionToken,
  type ParsedJwe,
} from "../src/lib/crypto/jwe.js";

const hex = (text: string) => new Uint8Array(Buffer.from(text.replace(/\s+/g, ""), "hex"));
const ascii = (text: string) => new TextEncoder().encode(text);
const bytesOf = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

/** The parts `decryptNode` reads, with `aad` as the additional authenticated data. */
function parts(aad: Uint8Array, iv: Uint8Array, ciphertext: Uint8Array, tag: Uint8Array) {
  const protectedHeader = { encoded: "", header: {}, aad, aadLengthBits: aadLengthBits(aad) };
  return { header: {}, protectedHeader, iv, ciphertext, tag } satisfies ParsedJwe;
}

describe("RFC 7518 Appendix B.3: AES_256_CBC_HMAC_SHA_512", () => {
  const K = hex(`
    00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f 10 11 12 13 14 15 16 17 18 19 1a 1b 1c 1d 1e 1f
    20 21 22 23 24 25 26 27 28 29 2a 2b 2c 2d 2e 2f 30 31 32 33 34 35 36 37 38 39 3a 3b 3c 3d 3e 3f`);
  const P = ascii(
    "A cipher system must not be required to be secret, and it must be able to fall into the hands of the enemy without inconvenience",
  );
  const IV = hex("1a f3 8c 2d c2 b9 6f fd d8 66 94 09 23 41 bc 04");
  const A = ascii("The second principle of Auguste Kerckhoffs");
  const AL = hex("00 00 00 00 00 00 01 50");
  const E = hex(`
    4a ff aa ad b7 8c 31 c5 da 4b 1b 59 0d 10 ff bd 3d d8 d5 d3 02 42 35 26 91 2d a0 37 ec bc c7 bd
    82 2c 30 1d d6 7c 37 3b cc b5 84 ad 3e 92 79 c2 e6 d1 2a 13 74 b7 7f 07 75 53 df 82 94 10 44 6b
    36 eb d9 70 66 29 6a e6 42 7e a7 5c 2e 08 46 a1 1a 09 cc f5 37 0d c8 0b fe cb ad 28 c7 3f 09 b3
    a3 b7 5e 66 2a 25 94 41 0a e4 96 b2 e2 e6 60 9e 31 e6 e0 2c c8 37 f0 53 d2 1f 37 ff 4f 51 95 0b
    be 26 38 d0 9d d7 a4 93 09 30 80 6d 07 03 b1 f6`);
  const T = hex(`
    4d d3 b4 c0 88 a7 f4 5c 21 68 39 64 5b 20 12 bf 2e 62 69 a8 c5 6a 81 6d bc 1b 26 77 61 95 5b c5`);

  it("computes AL, the AAD length in bits, as the RFC does", () => {
    expect(bytesOf(aadLengthBits(A))).toBe(bytesOf(AL));
  });

  it("computes the authentication tag T from MAC_KEY (the first 32 bytes of K)", () => {
    const tag = cbcHmacTag(K.subarray(0, 32), parts(A, IV, E, T).protectedHeader, IV, E);
    expect(bytesOf(tag)).toBe(bytesOf(T));
  });

  it("decrypts E to P with ENC_KEY (the last 32 bytes of K) once T checks", () => {
    const plaintext = decryptNode(parts(A, IV, E, T), "A256CBC-HS512", K);
    expect(bytesOf(plaintext)).toBe(bytesOf(P));
  });

  it("refuses the vector with one bit flipped in A, IV, E or T", () => {
    const flipped = (bytes: Uint8Array, index: number) => {
      const copy = new Uint8Array(bytes);
      copy[index] = (copy[index] ?? 0) ^ 1;
      return copy;
    };
    for (const broken of [
      parts(flipped(A, 0), IV, E, T),
      parts(A, flipped(IV, 15), E, T),
      parts(A, IV, flipped(E, 100), T),
      parts(A, IV, E, flipped(T, 31)),
    ])
      expect(() => decryptNode(broken, "A256CBC-HS512", K)).toThrow(/could not be decrypted/);
  });
});

describe("RFC 7516 Appendix A.1: A256GCM content encryption", () => {
  const CEK = new Uint8Array([
    177, 161, 244, 128, 84, 143, 225, 115, 63, 180, 3, 255, 107, 154, 212, 246, 138, 7, 110, 91,
    112, 46, 34, 105, 47, 130, 203, 46, 122, 234, 64, 252,
  ]);
  // The AAD is the ASCII of the encoded protected header {"alg":"RSA-OAEP","enc":"A256GCM"}.
  const AAD = ascii("eyJhbGciOiJSU0EtT0FFUCIsImVuYyI6IkEyNTZHQ00ifQ");
  const IV = base64url.decode("48V1_ALb6US04U3b");
  const CIPHERTEXT = base64url.decode(
    "5eym8TW_c8SuK0ltJ3rpYIzOeDQz7TALvtu6UG9oMo4vpzs9tX_EFShS8iB7j6jiSdiwkIr3ajwQzaBtQD_A",
  );
  const TAG = base64url.decode("XFBoMYUZodetZdvTiFvSkQ");

  it("decrypts the ciphertext to the RFC's plaintext", () => {
    const plaintext = decryptNode(parts(AAD, IV, CIPHERTEXT, TAG), "A256GCM", CEK);
    expect(new TextDecoder().decode(plaintext)).toBe(
      "The true sign of intelligence is not knowledge but imagination.",
    );
  });

  it("refuses it under another AAD (the header is authenticated)", () => {
    const other = ascii("eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0");
    expect(() => decryptNode(parts(other, IV, CIPHERTEXT, TAG), "A256GCM", CEK)).toThrow();
  });
});

// Key derivation written out with node:crypto from the documented parameters (HKDF-SHA-256,
// salt = cookie name, info = "Auth.js Generated Encryption Key (<salt>)"), not Tessera's own derivation in jwe.ts.
const KEY_BYTES: Record<ContentEncryption, number> = { "A256CBC-HS512": 64, A256GCM: 32 };
async function independentKey(enc: ContentEncryption, secret: string, salt: string) {
  const info = `Auth.js Generated Encryption Key (${salt})`;
  const key = new Uint8Array(hkdfSync("sha256", secret, salt, info, KEY_BYTES[enc]));
  const hash = enc === "A256GCM" ? "sha256" : "sha512";
  const kid = await calculateJwkThumbprint({ kty: "oct", k: base64url.encode(key) }, hash);
  return { key, kid };
}

describe("compact dir JWEs produced by jose (pinned)", () => {
  const secret = "rfc-vector-secret-for-tessera-jwe-tests";
  const salt = "authjs.session-token";
  const payload = '{"sub":"rfc-vector","name":"Ada"}';
  const pinned: Record<ContentEncryption, { iv: number; token: string }> = {
    "A256CBC-HS512": {
      iv: 16,
      token:
        "eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2Q0JDLUhTNTEyIiwia2lkIjoibXpkTlJ2RnFwYTRkNERqV0YwWFdwTldyRUxiN3BjMTF3ZC01Vks0TUdKbmNtN09MNjdTQkZBWjRTcHlpZGFGNmpNMmFUdm5paW5OcUsyeExTc2MxU3cifQ..AQIDBAUGBwgJCgsMDQ4PEA.7Q1iZRh5kay8EjoCsEEaC93pPJLBzrLWqWYm-TJBjRHCQFMzDlFZkAYNmyPNzIaw.EDoz12Ewk4_ckqnQov9UHp6XMffR6TNEf9sEVBtXIXE",
    },
    A256GCM: {
      iv: 12,
      token:
        "eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIiwia2lkIjoieU1acjVHMWxJTXZzNjVqZVhqRlJQc2dMbDBuQU5ncjJ2bG9JYV9EazUtRSJ9..AQIDBAUGBwgJCgsM.Rv55gbQgGgjuy3XePTaW1L5atPUkcvtLI17_NCDkJWoi.M2Wp9n19c6LKUwYXwHrIWw",
    },
  };

  for (const enc of ["A256CBC-HS512", "A256GCM"] as const) {
    it(`jose reproduces the pinned dir + ${enc} token, and both engines decrypt it`, async () => {
      const { key, kid } = await independentKey(enc, secret, salt);
      const iv = new Uint8Array(pinned[enc].iv).map((_, i) => i + 1);
      const made = await new CompactEncrypt(ascii(payload))
        .setProtectedHeader({ alg: "dir", enc, kid })
        .setInitializationVector(iv)
        .encrypt(key);
      expect(made).toBe(pinned[enc].token);
      for (const engine of ["node", "web"] as const)
        expect(await decryptSessionToken(pinned[enc].token, [secret], salt, engine)).toEqual(
          JSON.parse(payload),
        );
    });
  }
});

describe("property: Tessera and jose agree on random payloads and secrets", () => {
  const RESERVED = new Set(["iat", "exp", "nbf", "jti"]);
  const claims = fc
    .dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 6 })
    .map((value) => {
      const plain: Record<string, unknown> = JSON.parse(JSON.stringify(value));
      for (const name of RESERVED) delete plain[name];
      return plain;
    });
  const secret = fc.string({ minLength: 1, maxLength: 64, unit: "binary" });
  const salt = fc.constantFrom(
    "authjs.session-token",
    "__Secure-authjs.session-token",
    "authjs.pkce.code_verifier",
  );
  const runs = { numRuns: 200 };

  it("Tessera encrypts (A256CBC-HS512, either engine), jose decrypts with an independently derived key", async () => {
    const engine = fc.constantFrom("node" as const, "web" as const);
    await fc.assert(
      fc.asyncProperty(claims, secret, salt, engine, async (payload, key, cookie, writer) => {
        const token = await encryptSessionToken(payload, [key], cookie, 3600, writer);
        const derived = await independentKey("A256CBC-HS512", key, cookie);
        const { payload: read, protectedHeader } = await jwtDecrypt(token, derived.key);
        expect(protectedHeader).toEqual({ alg: "dir", enc: "A256CBC-HS512", kid: derived.kid });
        const { iat, exp, jti, ...rest } = read;
        expect(rest).toEqual(payload);
        expect(exp).toBe((iat ?? 0) + 3600);
        expect(jti).toMatch(/^[0-9a-f-]{36}$/);
      }),
      runs,
    );
  });

  it("jose encrypts with either enc, Tessera decrypts on both engines", async () => {
    const enc = fc.constantFrom<ContentEncryption>("A256CBC-HS512", "A256GCM");
    await fc.assert(
      fc.asyncProperty(claims, secret, salt, enc, async (payload, key, cookie, algorithm) => {
        const derived = await independentKey(algorithm, key, cookie);
        const token = await new EncryptJWT(payload)
          .setProtectedHeader({ alg: "dir", enc: algorithm, kid: derived.kid })
          .setIssuedAt()
          .setExpirationTime("1h")
          .encrypt(derived.key);
        for (const engine of ["node", "web"] as const) {
          const read = await decryptSessionToken(token, ["another-secret", key], cookie, engine, {
            maxAge: 3600,
          });
          const { iat: _iat, exp: _exp, ...rest } = read;
          expect(rest).toEqual(payload);
        }
      }),
      runs,
    );
  });
});
