/**
 * The Next.js getting-started guide (docs/getting-started/nextjs.md) built as a reader builds it:
 * its blocks written into a project laid out as `create-next-app` 16.4 lays one out with its
 * defaults (`--yes`: App Router, TypeScript, the `@/*` alias, and `cacheComponents` with
 * `partialPrefetching` switched on in next.config.ts; Tailwind and ESLint left out, as they touch
 * nothing the guide does), then `next build` and `next start`. GitHub is only redirected to.
 */
import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CookieJar } from "../../packages/next/test/helpers.js";
import {
  buildNextApp,
  buildWorkspacePackages,
  newAppDir,
  type RunningNextApp,
  startNextApp,
} from "../../packages/next/test/next-app.js";
import { snippetCode } from "./snippet-module.js";

const GUIDE = "docs/getting-started/nextjs.md";

/** What `create-next-app --yes` writes besides the pages (16.4: next.config.ts, tsconfig.json). */
const CREATE_NEXT_APP_FILES: Record<string, string> = {
  "package.json": JSON.stringify({ name: "guide-app", private: true }),
  "next.config.ts": `import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  /* config options here */
  cacheComponents: true,
  partialPrefetching: true,
  experimental: { turbopackFileSystemCacheForBuild: false },
};

export default nextConfig;
`,
  "tsconfig.json": JSON.stringify({
    compilerOptions: {
      target: "ES2017",
      lib: ["dom", "dom.iterable", "esnext"],
      allowJs: true,
      skipLibCheck: true,
      strict: true,
      noEmit: true,
      esModuleInterop: true,
      module: "esnext",
      moduleResolution: "bundler",
      resolveJsonModule: true,
      isolatedModules: true,
      jsx: "react-jsx",
      incremental: true,
      plugins: [{ name: "next" }],
      paths: { "@/*": ["./*"] },
    },
    include: ["next-env.d.ts", "**/*.ts", "**/*.tsx", ".next/types/**/*.ts"],
    exclude: ["node_modules"],
  }),
};

/** The guide's blocks by the file a reader puts them in (step 4 replaces auth.ts). */
function guideFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const file of [
    "app/api/auth/[...nextauth]/route.ts",
    "app/actions.ts",
    "app/page.tsx",
    "proxy.ts",
    "app/session-panel.tsx",
    "app/layout.tsx",
  ])
    files[file] = snippetCode(GUIDE, file);
  files["auth.ts"] = snippetCode(GUIDE, "auth-protected.ts");
  // A page of the app that uses the guide's client component under the guide's layout.
  files["app/protected/page.tsx"] =
    'import { SessionPanel } from "../session-panel";\nexport default function Page() { return <SessionPanel />; }\n';
  return files;
}

let app: RunningNextApp | undefined;

beforeAll(async () => {
  await buildWorkspacePackages();
  const dir = await newAppDir("guide-");
  for (const [file, code] of Object.entries({ ...CREATE_NEXT_APP_FILES, ...guideFiles() })) {
    await mkdir(dirname(join(dir, file)), { recursive: true });
    await writeFile(join(dir, file), code);
  }
  const env = {
    AUTH_SECRET: randomBytes(32).toString("base64url"),
    AUTH_GITHUB_ID: "guide-client",
    AUTH_GITHUB_SECRET: "guide-secret",
  };
  await buildNextApp(dir, env);
  app = await startNextApp(dir, (origin) => ({ ...env, AUTH_URL: origin }));
}, 300_000);

afterAll(async () => {
  await app?.close();
});

describe("the Next.js guide on create-next-app's defaults (Cache Components on)", () => {
  it("builds, and the home page offers GitHub to a visitor", async () => {
    const html = await (await fetch(`${app?.origin}/`)).text();
    expect(html).toContain("Sign in with GitHub");
  });

  it("sends a GitHub sign-in to GitHub's authorization endpoint with the guide's callback", async () => {
    const origin = app?.origin ?? "";
    const jar = new CookieJar();
    const csrf = await fetch(`${origin}/api/auth/csrf`);
    jar.store(csrf);
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const response = await fetch(`${origin}/api/auth/signin/github`, {
      method: "POST",
      headers: jar.headers({ "content-type": "application/x-www-form-urlencoded" }),
      body: new URLSearchParams({ csrfToken, callbackUrl: `${origin}/` }),
      redirect: "manual",
    });
    const location = new URL(response.headers.get("location") ?? "");
    expect(`${location.origin}${location.pathname}`).toBe(
      "https://github.com/login/oauth/authorize",
    );
    expect(location.searchParams.get("client_id")).toBe("guide-client");
    expect(location.searchParams.get("redirect_uri")).toBe(`${origin}/api/auth/callback/github`);
  });

  it("lets the proxy send a visitor of /protected to the sign-in page", async () => {
    const response = await fetch(`${app?.origin}/protected`, { redirect: "manual" });
    expect(response.status).toBe(307);
    const location = new URL(response.headers.get("location") ?? "", app?.origin);
    expect(location.pathname).toBe("/api/auth/signin");
    expect(location.searchParams.get("callbackUrl")).toBe(`${app?.origin}/protected`);
  });
});
