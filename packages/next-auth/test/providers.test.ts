/**
 * `@tessera/next-auth/providers/<name>` for every provider module next-auth@4.24.15 ships: the
 * module exists, and its factory, given the options a v4 app passes, makes a provider with the
 * id and name v4's factory gives (ids appear in callback URLs registered at the providers).
 */
import { readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";

const require = createRequire(import.meta.url);
const v4Folder = dirname(require.resolve("next-auth/providers/github"));
const names = readdirSync(v4Folder)
  .filter((file) => file.endsWith(".js") && file !== "index.js")
  .map((file) => file.slice(0, -3));

type Factory = (options: Record<string, unknown>) => { id?: string; name?: string };

/** Options every OAuth factory of v4 accepts, plus the few some of them require. */
const options = {
  clientId: "client",
  clientSecret: "secret",
  issuer: "https://issuer.example",
  tenantId: "tenant",
  primaryUserFlow: "flow",
  server: "smtp://localhost",
  from: "auth@example.test",
  apiKey: "key",
};

describe("v4's provider modules", () => {
  it("are all there", async () => {
    expect(names.length).toBeGreaterThan(60);
    for (const name of names) {
      const theirs = require(join(v4Folder, `${name}.js`)) as Record<string, unknown>;
      const mine = (await import(`../src/providers/${name}.ts`)) as Record<string, unknown>;
      const runtimeExports = Object.keys(theirs).filter((key) => key !== "__esModule");
      expect(Object.keys(mine), name).toEqual(expect.arrayContaining(runtimeExports));
    }
  });

  it("make providers with v4's ids and names", async () => {
    const compared: string[] = [];
    const mismatched: string[] = [];
    for (const name of names) {
      if (name === "oauth" || name === "oauth-types") continue;
      const v4Factory = (require(join(v4Folder, `${name}.js`)) as { default?: Factory }).default;
      const mine = ((await import(`../src/providers/${name}.ts`)) as { default?: Factory }).default;
      expect(typeof mine, name).toBe(typeof v4Factory);
      if (!v4Factory || !mine) continue;
      const theirs = v4Factory(options);
      const ours = mine(options);
      if (ours.id === theirs.id) compared.push(name);
      else mismatched.push(`${name}: ${ours.id} (v4: ${theirs.id})`);
    }
    expect(mismatched).toEqual([]);
    expect(compared.length).toBeGreaterThan(60);
  });
});
