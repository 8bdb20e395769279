import { scryptAsync } from "@noble/hashes/scrypt.js";
import { EdgeRuntime } from "edge-runtime";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_SCRYPT,
  dummyCheck,
  hashPassword,
  parseScryptHash,
  verifyPassword,
} from "../src/extensions/password/hash.js";
import { checkPassword, resolvePolicy } from "../src/extensions/password/policy.js";

// Cheap parameters for the behaviour tests; one test runs the default (OWASP) parameters.
const FAST = { ln: 10, r: 8, p: 1 };

describe("password hashing (scrypt, PHC string)", () => {
  it("hashes with OWASP's scrypt parameters by default and verifies the same password", async () => {
    expect(DEFAULT_SCRYPT).toEqual({ ln: 17, r: 8, p: 1 });
    const stored = await hashPassword("correct horse battery staple");
    expect(stored).toMatch(/^\$scrypt\$ln=17,r=8,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(await verifyPassword("correct horse battery staple", stored)).toEqual({
      valid: true,
      needsRehash: false,
    });
  });

  it("verifies RFC 7914's scrypt test vector (the hash is scrypt, not something like it)", async () => {
    // RFC 7914 §12: scrypt("password", "NaCl", N=1024, r=8, p=16), first 32 bytes of the key.
    const key = Buffer.from(
      "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b373162",
      "hex",
    ).toString("base64");
    const salt = Buffer.from("NaCl").toString("base64");
    const stored = `$scrypt$ln=10,r=8,p=16$${salt.replace(/=+$/, "")}$${key.replace(/=+$/, "")}`;
    expect((await verifyPassword("password", stored, { ln: 10, r: 8, p: 16 })).valid).toBe(true);
    expect((await verifyPassword("Password", stored, { ln: 10, r: 8, p: 16 })).valid).toBe(false);
  });

  it("refuses a wrong password and gives each hash its own salt", async () => {
    const one = await hashPassword("hunter2hunter2", FAST);
    const two = await hashPassword("hunter2hunter2", FAST);
    expect(one).not.toBe(two);
    expect((await verifyPassword("hunter2hunter3", one, FAST)).valid).toBe(false);
    expect((await verifyPassword("hunter2hunter2", two, FAST)).valid).toBe(true);
  });

  it("flags a hash made with older parameters for re-hashing, and only when the password is right", async () => {
    const old = await hashPassword("a long enough password", { ln: 9, r: 8, p: 1 });
    expect(await verifyPassword("a long enough password", old, FAST)).toEqual({
      valid: true,
      needsRehash: true,
    });
    expect(await verifyPassword("another password", old, FAST)).toEqual({
      valid: false,
      needsRehash: false,
    });
  });

  it("normalises with NFKC: a composed and a decomposed é are one password", async () => {
    const stored = await hashPassword("caf\u00e9 au lait", FAST);
    expect((await verifyPassword("cafe\u0301 au lait", stored, FAST)).valid).toBe(true);
    // Full-width letters fold to ASCII under NFKC.
    const ascii = await hashPassword("Password123", FAST);
    expect((await verifyPassword("Ｐａｓｓｗｏｒｄ１２３", ascii, FAST)).valid).toBe(true);
  });

  it("memory exhaustion: a tampered hash asking for N=2^30 is refused, not computed", async () => {
    const stored = await hashPassword("secret password", FAST);
    const tampered = stored.replace("ln=10", "ln=30");
    expect(parseScryptHash(tampered)).toBeNull();
    expect(await verifyPassword("secret password", tampered, FAST)).toEqual({
      valid: false,
      needsRehash: false,
    });
  });

  it("malformed stored values (empty, another scheme, truncated) verify as false without throwing", async () => {
    for (const stored of ["", "plaintext", "$2b$10$abc", "$scrypt$ln=10,r=8,p=1$", "$scrypt$ln=x"])
      expect((await verifyPassword("whatever password", stored, FAST)).valid).toBe(false);
  });

  it("account enumeration by timing: the unknown-user path runs a real scrypt and answers false", async () => {
    // No timing assertion here (bench/ measures it); the dummy hash is made with the same
    // parameters, so it costs one scrypt of those parameters.
    expect(await dummyCheck("anything at all", FAST)).toBe(false);
    expect(await dummyCheck("anything at all", FAST)).toBe(false);
  });
});

describe("hashes imported from other systems", () => {
  // Made by the Argon2 reference implementation (libargon2, argon2id_hash_encoded): t=2,
  // m=1024 KiB, p=1, salt "tessera-salt-16b", 32-byte hash.
  const ARGON2ID =
    "$argon2id$v=19$m=1024,t=2,p=1$dGVzc2VyYS1zYWx0LTE2Yg$Zw/ApUYMeXaLXdwOKLE6fejsJaXkBWxbcp05z5ICC1U";

  it("an Argon2id hash from the reference implementation verifies and asks to be re-hashed", async () => {
    expect(await verifyPassword("correct horse battery staple", ARGON2ID, FAST)).toEqual({
      valid: true,
      needsRehash: true,
    });
    expect(await verifyPassword("Correct horse battery staple", ARGON2ID, FAST)).toEqual({
      valid: false,
      needsRehash: false,
    });
  });

  it("memory exhaustion: a tampered Argon2id hash asking for 4 GiB is refused, not computed", async () => {
    const tampered = ARGON2ID.replace("m=1024", "m=4194304");
    expect((await verifyPassword("correct horse battery staple", tampered, FAST)).valid).toBe(
      false,
    );
  });

  // Openwall's crypt_blowfish test vectors (wrapper.c): "U*U" at cost 5, and the empty password.
  const BCRYPT_U = "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW";
  const BCRYPT_EMPTY = "$2a$05$CCCCCCCCCCCCCCCCCCCCC.7uG0VCzI2bS7j6ymqJi9CdcdxiRTWNy";

  it("bcrypt hashes ($2a$, $2b$, $2y$) from crypt_blowfish's vectors verify and ask to be re-hashed", async () => {
    for (const prefix of ["$2a$", "$2b$", "$2y$"]) {
      const stored = BCRYPT_U.replace("$2a$", prefix);
      expect(await verifyPassword("U*U", stored, FAST)).toEqual({ valid: true, needsRehash: true });
      expect(await verifyPassword("U*V", stored, FAST)).toEqual({
        valid: false,
        needsRehash: false,
      });
    }
    expect((await verifyPassword("", BCRYPT_EMPTY, FAST)).valid).toBe(true);
    expect((await verifyPassword("U*U", BCRYPT_EMPTY, FAST)).valid).toBe(false);
  });

  it("denial of service: a tampered bcrypt hash with cost 31 is refused, not computed", async () => {
    const tampered = BCRYPT_U.replace("$05$", "$31$");
    expect(await verifyPassword("U*U", tampered, FAST)).toEqual({
      valid: false,
      needsRehash: false,
    });
  });

  it("the verifyPassword hook checks any other scheme; its yes asks for a re-hash", async () => {
    const legacy = "$legacy$plain$hunter2hunter2";
    const hook = (typed: string, stored: string) => stored === `$legacy$plain$${typed}`;
    expect(await verifyPassword("hunter2hunter2", legacy, FAST, hook)).toEqual({
      valid: true,
      needsRehash: true,
    });
    expect((await verifyPassword("hunter3hunter3", legacy, FAST, hook)).valid).toBe(false);
    // Without the hook, an unknown scheme never verifies.
    expect((await verifyPassword("hunter2hunter2", legacy, FAST)).valid).toBe(false);
  });
});

describe("password hashes across runtimes", () => {
  it("a hash made with node:crypto is the one @noble/hashes computes, and the other way round", async () => {
    const stored = await hashPassword("caf\u00e9 passphrase", FAST);
    const parsed = parseScryptHash(stored);
    if (!parsed) throw new Error("not a PHC string");
    const password = new TextEncoder().encode("caf\u00e9 passphrase".normalize("NFKC"));
    const noble = await scryptAsync(password, parsed.salt, { N: 2 ** 10, r: 8, p: 1, dkLen: 32 });
    expect(Buffer.from(noble).equals(Buffer.from(parsed.key))).toBe(true);
  });

  it("verifies in the Edge runtime (no node:crypto: @noble/hashes) what Node hashed, and Node verifies what it hashed", async () => {
    const bundled = await build({
      stdin: {
        contents:
          'import { hashPassword, verifyPassword } from "./src/extensions/password/hash.ts"; globalThis.tessera = { hashPassword, verifyPassword };',
        resolveDir: new URL("..", import.meta.url).pathname,
        loader: "ts",
      },
      bundle: true,
      write: false,
      format: "iife",
      platform: "browser",
      logLevel: "silent",
    });
    const edge = new EdgeRuntime();
    edge.evaluate(bundled.outputFiles[0]?.text ?? "");
    // The Edge runtime has no `process`, so no node:crypto: the noble path runs there.
    expect(edge.evaluate("typeof process")).toBe("undefined");
    const made = await hashPassword("cafe\u0301 passphrase", FAST);
    const there = await edge.evaluate(
      `tessera.verifyPassword(${JSON.stringify("caf\u00e9 passphrase")}, ${JSON.stringify(made)}, { ln: 10, r: 8, p: 1 })`,
    );
    expect(there).toEqual({ valid: true, needsRehash: false });
    const wrong = await edge.evaluate(
      `tessera.verifyPassword("another passphrase", ${JSON.stringify(made)}, { ln: 10, r: 8, p: 1 })`,
    );
    expect(wrong).toEqual({ valid: false, needsRehash: false });
    const edgeMade = (await edge.evaluate(
      'tessera.hashPassword("edge passphrase", { ln: 10, r: 8, p: 1 })',
    )) as string;
    expect(edgeMade).toMatch(/^\$scrypt\$ln=10,r=8,p=1\$/);
    expect((await verifyPassword("edge passphrase", edgeMade, FAST)).valid).toBe(true);
  });
});

describe("password policy (NIST SP 800-63B)", () => {
  const policy = resolvePolicy();

  it("asks for 8 characters and accepts 64 and more, with no composition rules", () => {
    expect(checkPassword("1234567", policy)).toBe("too-short");
    expect(checkPassword("abcdefgh", policy)).toBeNull();
    expect(checkPassword("a".repeat(64), policy)).toBeNull();
    expect(checkPassword("a".repeat(256), policy)).toBeNull();
    expect(checkPassword("a".repeat(257), policy)).toBe("too-long");
  });

  it("counts code points after NFKC: emoji and combining marks count once", () => {
    expect(checkPassword("🔑🔑🔑🔑🔑🔑🔑", policy)).toBe("too-short");
    expect(checkPassword("🔑🔑🔑🔑🔑🔑🔑🔑", policy)).toBeNull();
    expect(checkPassword("cafe\u0301ab", policy)).toBe("too-short");
  });

  it("takes a longer minimum, and refuses a maximum below 64 with the fix", () => {
    expect(checkPassword("abcdefghijk", resolvePolicy({ minLength: 12 }))).toBe("too-short");
    expect(() => resolvePolicy({ maxLength: 32 })).toThrow(/at least 64 characters/);
    expect(() => resolvePolicy({ minLength: 0 })).toThrow(/minLength/);
  });
});
