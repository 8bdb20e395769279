/**
 * The documentation's pictures (docs/images/, and docs/demo.png for the README) come from the
 * end-to-end suites' screenshots. The suites always render and check the pages; they copy the
 * pictures into docs/ only when `TESSERA_DOCS_IMAGES=1` is set, because Chromium's PNGs are not
 * byte-stable across versions and fonts, and a run of `npm test` must not rewrite tracked files.
 *
 *   TESSERA_DOCS_IMAGES=1 npx vitest run e2e/pages-screenshots.test.ts apps/demo/test/demo.e2e.test.ts
 *
 * @example
 * ```ts
 * await page.screenshot({ path: artifact })
 * await publishDocsImage(artifact, "images/signin-light.png")
 * ```
 */
import { copyFile, mkdir } from "node:fs/promises";
import { dirname, join } from "node:path";

/** The docs/ folder. */
export const DOCS_DIR = join(import.meta.dirname, "..", "docs");

/** Screenshots of e2e/pages-screenshots.test.ts that the documentation shows. */
export const DOCUMENTED_PAGES: ReadonlySet<string> = new Set([
  "signin-light",
  "signin-dark",
  "signin-error-light",
  "signin-themed-light",
  "signout-light",
  "verify-request-light",
  "error-verification-light",
]);

/** Screenshots of e2e/languages-screenshots.test.ts that docs/guides/languages.md shows. */
export const DOCUMENTED_LANGUAGE_PAGES: ReadonlySet<string> = new Set([
  "signin-ar-mobile-light",
  "two-factor-challenge-ar-desktop-dark",
  "two-factor-enrol-ar-mobile-dark",
  "account-ar-mobile-light",
  "account-en-desktop-dark",
]);

/** Whether this run refreshes the documentation's pictures. */
export function publishingDocsImages(): boolean {
  return process.env.TESSERA_DOCS_IMAGES === "1";
}

/**
 * Copies `artifact` to `docs/<target>` when {@link publishingDocsImages}; does nothing otherwise.
 * Returns whether it copied.
 */
export async function publishDocsImage(artifact: string, target: string): Promise<boolean> {
  if (!publishingDocsImages()) return false;
  const destination = join(DOCS_DIR, target);
  await mkdir(dirname(destination), { recursive: true });
  await copyFile(artifact, destination);
  return true;
}
