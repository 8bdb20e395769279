/**
 * The credentials-only app's Worker bundle, and the Next.js Edge middleware bundle of
 * `export { auth as middleware }` with @tessera/next, stay within their size budgets, and their
 * start-up code holds none of the parts a credentials-only configuration does not use. The budgets are the
 * gzip sizes measured by `npm run bench:cold` (bench/RESULTS.md, bench/COLD-START.md) plus a small
 * margin; a change that makes every Worker using Tessera ship more code must raise them on
 * purpose, in the same commit, with the reason. Sizes do not depend on the machine's load, so
 * this is not a timed test.
 */
import { describe, expect, it } from "vitest";

/**
 * Bytes of gzip (level 9) the one-file credentials-only Worker bundle may reach (measured:
 * 109,339 with the account page in eight languages; 101,779 with it in English only; 84,269 before the built-in pages, e-mail and error messages came in eight languages,
 * 78,344 before the built-in account page, 76,716 before e-mail code sign-in). The e-mail code's
 * form, callback and cookie are part of the core's e-mail flow; the account page
 * (`<basePath>/account`: its action, page, texts and script, about 19 kB minified) is inlined by
 * a one-file bundle although a credentials-only app loads it only when someone opens the page, so
 * the start-up code below is unchanged. So are the dictionaries: they load with the first page,
 * and the account page's (about 7.5 kB of gzip for its seven translations) with the account page.
 */
const CREDENTIALS_GZIP_BUDGET = 108 * 1024;
/**
 * Bytes of gzip of its start-up code, split at its `import()`s (measured: 28,329; 31,567 while
 * the config assertions loaded the rate-limit stores and the WebAuthn library bridge, the CSRF
 * row, the providers row and the CSRF check were static, and the `cookie` package was imported).
 */
const CREDENTIALS_STARTUP_GZIP_BUDGET = 29 * 1024;
/**
 * Bytes of gzip of the Edge bundle of `export { auth as middleware }` with @tessera/next and a
 * credentials-only auth.ts (measured: 119,631 with the account page's dictionary in eight
 * languages; 111,983 with the eight languages' dictionaries of the other pages, which stay out of
 * its start-up code below; 88,741 before them with the core's e-mail code sign-in, 87,131
 * before that; next-auth v5's: 49,525).
 */
const MIDDLEWARE_GZIP_BUDGET = 118 * 1024;
/**
 * Bytes of gzip of that middleware's start-up code (measured: 32,983; 36,206 before the core's
 * start-up lost the rate-limit stores, the WebAuthn library bridge, the CSRF and providers rows,
 * the CSRF check and the `cookie` package; 47,398 while the server actions and next-auth v4's
 * token decoder were imported statically).
 */
const MIDDLEWARE_STARTUP_GZIP_BUDGET = 33 * 1024;

interface BundleFigures {
  minified: number;
  gzip: number;
  metafile: { inputs: Record<string, unknown> };
}
interface SplitFigures {
  startup: { minified: number; gzip: number; inputs: Record<string, number> };
}
interface BuildModule {
  workerBundle(library: "tessera" | "authjs", app: "credentials"): Promise<BundleFigures>;
  splitWorkerBundle(library: "tessera" | "authjs", app: "credentials"): Promise<SplitFigures>;
  middlewareBundle(library: "tessera"): Promise<BundleFigures>;
  splitMiddlewareBundle(library: "tessera"): Promise<SplitFigures>;
}

// The bench's own build, so that the test and `npm run bench:cold` measure the same bundle.
const build = (await import(
  new URL("./lib/cold-start-build.mjs", import.meta.url).href
)) as BuildModule;

describe("cold start: Worker bundle of a credentials-only app", () => {
  it("keeps the one-file bundle within its gzip budget", async () => {
    const bundle = await build.workerBundle("tessera", "credentials");
    // The bundle really holds Tessera's core (an empty or failed build must not pass).
    expect(Object.keys(bundle.metafile.inputs)).toContain("packages/core/src/lib/pipeline.ts");
    expect(bundle.gzip).toBeLessThanOrEqual(CREDENTIALS_GZIP_BUDGET);
  });

  it("evaluates no OAuth client, refresh, back-channel logout, WebAuthn, e-mail, page, account texts, rate-limit store, CSRF check, CommonJS cookie package or JOSE library at start-up", async () => {
    const { startup } = await build.splitWorkerBundle("tessera", "credentials");
    const modules = Object.keys(startup.inputs).filter((path) => (startup.inputs[path] ?? 0) > 0);
    expect(modules).toContain("packages/core/src/lib/actions/session.ts");
    const unused = modules.filter((path) =>
      /node_modules\/(oauth4webapi|jose|cookie)\/|lib\/(oauth\/|webauthn\/(script|verify|options|library)\.ts|email\/(http-api|template)\.ts|pages\/|i18n\/account\/|session\/(backchannel|devices|session-claims|rate-limit)\.ts|store\/(memory|sliding-window)\.ts|http\/csrf\.ts|actions\/(callback|signin|signout|error|backchannel-logout|csrf|providers)(\.ts|\/))/.test(
        path,
      ),
    );
    expect(unused).toEqual([]);
    expect(startup.gzip).toBeLessThanOrEqual(CREDENTIALS_STARTUP_GZIP_BUDGET);
  });
});

describe("cold start: @tessera/next Edge middleware bundle of a credentials-only app", () => {
  it("keeps the one-file middleware bundle within its gzip budget", async () => {
    const bundle = await build.middlewareBundle("tessera");
    expect(Object.keys(bundle.metafile.inputs)).toContain("packages/next/src/lib/auth.ts");
    expect(bundle.gzip).toBeLessThanOrEqual(MIDDLEWARE_GZIP_BUDGET);
  });

  it("evaluates neither the server actions nor next-auth v4's token decoder (jose JWE) at start-up", async () => {
    const { startup } = await build.splitMiddlewareBundle("tessera");
    const modules = Object.keys(startup.inputs).filter((path) => (startup.inputs[path] ?? 0) > 0);
    expect(modules).toContain("packages/next/src/lib/session.ts");
    const unused = modules.filter((path) =>
      /node_modules\/jose\/|packages\/next\/src\/lib\/(actions|sessions|access-token|next-auth-v4-(decode|token))\.ts/.test(
        path,
      ),
    );
    expect(unused).toEqual([]);
    expect(startup.gzip).toBeLessThanOrEqual(MIDDLEWARE_STARTUP_GZIP_BUDGET);
  });
});
