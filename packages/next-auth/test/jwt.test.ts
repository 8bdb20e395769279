/**
 * Session tokens both ways against next-auth@4.24.15 itself: a token v4 wrote is read by Tessera
 * with every claim, a token Tessera wrote is read by v4's `decode` and `getToken`, and the facts
 * the package relies on (JWE header, HKDF salt and info, cookie names) are checked on v4's output.
 */
import { hkdfSync } from "node:crypto";
import { createRequire } from "node:module";
import { compactDecrypt, decodeProtectedHeader } from "jose";
import { afterEach, describe, expect, it } from "vitest";
import { decode, encode, getToken } from "../src/jwt.js";
import { v4Cookies } from "../src/lib/cookies.js";

/**
 * next-auth v4's `next-auth/jwt`, loaded at run time: its type declarations pull in Next.js's
 * global types (which make `NODE_ENV` a required variable for the whole type-check).
 */
const v4 = createRequire(import.meta.url)("next-auth/jwt") as {
  encode(params: {
    token: Record<string, unknown>;
    secret: string;
    maxAge?: number;
    salt?: string;
  }): Promise<string>;
  decode(params: {
    token: string;
    secret: string;
    salt?: string;
  }): Promise<Record<string, unknown> | null>;
  getToken(params: { req: unknown; secret?: string }): Promise<Record<string, unknown> | null>;
};

const secret = "a-secret-of-at-least-thirty-two-characters";

/** Every claim a v4 session carries: the profile claims, the app's own, and v4's registered ones. */
const claims = {
  name: "Ada Lovelace",
  email: "ada@example.test",
  picture: "https://example.test/ada.png",
  sub: "user-1",
  role: "admin",
  nested: { orgs: ["a", "b"], level: 3 },
};

afterEach(() => {
  delete process.env.NEXTAUTH_URL;
  delete process.env.NEXTAUTH_SECRET;
});

