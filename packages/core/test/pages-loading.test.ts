/**
 * The built-in pages load what they render (#40): a fresh Node process imports the core's sources
 * file by file (bench/lib/ts-hooks.mjs), answers one page request, and lists every source file it
 * loaded. A static import that drags the WebAuthn code, the session-issuing module or every
 * translation back into a page shows up here as a file that should not be in the list.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../..", import.meta.url));

const TRANSLATIONS = ["ar", "de", "es", "fr", "ja", "pt-BR", "zh-CN"];

/**
 * The core's source files (relative to packages/core/src) a fresh process loads to import the app
 * of `providers` (source of an array expression, with the `imports` it needs) and answer
 * `GET <path>` with `acceptLanguage`.
 */
async function filesLoaded(
  imports: string,
  providers: string,
  path: string,
  acceptLanguage: string,
  extra = "",
): Promise<{ files: string[]; body: string }> {
  const log = `
    import { writeSync } from "node:fs";
    export async function load(url, context, next) {
      if (url.includes("/packages/core/src/")) writeSync(2, "loaded " + url.split("/packages/core/src/")[1] + "\\n");
      return next(url, context);
    }`;
  const child = `
    import { register } from "node:module";
    register("./bench/lib/ts-hooks.mjs", "file://${root}/");
    register("data:text/javascript,${encodeURIComponent(log)}");
    const { Auth } = await import("@tessera/core");
    ${imports}
    const config = { secret: "pages-loading-secret-with-at-least-32-characters", trustHost: true,
      logger: { error() {}, warn() {}, debug() {} }, providers: ${providers}, ${extra} };
    const response = await Auth(new Request("http://localhost:3000${path}",
      { headers: { "accept-language": ${JSON.stringify(acceptLanguage)} } }), config);
    process.stdout.write(await response.text());`;
  const { stdout, stderr } = await promisify(execFile)(
    process.execPath,
    ["--input-type=module", "-e", child],
    { cwd: root, maxBuffer: 16 * 1024 * 1024 },
  );
  const files = [...stderr.matchAll(/^loaded (.+)$/gm)].map((match) => match[1] ?? "");
  return { files, body: stdout };
}

const credentialsImport = `const { default: Credentials } = await import("@tessera/core/providers/credentials");`;
const credentials = `[Credentials({ credentials: { password: { type: "password" } }, authorize: () => null })]`;

describe("what a built-in page loads", () => {
  it("a credentials app's sign-in page: one translation, no WebAuthn, no session issuing", async () => {
    const { files, body } = await filesLoaded(credentialsImport, credentials, "/auth/signin", "de");
    expect(body).toContain("<h1>Anmelden</h1>");
    expect(files).toEqual(
      expect.arrayContaining([
        "lib/actions/signin.ts",
        "lib/pages/signin.ts",
        "lib/i18n/core/en.ts",
        "lib/i18n/core/de.ts",
      ]),
    );
    const translations = files.filter((file) =>
      TRANSLATIONS.some((locale) => file === `lib/i18n/core/${locale}.ts`),
    );
    expect(translations).toEqual(["lib/i18n/core/de.ts"]);
    expect(files).not.toContain("lib/i18n/core/index.ts");
    expect(
      files.filter((file) => /^lib\/(webauthn\/(script|passkeys)\.ts|oauth\/)/.test(file)),
    ).toEqual([]);
    expect(files).not.toContain("lib/session/sign-in.ts");
    expect(files).not.toContain("lib/session/devices.ts");
    expect(files).not.toContain("lib/account/step-up.ts");
  }, 60_000);

  it("English needs no translation; the error and sign-out pages load none of the OAuth client", async () => {
    for (const path of ["/auth/signin", "/auth/error?error=AccessDenied", "/auth/signout"]) {
      const { files, body } = await filesLoaded(
        credentialsImport,
        credentials,
        path,
        "it, xx;q=0.5",
      );
      expect(body).toContain('<html lang="en">');
      expect([path, files.filter((file) => /^lib\/i18n\/core\/(?!en\.ts)/.test(file))]).toEqual([
        path,
        ["lib/i18n/core/translator.ts"],
      ]);
      expect([path, files.filter((file) => file.startsWith("lib/oauth/"))]).toEqual([path, []]);
    }
  }, 60_000);

  it("a passkey app's sign-in page loads the WebAuthn helper it inlines", async () => {
    const { files, body } = await filesLoaded(
      `const { default: Passkey } = await import("@tessera/core/providers/passkey");
       const { MemoryAdapter } = await import("@tessera/memory");`,
      "[Passkey()]",
      "/auth/signin",
      "",
      "adapter: MemoryAdapter(), experimental: { enableWebAuthn: true },",
    );
    expect(body).toContain("<script>");
    expect(files).toContain("lib/webauthn/script.ts");
    expect(files).not.toContain("lib/webauthn/passkeys.ts");
    expect(files).not.toContain("lib/session/sign-in.ts");
  }, 60_000);
});
