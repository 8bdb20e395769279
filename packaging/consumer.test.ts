/**
 * The packages as a user gets them: every workspace package is built and packed with `npm pack`,
 * the tarballs are installed into a fresh app in a temporary directory outside the workspace
 * (their other dependencies come from the npm registry), and the app then signs in over HTTP
 * through `@tessera/express` and through the README's plain `node:http` Quick start, and
 * type-checks an import of every public entry point under `"moduleResolution": "node16"` and
 * `"bundler"`.
 *
 * One build, pack and install serves every case of this file; it takes a minute or two on a
 * 2-core machine, hence the long hook timeout.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildPackages, exec, ROOT, TSC_BIN } from "../packages/core/test/fixtures/build.js";
import { freePort } from "../packages/core/test/fixtures/ports.js";

const PACKAGES = [
  "core",
  "adapter-test",
  "memory",
  "sql",
  "redis",
  "express",
  "next",
  "sveltekit",
  "hono",
] as const;
const BUILD_LOCK = "/tmp/tessera-tsc-build.lock";
const QUICK_START = join(ROOT, "examples/node/server.mjs");
const DEMO_USER = { email: "ada@example.com", password: "analytical-engine" };

/** What `npm pack --json` reports for one tarball. */
interface PackedTarball {
  name: string;
  filename: string;
  size: number;
  unpackedSize: number;
  files: { path: string }[];
}

/** Environment for the app's own npm and node: nothing inherited from the workspace's npm run. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith("npm_")),
  );
  delete env.NODE_ENV;
  delete env.AUTH_SECRET;
  delete env.AUTH_URL;
  delete env.AUTH_TRUST_HOST;
  return { ...env, ...extra };
}

/** Runs a command in `cwd` with the clean environment (or `env`); returns its exit code and output. */
function run(command: string, args: string[], cwd: string, env = cleanEnv()) {
  return exec(command, args, cwd, env);
}

/** Starts `node <args>` in the app and waits for its "Listening on" line. */
async function startServer(args: string[], cwd: string, env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stderr.on("data", (chunk) => {
    output += chunk;
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (chunk) => {
      output += chunk;
      if (output.includes("Listening on")) resolve();
    });
    child.on("exit", (code) => reject(new Error(`${args.join(" ")} exited (${code}):\n${output}`)));
  });
  return {
    output: () => output,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill();
      await once(child, "exit");
    },
  };
}

/** A cookie jar of name=value pairs, later Set-Cookie headers replacing earlier ones. */
function collectCookies(jar: Map<string, string>, response: Response): void {
  for (const header of response.headers.getSetCookie()) {
    const pair = header.split(";")[0] ?? "";
    const separator = pair.indexOf("=");
    jar.set(pair.slice(0, separator), pair.slice(separator + 1));
  }
}
const cookieHeader = (jar: Map<string, string>) =>
  [...jar].map(([name, value]) => `${name}=${value}`).join("; ");