describe("a session token written by next-auth v4", () => {
  it("is read by Tessera with every claim, iat, exp and jti", async () => {
    const token = await v4.encode({ token: claims, secret, maxAge: 3600 });
    const payload = await decode({ token, secret });
    const reference = await v4.decode({ token, secret });
    expect(payload).toEqual(reference);
    expect(payload).toMatchObject(claims);
    expect(payload?.exp).toBe((payload?.iat as number) + 3600);
    expect(payload?.jti).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("is read by getToken from the v4 session cookie of a request", async () => {
    process.env.NEXTAUTH_SECRET = secret;
    const token = await v4.encode({ token: claims, secret });
    const req = new Request("http://app.test/api/me", {
      headers: { cookie: `other=1; next-auth.session-token=${token}` },
    });
    expect(await getToken({ req })).toMatchObject(claims);
    expect(await getToken({ req, raw: true })).toBe(token);
  });

  it("is read by getToken from chunked cookies and from a Node request's header record", async () => {
    const token = await v4.encode({ token: { ...claims, big: "x".repeat(5000) }, secret });
    const half = Math.ceil(token.length / 2);
    const cookie = `next-auth.session-token.1=${token.slice(half)}; next-auth.session-token.0=${token.slice(0, half)}`;
    const payload = await getToken({ req: { headers: { cookie } }, secret });
    expect(payload?.big).toHaveLength(5000);
  });

  it("is read by getToken from the __Secure- cookie when NEXTAUTH_URL is https", async () => {
    process.env.NEXTAUTH_URL = "https://app.test";
    const token = await v4.encode({ token: claims, secret });
    const headers = { cookie: `__Secure-next-auth.session-token=${token}` };
    expect(await getToken({ req: { headers }, secret })).toMatchObject(claims);
    const apiReq = { headers, cookies: { "__Secure-next-auth.session-token": token } };
    expect(await v4.getToken({ req: apiReq as never, secret })).toMatchObject(claims);
  });

  it("is refused under another secret, tampered or expired, as v4 refuses it", async () => {
    const token = await v4.encode({ token: claims, secret });
    await expect(decode({ token, secret: `${secret}-other` })).rejects.toThrow();
    await expect(v4.decode({ token, secret: `${secret}-other` })).rejects.toThrow();
    const parts = token.split(".");
    const tampered = [...parts.slice(0, 3), `${parts[3]?.slice(0, -2)}AA`, parts[4]].join(".");
    await expect(decode({ token: tampered, secret })).rejects.toThrow();
    const expired = await v4.encode({ token: claims, secret, maxAge: -60 });
    await expect(decode({ token: expired, secret })).rejects.toThrow();
    await expect(v4.decode({ token: expired, secret })).rejects.toThrow();
    const req = { headers: { cookie: `next-auth.session-token=${tampered}` } };
    expect(await getToken({ req, secret })).toBeNull();
  });

  it("answers null from getToken for a malformed cookie or a malformed Bearer token (no throw)", async () => {
    const req = { headers: { cookie: "next-auth.session-token=%%%not-a-jwe" } };
    expect(await getToken({ req, secret })).toBeNull();
    const bearer = { headers: { authorization: "Bearer %E0%A4%A" } };
    expect(await getToken({ req: bearer, secret })).toBeNull();
    expect(await v4.getToken({ req: bearer as never, secret })).toBeNull();
  });
});

describe("a session token written by Tessera", () => {
  it("is read by next-auth v4's decode with every claim", async () => {
    const token = await encode({ token: claims, secret, maxAge: 600 });
    const payload = await v4.decode({ token, secret });
    expect(payload).toMatchObject(claims);
    expect(payload?.exp).toBe((payload?.iat as number) + 600);
    expect(payload?.jti).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("is read by next-auth v4's getToken from the cookie and the Bearer header", async () => {
    const token = await encode({ token: claims, secret });
    const fromCookie = await v4.getToken({
      // A Pages Router request as next-auth v4 reads it: Next.js parsed its cookies.
      req: { headers: {}, cookies: { "next-auth.session-token": token } } as never,
      secret,
    });
    expect(fromCookie).toMatchObject(claims);
    const fromBearer = await v4.getToken({
      req: { headers: { authorization: `Bearer ${token}` } } as never,
      secret,
    });
    expect(fromBearer).toMatchObject(claims);
  });

  it("has exactly v4's protected header and v4's HKDF key (salt '', v4's info, 32 bytes)", async () => {
    const token = await encode({ token: claims, secret });
    expect(decodeProtectedHeader(token)).toEqual({ alg: "dir", enc: "A256GCM" });
    const v4Token = await v4.encode({ token: claims, secret });
    expect(decodeProtectedHeader(v4Token)).toEqual({ alg: "dir", enc: "A256GCM" });
    // The key, derived here with node:crypto from the documented inputs, opens both tokens.
    const key = new Uint8Array(
      hkdfSync("sha256", secret, "", "NextAuth.js Generated Encryption Key", 32),
    );
    for (const each of [token, v4Token]) {
      const { plaintext } = await compactDecrypt(each, key);
      expect(JSON.parse(new TextDecoder().decode(plaintext))).toMatchObject(claims);
    }
  });

  it("sealed with a cookie name as salt matches v4's state and PKCE cookie scheme", async () => {
    const salt = "next-auth.pkce.code_verifier";
    const mine = await encode({ token: { value: "verifier", provider: "op" }, secret, salt });
    expect(await v4.decode({ token: mine, secret, salt })).toMatchObject({ value: "verifier" });
    const theirs = await v4.encode({ token: { value: "state", provider: "op" }, secret, salt });
    expect(await decode({ token: theirs, secret, salt })).toMatchObject({ value: "state" });
    const key = new Uint8Array(
      hkdfSync("sha256", secret, salt, `NextAuth.js Generated Encryption Key (${salt})`, 32),
    );
    await expect(compactDecrypt(theirs, key)).resolves.toBeDefined();
    // A session key (salt "") does not open a PKCE cookie: the salt separates the keys.
    await expect(decode({ token: theirs, secret })).rejects.toThrow();
  });

  it("takes NEXTAUTH_SECRET for getToken when no secret is passed, as v4 does", async () => {
    process.env.NEXTAUTH_SECRET = secret;
    const token = await encode({ token: claims, secret });
    const req = { headers: { cookie: `next-auth.session-token=${token}` } };
    expect(await getToken({ req })).toMatchObject(claims);
    const apiReq = { headers: {}, cookies: { "next-auth.session-token": token } };
    expect(await v4.getToken({ req: apiReq as never })).toMatchObject(claims);
  });
});

describe("cookie names", () => {
  it("are next-auth v4's on http and on https", () => {
    expect(Object.values(v4Cookies(false)).map((c) => c.name)).toEqual([
      "next-auth.session-token",
      "next-auth.callback-url",
      "next-auth.csrf-token",
      "next-auth.pkce.code_verifier",
      "next-auth.state",
      "next-auth.nonce",
      "next-auth.challenge",
    ]);
    const secure = v4Cookies(true);
    expect(secure.sessionToken.name).toBe("__Secure-next-auth.session-token");
    expect(secure.csrfToken.name).toBe("__Host-next-auth.csrf-token");
    expect(secure.state.name).toBe("__Secure-next-auth.state");
    expect(secure.pkceCodeVerifier.name).toBe("__Secure-next-auth.pkce.code_verifier");
    expect(secure.state.options).toMatchObject({ maxAge: 900, httpOnly: true, secure: true });
  });
});
