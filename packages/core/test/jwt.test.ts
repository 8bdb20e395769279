import { decode as authjsDecode, encode as authjsEncode } from "@auth/core/jwt";
import { decode, encode, getToken } from "@tessera/core/jwt";
import { base64url } from "jose";
import { describe, expect, it } from "vitest";
import {
  decryptSessionToken,
  deriveKey,
  encryptSessionToken,
  KeyCache,
  SessionTokenCache,
} from "../src/lib/crypto/jwe.js";
import { SECRET, sealSessionToken } from "./helpers.js";

const salt = "authjs.session-token";

function header(token: string): Record<string, unknown> {
  return JSON.parse(new TextDecoder().decode(base64url.decode(token.split(".")[0] ?? "")));
}

describe("encode/decode", () => {
  it("round-trips a payload and adds iat, exp and jti", async () => {
    const before = Math.floor(Date.now() / 1000);
    const token = await encode({
      token: { sub: "42", name: "Ada" },
      secret: SECRET,
      salt,
      maxAge: 60,
    });
    const payload = await decode({ token, secret: SECRET, salt });
    expect(payload).toMatchObject({ sub: "42", name: "Ada" });
    expect(payload?.iat).toBeGreaterThanOrEqual(before);
    expect(payload?.exp).toBe((payload?.iat ?? 0) + 60);
    expect(payload?.jti).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("writes the Auth.js header: dir, A256CBC-HS512 and a SHA-512 thumbprint kid", async () => {
    const token = await encode({ token: {}, secret: SECRET, salt });
    const { kid } = await deriveKey("A256CBC-HS512", SECRET, salt);
    expect(header(token)).toEqual({ alg: "dir", enc: "A256CBC-HS512", kid });
    expect(kid).toHaveLength(86); // 64-byte SHA-512 digest in base64url
  });

  it("returns null for an empty token and throws for garbage", async () => {
    expect(await decode({ token: "", secret: SECRET, salt })).toBeNull();
    await expect(decode({ token: "not.a.jwe", secret: SECRET, salt })).rejects.toThrow();
    await expect(decode({ token: "a..b.c.d", secret: SECRET, salt })).rejects.toThrow();
  });

  it("refuses a token sealed for another salt (a cookie replayed under another name)", async () => {
    const token = await encode({
      token: { sub: "1" },
      secret: SECRET,
      salt: "authjs.pkce.code_verifier",
    });
    await expect(decode({ token, secret: SECRET, salt })).rejects.toThrow();
  });

  it("refuses a token whose ciphertext or tag was tampered with", async () => {
    const token = await encode({ token: { sub: "1", role: "user" }, secret: SECRET, salt });
    const parts = token.split(".");
    const flip = (s: string) =>
      s[5] === "A" ? `${s.slice(0, 5)}B${s.slice(6)}` : `${s.slice(0, 5)}A${s.slice(6)}`;
    for (const index of [2, 3, 4]) {
      const tampered = [...parts];
      tampered[index] = flip(tampered[index] ?? "");
      await expect(decode({ token: tampered.join("."), secret: SECRET, salt })).rejects.toThrow();
    }
  });

  it("refuses alg:none and other algorithms in the header (algorithm confusion)", async () => {
    const token = await encode({ token: { sub: "1" }, secret: SECRET, salt });
    const [, ...rest] = token.split(".");
    for (const forged of [
      { alg: "none", enc: "A256CBC-HS512" },
      { alg: "A256KW", enc: "A256CBC-HS512" },
      { alg: "dir", enc: "A128GCM" },
    ]) {
      const h = base64url.encode(JSON.stringify(forged));
      await expect(
        decode({ token: [h, ...rest].join("."), secret: SECRET, salt }),
      ).rejects.toThrow();
    }
  });

  it("refuses an expired token but tolerates 15 seconds of clock skew", async () => {
    const now = Math.floor(Date.now() / 1000);
    const expired = await encryptSessionToken({}, [SECRET], salt, -20);
    await expect(decode({ token: expired, secret: SECRET, salt })).rejects.toThrow(/expired/);
    const skewed = await encryptSessionToken({}, [SECRET], salt, -5);
    expect((await decode({ token: skewed, secret: SECRET, salt }))?.exp).toBeLessThan(now);
  });

  it("decodes with the secret whose thumbprint is the kid, so rotation keeps sessions", async () => {
    const old = await encode({
      token: { sub: "old" },
      secret: "old-secret-old-secret-old-secret!",
      salt,
    });
    const payload = await decode({
      token: old,
      secret: ["new-secret-new-secret-new-secret!", "old-secret-old-secret-old-secret!"],
      salt,
    });
    expect(payload?.sub).toBe("old");
    await expect(
      decode({ token: old, secret: "new-secret-new-secret-new-secret!", salt }),
    ).rejects.toThrow();
  });

  it("encodes with the first secret of a list", async () => {
    const token = await encode({
      token: { sub: "x" },
      secret: ["first-secret-first-secret-first!!", "second"],
      salt,
    });
    expect((await decode({ token, secret: "first-secret-first-secret-first!!", salt }))?.sub).toBe(
      "x",
    );
  });

  it("decodes a token without kid with the first secret only", async () => {
    const token = await encode({ token: { sub: "k" }, secret: SECRET, salt });
    const parts = token.split(".");
    // Rebuild the same token with a header without kid: the AAD changes, so re-encrypt via jose.
    const { EncryptJWT } = await import("jose");
    const { key } = await deriveKey("A256CBC-HS512", SECRET, salt);
    const noKid = await new EncryptJWT({ sub: "k" })
      .setProtectedHeader({ alg: "dir", enc: "A256CBC-HS512" })
      .setExpirationTime("1h")
      .encrypt(key);
    expect(parts).toHaveLength(5);
    expect((await decode({ token: noKid, secret: [SECRET, "other"], salt }))?.sub).toBe("k");
    await expect(
      decode({ token: noKid, secret: ["other-secret-other-secret-other!", SECRET], salt }),
    ).rejects.toThrow();
  });

  it("accepts A256GCM tokens (32-byte key, SHA-256 thumbprint)", async () => {
    const { EncryptJWT } = await import("jose");
    const { key, kid } = await deriveKey("A256GCM", SECRET, salt);
    const token = await new EncryptJWT({ sub: "gcm" })
      .setProtectedHeader({ alg: "dir", enc: "A256GCM", kid })
      .setExpirationTime("1h")
      .encrypt(key);
    expect(kid).toHaveLength(43);
    expect((await decode({ token, secret: SECRET, salt }))?.sub).toBe("gcm");
    expect((await decryptSessionToken(token, [SECRET], salt, "web")).sub).toBe("gcm");
  });
});

describe("node:crypto and WebCrypto engines", () => {
  it("produce tokens the other engine accepts", async () => {
    const fromNode = await encryptSessionToken({ sub: "n" }, [SECRET], salt, 60, "node");
    const fromWeb = await encryptSessionToken({ sub: "w" }, [SECRET], salt, 60, "web");
    expect((await decryptSessionToken(fromNode, [SECRET], salt, "web")).sub).toBe("n");
    expect((await decryptSessionToken(fromWeb, [SECRET], salt, "node")).sub).toBe("w");
  });

  it("derive the same key and kid", async () => {
    const node = await deriveKey("A256CBC-HS512", "engine-secret", "salt-x", "node");
    const web = await deriveKey("A256CBC-HS512", "engine-secret", "salt-x", "web");
    expect(Buffer.from(node.key).equals(Buffer.from(web.key))).toBe(true);
    expect(node.kid).toBe(web.kid);
  });

  it("both refuse a tampered token", async () => {
    const token = await encryptSessionToken({ sub: "t" }, [SECRET], salt, 60, "node");
    const parts = token.split(".");
    parts[3] = `${parts[3]?.slice(0, -2)}AA`;
    await expect(decryptSessionToken(parts.join("."), [SECRET], salt, "node")).rejects.toThrow();
    await expect(decryptSessionToken(parts.join("."), [SECRET], salt, "web")).rejects.toThrow();
  });
});

describe("compatibility with @auth/core", () => {
  it("reads a token written by @auth/core", async () => {
    const token = await authjsEncode({
      token: { sub: "from-authjs", email: "a@b.c" },
      secret: SECRET,
      salt,
    });
    expect(await decode({ token, secret: SECRET, salt })).toMatchObject({
      sub: "from-authjs",
      email: "a@b.c",
    });
  });

  it("writes a token @auth/core reads, with rotated secrets too", async () => {
    const token = await encode({
      token: { sub: "from-tessera" },
      secret: ["new-secret-new-secret-new-secret!", SECRET],
      salt,
    });
    expect(
      await authjsDecode({ token, secret: ["old", "new-secret-new-secret-new-secret!"], salt }),
    ).toMatchObject({ sub: "from-tessera" });
  });
});

describe("getToken", () => {
  it("infers cookie name, salt and secret from the environment", async () => {
    const previous = process.env.AUTH_SECRET;
    process.env.AUTH_SECRET = SECRET;
    try {
      const token = await encode({ token: { sub: "env" }, secret: SECRET, salt });
      const req = new Request("http://localhost/", { headers: { cookie: `${salt}=${token}` } });
      expect((await getToken({ req }))?.sub).toBe("env");
      const secureSalt = "__Secure-authjs.session-token";
      const secure = await encode({ token: { sub: "secure" }, secret: SECRET, salt: secureSalt });
      const secureReq = new Request("https://app.test/", {
        headers: { cookie: `${secureSalt}=${secure}` },
      });
      expect((await getToken({ req: secureReq }))?.sub).toBe("secure");
    } finally {
      if (previous === undefined) delete process.env.AUTH_SECRET;
      else process.env.AUTH_SECRET = previous;
    }
  });

  it("joins chunked cookies and reads a bearer token", async () => {
    const token = await encode({ token: { sub: "chunks" }, secret: SECRET, salt });
    const half = Math.floor(token.length / 2);
    const req = {
      headers: { cookie: `${salt}.1=${token.slice(half)}; ${salt}.0=${token.slice(0, half)}` },
    };
    expect((await getToken({ req, secret: SECRET }))?.sub).toBe("chunks");
    const bearer = new Request("http://localhost/", {
      headers: { authorization: `Bearer ${token}` },
    });
    expect((await getToken({ req: bearer, secret: SECRET }))?.sub).toBe("chunks");
    expect(await getToken({ req: bearer, secret: SECRET, raw: true })).toBe(token);
  });

  it("returns null for a missing or undecodable token", async () => {
    const quiet = { error: () => {} };
    expect(await getToken({ req: new Request("http://x/"), secret: SECRET })).toBeNull();
    const req = new Request("http://x/", { headers: { cookie: `${salt}=garbage` } });
    expect(await getToken({ req, secret: SECRET, logger: quiet })).toBeNull();
  });
});

describe("session lifetime: iat and maxAge", () => {
  const now = () => Math.floor(Date.now() / 1000);
  const year = 365 * 24 * 3600;

  it("rejects a JWT issued in the future (iat a year ahead, exp ten years ahead)", async () => {
    const token = await sealSessionToken({ sub: "1", iat: now() + year, exp: now() + 10 * year });
    await expect(decode({ token, secret: SECRET, salt, maxAge: 3600 })).rejects.toThrow(/future/);
    // The rule needs no maxAge: no honest writer stamps a token in the future.
    await expect(decode({ token, secret: SECRET, salt })).rejects.toThrow(/future/);
    for (const engine of ["node", "web"] as const)
      await expect(
        decryptSessionToken(token, [SECRET], salt, engine, { maxAge: 3600 }),
      ).rejects.toThrow(/future/);
  });

  it("tolerates 15 seconds of clock skew on iat, not more", async () => {
    const skewed = await sealSessionToken({ sub: "1", iat: now() + 10, exp: now() + 3610 });
    expect(await decode({ token: skewed, secret: SECRET, salt, maxAge: 3600 })).toMatchObject({
      sub: "1",
    });
    const ahead = await sealSessionToken({ sub: "1", iat: now() + 30, exp: now() + 3630 });
    await expect(decode({ token: ahead, secret: SECRET, salt, maxAge: 3600 })).rejects.toThrow();
  });

  it("refuses a token older than maxAge even when its exp is later (lowered maxAge)", async () => {
    const token = await sealSessionToken({ sub: "1", iat: now() - 7200, exp: now() + year });
    for (const engine of ["node", "web"] as const)
      await expect(
        decryptSessionToken(token, [SECRET], salt, engine, { maxAge: 3600 }),
      ).rejects.toThrow(/expired/);
    // Within maxAge it is read.
    expect(await decode({ token, secret: SECRET, salt, maxAge: 3 * 3600 })).toMatchObject({
      sub: "1",
    });
  });

  it("bounds a token without iat by its exp: an exp beyond now + maxAge is refused", async () => {
    const far = await sealSessionToken({ sub: "1", exp: now() + 10 * year });
    await expect(decode({ token: far, secret: SECRET, salt, maxAge: 3600 })).rejects.toThrow(
      /future/,
    );
    const near = await sealSessionToken({ sub: "1", exp: now() + 1800 });
    expect(await decode({ token: near, secret: SECRET, salt, maxAge: 3600 })).toMatchObject({
      sub: "1",
    });
  });

  it("refuses a session token with neither iat nor exp when maxAge applies (no end at all)", async () => {
    const endless = await sealSessionToken({ sub: "1" });
    await expect(decode({ token: endless, secret: SECRET, salt, maxAge: 3600 })).rejects.toThrow(
      /iat/,
    );
  });

  it("refuses time claims that are not finite numbers", async () => {
    const token = await sealSessionToken({ sub: "1", iat: now(), exp: "tomorrow" });
    await expect(decode({ token, secret: SECRET, salt })).rejects.toThrow(/exp/);
  });

  it("reads a token written by @auth/core with the same maxAge", async () => {
    const token = await authjsEncode({ token: { sub: "a" }, secret: SECRET, salt, maxAge: 3600 });
    expect(await decode({ token, secret: SECRET, salt, maxAge: 3600 })).toMatchObject({
      sub: "a",
    });
  });

  it("getToken applies maxAge when given", async () => {
    const token = await sealSessionToken({ sub: "1", iat: now() - 7200, exp: now() + year });
    const req = new Request("http://localhost/", { headers: { cookie: `${salt}=${token}` } });
    const quiet = { error: () => {} };
    expect(await getToken({ req, secret: SECRET, maxAge: 3600, logger: quiet })).toBeNull();
    expect((await getToken({ req, secret: SECRET, logger: quiet }))?.sub).toBe("1");
  });
});

describe("key caches", () => {
  it("are owned per resolved config: two configs with different secrets never share keys", async () => {
    const first = new SessionTokenCache();
    const second = new SessionTokenCache();
    const token = await encryptSessionToken(
      { sub: "a" },
      ["first-secret"],
      salt,
      60,
      "node",
      first,
    );
    await expect(
      decryptSessionToken(token, ["second-secret"], salt, "node", {}, second),
    ).rejects.toMatchObject({ code: "no-matching-secret" });
    expect(first.keys.size).toBe(1);
    expect(second.keys.size).toBe(1);
  });

  it("stay bounded: a cache that reaches its limit starts over", async () => {
    const keys = new KeyCache(3);
    for (let i = 0; i < 10; i++) await keys.derive("A256CBC-HS512", `secret-${i}`, salt, "node");
    expect(keys.size).toBeLessThanOrEqual(3);
    const again = await keys.derive("A256CBC-HS512", "secret-9", salt, "node");
    expect(again.kid).toBe((await deriveKey("A256CBC-HS512", "secret-9", salt, "node")).kid);
  });

  it.each(["node", "web"] as const)(
    "select the rotated secret by key id through one path (%s engine)",
    async (engine) => {
      const cache = new SessionTokenCache();
      const byOld = await encryptSessionToken({ sub: "old" }, ["old-secret"], salt, 60, engine);
      const secrets = ["new-secret", "old-secret"];
      const read = await decryptSessionToken(byOld, secrets, salt, engine, {}, cache);
      expect(read.sub).toBe("old");
      // Both secrets were tried in order: the new one's key, then the old one's.
      expect(cache.keys.size).toBe(2);
    },
  );
});