/** Signs in with the credentials provider as a browser's form post would; returns the page at `/`. */
async function signInAndOpenHome(base: string, credentials: typeof DEMO_USER) {
  const jar = new Map<string, string>();
  const csrf = await fetch(`${base}/auth/csrf`);
  collectCookies(jar, csrf);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const callback = await fetch(`${base}/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      cookie: cookieHeader(jar),
    },
    body: new URLSearchParams({ csrfToken, ...credentials, callbackUrl: `${base}/` }),
  });
  collectCookies(jar, callback);
  const home = await fetch(`${base}/`, { headers: { cookie: cookieHeader(jar) } });
  return {
    callbackStatus: callback.status,
    location: callback.headers.get("location"),
    home: await home.text(),
  };
}

const EXPRESS_APP = `import express from "express";
import { ExpressAuth, getSession } from "@tessera/express";
import Credentials from "@tessera/core/providers/credentials";

const config = {
  providers: [
    Credentials({
      authorize: ({ email, password }) =>
        email === "${DEMO_USER.email}" && password === "${DEMO_USER.password}"
          ? { id: "1", name: "Ada", email }
          : null,
    }),
  ],
};
const app = express();
app.use("/auth", ExpressAuth(config));
app.get("/", async (req, res) => {
  const session = await getSession(req, config);
  res.send(session ? \`Signed in as \${session.user?.email}\` : "Not signed in");
});
const server = app.listen(Number(process.env.PORT), "127.0.0.1", () => {
  console.log(\`Listening on \${server.address().port}\`);
});
`;

let workdir = "";
let app = "";
let packed: PackedTarball[] = [];
const servers: { stop: () => Promise<void> }[] = [];

describe("the packed packages, installed into a fresh app outside the workspace", () => {
  beforeAll(async () => {
    await buildPackages(
      PACKAGES.map((name) => `packages/${name}`),
      PACKAGES.map((name) => `packages/${name}/dist/index.d.ts`),
    );
    workdir = mkdtempSync(join(tmpdir(), "tessera-consumer-"));
    const tarballs = join(workdir, "tarballs");
    mkdirSync(tarballs);
    // The build above is the packages' `prepack` (tsc -b); it ran under the build lock that other
    // test files take, so packing reads a dist/ nobody is writing.
    const pack = await exec(
      "flock",
      [
        BUILD_LOCK,
        "npm",
        "pack",
        "--ignore-scripts",
        "--json",
        "--pack-destination",
        tarballs,
        ...PACKAGES.flatMap((name) => ["-w", `packages/${name}`]),
      ],
      ROOT,
    );
    if (pack.code !== 0) throw new Error(`npm pack failed:\n${pack.output}`);
    packed = JSON.parse(pack.stdout) as PackedTarball[];

    app = join(workdir, "app");
    const tarball = (name: string) =>
      `file:../tarballs/${packed.find((entry) => entry.name === name)?.filename}`;
    mkdirSync(app);
    writeFileSync(
      join(app, "package.json"),
      `${JSON.stringify(
        {
          name: "tessera-consumer",
          private: true,
          type: "module",
          dependencies: {
            ...Object.fromEntries(
              PACKAGES.map((name) => [`@tessera/${name}`, tarball(`@tessera/${name}`)]),
            ),
            express: "^5.0.0",
            pg: "^8.0.0",
            // @tessera/next's peers, as a Next.js app has them: optional peers there, so that
            // @tessera/hono (which shares its React client) brings neither into a Hono app.
            next: "^16.0.0",
            react: "^19.0.0",
            "react-dom": "^19.0.0",
            // The passkey entry points' optional peer dependency, as a passkey user has it.
            "@simplewebauthn/server": "^14.0.0",
          },
          devDependencies: {
            "@types/express": "^5.0.0",
            "@types/node": "^20.19.0",
            "@types/pg": "^8.0.0",
            "@types/react": "^19.0.0",
          },
        },
        null,
        2,
      )}\n`,
    );
    const install = await run(
      "npm",
      ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"],
      app,
    );
    if (install.code !== 0) throw new Error(`npm install failed:\n${install.output}`);
  }, 900_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    if (workdir) rmSync(workdir, { recursive: true, force: true });
  });

  it("packs each package with dist, declarations, README and LICENSE, and no tests", () => {
    expect(packed.map((entry) => entry.name).sort()).toEqual(
      PACKAGES.map((name) => `@tessera/${name}`).sort(),
    );
    for (const entry of packed) {
      const paths = entry.files.map((file) => file.path);
      expect(paths, entry.name).toEqual(
        expect.arrayContaining([
          "package.json",
          "README.md",
          "LICENSE",
          "dist/index.js",
          "dist/index.d.ts",
        ]),
      );
      expect(
        paths.filter((path) => /(^|\/)(test|tests|__tests__)\/|\.test\.|tsbuildinfo/.test(path)),
        entry.name,
      ).toEqual([]);
    }
  });

  it("publishes manifests whose dependencies are registry ranges, never workspace links", () => {
    for (const name of PACKAGES) {
      const manifest = JSON.parse(
        readFileSync(join(app, "node_modules/@tessera", name, "package.json"), "utf8"),
      ) as Record<string, Record<string, string> | undefined>;
      const ranges = { ...manifest.dependencies, ...manifest.peerDependencies };
      for (const [dependency, range] of Object.entries(ranges)) {
        expect(range, `${name} → ${dependency}`).toMatch(/^[\^~>=<\d]/);
      }
      expect(manifest.engines, name).toEqual({ node: expect.stringMatching(/^>=20/) });
      expect(manifest.sideEffects, name).toBe(false);
    }
  });

  it("leaves the SQL drivers a PostgreSQL user does not use uninstalled", () => {
    expect(existsSync(join(app, "node_modules/pg/package.json"))).toBe(true);
    expect(existsSync(join(app, "node_modules/better-sqlite3"))).toBe(false);
    expect(existsSync(join(app, "node_modules/mysql2"))).toBe(false);
  });

  it("signs in with credentials over HTTP through @tessera/express", async () => {
    writeFileSync(join(app, "express-app.mjs"), EXPRESS_APP);
    const port = await freePort();
    const server = await startServer(
      ["express-app.mjs"],
      app,
      cleanEnv({
        PORT: String(port),
        AUTH_SECRET: "a-secret-of-the-consumer-test-at-least-32-characters",
        AUTH_URL: `http://127.0.0.1:${port}`,
      }),
    );
    servers.push(server);
    const base = `http://127.0.0.1:${port}`;

    const wrong = await signInAndOpenHome(base, { ...DEMO_USER, password: "wrong" });
    expect(wrong.location).toContain("error=CredentialsSignin");
    expect(wrong.home).toBe("Not signed in");

    const signedIn = await signInAndOpenHome(base, DEMO_USER);
    expect(signedIn.callbackStatus).toBe(302);
    expect(signedIn.location).toBe(`${base}/`);
    expect(signedIn.home).toBe(`Signed in as ${DEMO_USER.email}`);
    // A wrong password is the user's doing: a warning in the log, not an error.
    expect(server.output()).toContain("[tessera][warn][sign-in-failed]");
    expect(server.output()).not.toContain("[error]");
  });

  it("runs the README's Quick start as written: tessera secret, node --env-file=.env server.mjs", async () => {
    const quickStart = readFileSync(QUICK_START, "utf8");
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    expect(readme).toContain(`\`\`\`js\n${quickStart}\`\`\``);
    writeFileSync(join(app, "server.mjs"), quickStart);

    const secret = await run(join(app, "node_modules/.bin/tessera"), ["secret"], app);
    expect(secret.output).toContain("Added AUTH_SECRET in .env");
    const port = await freePort();
    writeFileSync(
      join(app, ".env"),
      `${readFileSync(join(app, ".env"), "utf8")}AUTH_URL=http://localhost:${port}\n`,
    );
    const server = await startServer(
      ["--env-file=.env", "server.mjs"],
      app,
      cleanEnv({ PORT: String(port) }),
    );
    servers.push(server);
    expect(server.output()).toContain(`Listening on http://localhost:${port}`);
    const base = `http://localhost:${port}`;

    const signedOut = await fetch(`${base}/`);
    expect(await signedOut.text()).toContain('Not signed in. <a href="/auth/signin">Sign in</a>');
    const signInPage = await fetch(`${base}/auth/signin`);
    expect(signInPage.status).toBe(200);
    expect(await signInPage.text()).toContain('name="password"');

    const wrong = await signInAndOpenHome(base, { ...DEMO_USER, password: "wrong" });
    expect(wrong.home).toContain("Not signed in");
    const signedIn = await signInAndOpenHome(base, DEMO_USER);
    expect(signedIn.location).toBe(`${base}/`);
    expect(signedIn.home).toContain(`Signed in as ${DEMO_USER.email}.`);
  });

  it("type-checks an import of every public entry point under node16 and bundler resolution", async () => {
    const specifiers: string[] = [];
    for (const name of PACKAGES) {
      const directory = join(app, "node_modules/@tessera", name);
      const manifest = JSON.parse(readFileSync(join(directory, "package.json"), "utf8")) as {
        exports: Record<string, unknown>;
      };
      for (const subpath of Object.keys(manifest.exports)) {
        if (subpath === "./package.json") continue;
        if (subpath.endsWith("/*")) {
          // Each file behind a pattern export, e.g. every provider.
          const folder = join(directory, "dist", subpath.slice(2, -2));
          for (const file of readdirSync(folder).filter((entry) => entry.endsWith(".d.ts")))
            specifiers.push(`@tessera/${name}/${subpath.slice(2, -2)}/${file.slice(0, -5)}`);
        } else specifiers.push(`@tessera/${name}${subpath.slice(1)}`);
      }
    }
    expect(specifiers).toEqual(
      expect.arrayContaining([
        "@tessera/core",
        "@tessera/core/node",
        "@tessera/core/providers/github",
        "@tessera/express",
        "@tessera/next/react",
        "@tessera/sveltekit/components",
        "@tessera/sql",
      ]),
    );
    writeFileSync(
      join(app, "entries.ts"),
      specifiers
        .map((specifier, index) => `export * as entry${index} from "${specifier}";`)
        .join("\n"),
    );
    for (const resolution of ["node16", "bundler"] as const) {
      writeFileSync(
        join(app, `tsconfig.${resolution}.json`),
        JSON.stringify({
          compilerOptions: {
            target: "ES2022",
            module: resolution === "node16" ? "node16" : "ESNext",
            moduleResolution: resolution,
            strict: true,
            noEmit: true,
            skipLibCheck: false,
            types: ["node"],
            lib: ["ES2023", "DOM", "DOM.Iterable"],
          },
          files: ["entries.ts"],
        }),
      );
      const check = await run(
        process.execPath,
        [TSC_BIN, "-p", `tsconfig.${resolution}.json`, "--listFiles"],
        app,
      );
      // Errors in Tessera's declarations or in the importing file; third-party declarations
      // (next's, under `skipLibCheck: false`) have their own.
      const errors = check.stdout
        .split("\n")
        .filter((line) => line.includes("error TS"))
        .filter((line) => line.startsWith("entries.ts") || line.includes("node_modules/@tessera/"));
      expect(errors, resolution).toEqual([]);
      expect(check.stdout, resolution).toContain("node_modules/@tessera/core/dist/index.d.ts");
      // Consumers get the declarations in dist/, never the TypeScript sources shipped beside them.
      const sources = check.stdout
        .split("\n")
        .filter((file) => /node_modules\/@tessera\/[^/]+\/src\/.*(?<!\.d)\.ts$/.test(file));
      expect(sources, resolution).toEqual([]);
    }
  }, 240_000);

  it("loads the server entry points on plain Node from dist/", async () => {
    const entries = [
      "@tessera/core",
      "@tessera/core/node",
      "@tessera/core/jwt",
      "@tessera/core/errors",
      "@tessera/core/providers/github",
      "@tessera/memory",
      "@tessera/sql",
      "@tessera/redis",
      "@tessera/express",
    ];
    const script = `for (const entry of ${JSON.stringify(entries)}) console.log(import.meta.resolve(entry)); await Promise.all(${JSON.stringify(entries)}.map((entry) => import(entry)));`;
    const { code, stdout, output } = await run(
      process.execPath,
      ["--input-type=module", "-e", script],
      app,
    );
    expect(output.replace(stdout, "")).toBe("");
    expect(code).toBe(0);
    for (const url of stdout.trim().split("\n")) expect(url).toMatch(/\/dist\/.*\.js$/);
  });
});
