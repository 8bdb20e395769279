/**
 * `readSession`: the one way integrations read the session in-process. Signed in, signed out,
 * a cookie due for re-issue, a forged cookie, a misconfigured app and a request whose Host cannot
 * be parsed, each through the real session action.
 */
import { readSession, sessionReadOf } from "@tessera/core";
import { AuthError } from "@tessera/core/errors";
import { encode } from "@tessera/core/jwt";
import { describe, expect, it } from "vitest";
import { ORIGIN, SECRET, sealSessionToken } from "./helpers.js";

const config = { secret: SECRET, providers: [], basePath: "/auth", trustHost: true };
const NAME = "authjs.session-token";

async function cookieFor(claims: Record<string, unknown>, maxAge = 30 * 24 * 60 * 60) {
  return `${NAME}=${await encode({ token: claims, secret: SECRET, salt: NAME, maxAge })}`;
}

describe("readSession", () => {
  it("answers the session of a signed-in request, and no cookie when none is due", async () => {
    const read = await readSession(config, {
      url: `${ORIGIN}/`,
      cookies: await cookieFor({ name: "Ada", email: "ada@example.com", sub: "1" }),
    });
    expect(read.session?.user).toMatchObject({ name: "Ada", email: "ada@example.com" });
    expect(read.cookies).toEqual([]);
  });

  it("answers null for a visitor without a cookie", async () => {
    expect(await readSession(config, { url: `${ORIGIN}/` })).toEqual({
      session: null,
      cookies: [],
    });
  });

  it("answers null, and the clearing cookie, for a forged session cookie", async () => {
    const read = await readSession(config, {
      url: `${ORIGIN}/`,
      cookies: `${NAME}=not-a-token`,
    });
    expect(read.session).toBeNull();
    expect(read.cookies.map((cookie) => [cookie.name, cookie.value])).toEqual([[NAME, ""]]);
  });

  it("hands back the re-issued cookie of a session past its update age", async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = await sealSessionToken({
      name: "Ada",
      sub: "1",
      iat: now - 2 * 24 * 60 * 60,
      exp: now + 28 * 24 * 60 * 60,
      jti: "a",
    });
    const read = await readSession(config, { url: `${ORIGIN}/`, cookies: `${NAME}=${token}` });
    expect(read.session?.user?.name).toBe("Ada");
    expect(read.cookies.map((cookie) => cookie.name)).toEqual([NAME]);
  });

  it("throws an AuthError naming the status when the configuration is wrong (no secret)", async () => {
    const reading = readSession({ ...config, secret: undefined }, { url: `${ORIGIN}/` });
    await expect(reading).rejects.toBeInstanceOf(AuthError);
    await expect(
      readSession({ ...config, secret: undefined }, { url: `${ORIGIN}/` }),
    ).rejects.toThrow(/session action answered 500/);
  });
});

describe("sessionReadOf", () => {
  it("reads a 400 (a Host or URL that cannot be parsed) as nobody's session", () => {
    expect(sessionReadOf({ status: 400, body: { message: "Bad request" } })).toEqual({
      session: null,
      cookies: [],
    });
  });

  it("reads an empty object as signed out, as some wrappers answered it", () => {
    expect(sessionReadOf({ status: 200, body: {} }).session).toBeNull();
  });
});
