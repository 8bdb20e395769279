/**
 * `npm run walk-count` still measures what it claims: the files listed for a path are the ones
 * its request runs through (the session action and the JWT cookie's owner for a session read,
 * the token request and the session issue for the OIDC callback), and nothing of a flow the
 * request does not take — and that the two paths stay within what the structure issue (#29)
 * reached: a JWT session read in 8 files, an OIDC callback in 18.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

interface Walk {
  files: string[];
  leaves: string[];
  functions: Record<string, string[]>;
}

const root = fileURLToPath(new URL("..", import.meta.url));

async function walk(...paths: string[]): Promise<Record<string, Walk>> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["bench/walk-count.mjs", ...paths, "--json"],
    { cwd: root },
  );
  return JSON.parse(stdout) as Record<string, Walk>;
}

describe("npm run walk-count", () => {
  it("lists the files a JWT session read and an OIDC callback run through, and no others", async () => {
    const report = await walk("session-jwt-node", "oidc-callback-node", "oidc-callback-auth");
    const session = report["session-jwt-node"] as Walk;
    expect(session.files).toEqual(
      expect.arrayContaining(["node.ts", "lib/actions/session.ts", "lib/session/jwt-cookie.ts"]),
    );
    // A session read signs no one in: no OAuth module, no session issue.
    expect(session.files.filter((file) => file.startsWith("lib/oauth/"))).toEqual([]);
    expect(session.files).not.toContain("lib/session/sign-in.ts");
    // "A request's path reads top to bottom": a JWT session read opens at most 8 files (#29).
    expect(session.files.length).toBeLessThanOrEqual(8);
    expect(session.functions["lib/actions/session.ts"]).toContain("jwtSession");

    const callback = report["oidc-callback-node"] as Walk;
    expect(callback.files).toEqual(
      expect.arrayContaining([
        "lib/actions/callback/oauth.ts",
        "lib/oauth/token.ts",
        "lib/session/sign-in.ts",
      ]),
    );
    // An OIDC callback opens at most 18 files (#29; 23 before its modules were merged by owner,
    // 19 before every JWT session write took its revocation id in jwt-cookie.ts).
    expect(callback.files.length).toBeLessThanOrEqual(18);
    expect(report["oidc-callback-auth"]?.files.length).toBeLessThanOrEqual(18);
    for (const { files, leaves } of [session, callback])
      expect(leaves.every((leaf) => files.includes(leaf))).toBe(true);
  });
});
