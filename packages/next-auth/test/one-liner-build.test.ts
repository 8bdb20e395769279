/**
 * next-auth v4's documented middleware one-liner on Next.js 16, with a real `next build`.
 *
 * Next.js 16 decides whether `middleware.ts`/`proxy.ts` exports a function by reading the app's
 * own file, never the module it re-exports from (`validateMiddlewareProxyExports` in
 * next/dist/build/analysis/get-page-static-info.js). It accepts an `export default …`
 * declaration or expression, or a named export `middleware` (in middleware.ts) / `proxy` (in
 * proxy.ts), also as the alias of a re-export. `export { default } from "…"` is a re-export
 * named `default`, which is none of these: the build stops with "must export a function"
 * whatever the package exports, so no export shape of `@tessera/next-auth/middleware` can make
 * that exact line pass. The same default export re-exported under the name Next.js looks for
 * (`export { default as proxy } from …`) builds and protects the matched pages.
 */
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildPackages, exec, ROOT } from "../../core/test/fixtures/build.js";
import {
  NEXT_BIN,
  newAppDir,
  nextEnv,
  type RunningNextApp,
  startNextApp,
} from "../../next/test/next-app.js";
import { encode } from "../src/jwt.js";

const SECRET = "one-liner-secret-of-thirty-two-characters";
const MATCHER = 'export const config = { matcher: ["/dashboard/:path*"] };\n';

/** A one-page Pages Router app whose middleware (or proxy) file holds `source`. */
async function appWith(file: "middleware.ts" | "proxy.ts", source: string): Promise<string> {
  const dir = await newAppDir("next-auth-one-liner-");
  await mkdir(join(dir, "pages"));
  await writeFile(
    join(dir, "package.json"),
    JSON.stringify({ name: "one-liner", private: true, type: "module" }),
  );
  await writeFile(
    join(dir, "tsconfig.json"),
    await readFile(join(ROOT, "examples/next-auth-v4/tsconfig.json"), "utf8"),
  );
  await writeFile(
    join(dir, "next.config.mjs"),
    "export default { experimental: { turbopackFileSystemCacheForBuild: false } };\n",
  );
  await writeFile(
    join(dir, "pages/dashboard.tsx"),
    'export default function Dashboard() {\n  return <p data-testid="dashboard">Dashboard</p>;\n}\n',
  );
  await writeFile(join(dir, file), `${source}\n${MATCHER}`);
  return dir;
}

async function nextBuild(dir: string): Promise<{ code: number | null; output: string }> {
  return exec(process.execPath, [NEXT_BIN, "build"], dir, nextEnv());
}

let running: RunningNextApp | undefined;

beforeAll(async () => {
  await buildPackages(
    ["packages/core", "packages/next", "packages/next-auth"],
    [
      "packages/core/dist/index.js",
      "packages/next/dist/index.js",
      "packages/next-auth/dist/middleware.js",
    ],
  );
}, 300_000);

afterAll(async () => {
  await running?.close();
});

describe("`next build` on Next.js 16 with v4's one-liner", () => {
  it.each(["middleware.ts", "proxy.ts"] as const)(
    "refuses `export { default } from` in %s: the check reads the app's file, not the package",
    async (file) => {
      const dir = await appWith(file, 'export { default } from "@tessera/next-auth/middleware";');
      const { code, output } = await nextBuild(dir).finally(() =>
        rm(dir, { recursive: true, force: true }),
      );
      expect(code).not.toBe(0);
      expect(output).toMatch(/must export a function, either as a default export or as a named/);
    },
    300_000,
  );

  it("builds `export { default as proxy } from`: the built proxy sends a signed-out visitor to sign in and lets a session through", async () => {
    const dir = await appWith(
      "proxy.ts",
      'export { default as proxy } from "@tessera/next-auth/middleware";',
    );
    const build = await nextBuild(dir);
    expect(build.code, build.output.slice(-3000)).toBe(0);
    running = await startNextApp(dir, (site) => ({ NEXTAUTH_URL: site, NEXTAUTH_SECRET: SECRET }));
    const response = await fetch(`${running.origin}/dashboard?tab=2`, { redirect: "manual" });
    expect(response.status).toBe(307);
    // `next start` writes a same-origin redirect as a relative location.
    const location = new URL(response.headers.get("location") ?? "", running.origin);
    expect(location.href).toBe(
      `${running.origin}/api/auth/signin?callbackUrl=%2Fdashboard%3Ftab%3D2`,
    );
    const page = await fetch(`${running.origin}/dashboard`, {
      headers: {
        cookie: `next-auth.session-token=${await encode({ token: { sub: "1" }, secret: SECRET })}`,
      },
    });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Dashboard");
  }, 300_000);
});
