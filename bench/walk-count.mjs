// @ts-check
/**
 * Counts the core's source files one request walks through, the measure of "a request's path
 * reads top to bottom":
 *
 *   npm run walk-count                      # every path
 *   npm run walk-count -- session-jwt-node  # one path (ids below)
 *
 * `--functions` also names the functions that ran in each file; `--json` prints the report as JSON.
 *
 * How: the TypeScript sources are loaded file by file (bench/lib/ts-hooks.mjs; no bundle, so each
 * file is a script of its own to V8), V8's precise coverage counts function calls, the path's
 * request is made a few times to warm up (first-request work such as resolving the config,
 * discovery or lazily loaded modules is not the path), the counters are reset, the request is
 * made once more, and every file of packages/core/src in which at least one function ran is
 * listed.
 *
 * The rule is exactly that, with no exclusions: a file counts when code in it runs for the request.
 * Each file is also marked as a "leaf" when it imports no other module of packages/core/src
 * (type-only imports aside): a leaf is a utility a reader can take on trust from its name, such
 * as the base64url codec or the cookie serialiser, and does not have to open to follow the path.
 * The leaves are listed, and counted apart, so that both figures are visible; the total is the
 * headline.
 *
 * Paths:
 * - `session-jwt-node`: `GET /auth/session` with a JWT session cookie, through `toNodeHandler`
 *   on a `node:http` server;
 * - `session-jwt-auth`: the same request through `Auth(Request)`;
 * - `oidc-callback-node`: the OIDC callback (`GET /auth/callback/op?code=…&state=…`) from a real
 *   OpenID Provider (the oidc-provider test fixture on 127.0.0.1), through `toNodeHandler`;
 * - `oidc-callback-auth`: the same callback through `Auth(Request)`.
 */
import { once } from "node:events";
import { readFileSync } from "node:fs";
import http from "node:http";
import { Session } from "node:inspector/promises";
import { register } from "node:module";
import { relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

register("./lib/ts-hooks.mjs", import.meta.url);

const root = fileURLToPath(new URL("..", import.meta.url));
const coreSrc = fileURLToPath(new URL("../packages/core/src/", import.meta.url));
const coreSrcUrl = pathToFileURL(coreSrc).href;
const SECRET = "walk-count-secret-with-at-least-32-characters";
const WARM_UP = 3;

const inspector = new Session();
inspector.connect();
await inspector.post("Profiler.enable");
// Before anything of the core is loaded, so that every function of it is counted.
await inspector.post("Profiler.startPreciseCoverage", { callCount: true, detailed: false });

/** The core's files in which at least one function ran since the last call (which resets). */
async function filesRun() {
  const { result } = await inspector.post("Profiler.takePreciseCoverage");
  /** @type {Map<string, string[]>} */
  const files = new Map();
  for (const script of result) {
    if (!script.url.startsWith(coreSrcUrl)) continue;
    const ran = script.functions.filter((f) => (f.ranges[0]?.count ?? 0) > 0);
    if (ran.length) {
      const names = ran.map((f) => f.functionName || "(anonymous)");
      files.set(fileURLToPath(script.url).slice(coreSrc.length), names);
    }
  }
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** Whether `file` (relative to packages/core/src) imports no other module of the core. */
function isLeaf(/** @type {string} */ file) {
  const source = readFileSync(coreSrc + file, "utf8");
  for (const match of source.matchAll(/^(?:import|export)\s+([^;]*?)\s+from\s+"(\.[^"]+)"/gm)) {
    const clause = match[1] ?? "";
    if (clause.startsWith("type ")) continue;
    // `import { type A, type B } from` brings in nothing at run time either.
    const braces = /^\{([^}]*)\}$/.exec(clause.trim());
    if (braces?.[1]?.split(",").every((name) => /^\s*(type\s|$)/.test(name))) continue;
    return false;
  }
  return true;
}

const core = {
  /** @type {typeof import("../packages/core/src/index.ts")} */
  index: await import("../packages/core/src/index.ts"),
  /** @type {typeof import("../packages/core/src/node.ts")} */
  node: await import("../packages/core/src/node.ts"),
  /** @type {typeof import("../packages/core/src/providers/credentials.ts")} */
  credentials: await import("../packages/core/src/providers/credentials.ts"),
};
const { HttpClient } = await import("../packages/express/test/http-client.ts");
const { startOidcProvider } = await import("../packages/core/test/fixtures/oidc-provider.ts");

/**
 * A `node:http` server answering through `toNodeHandler(await config(origin))` (the config may
 * need the origin, e.g. for a provider's registered redirect URI).
 */
async function nodeServer(
  /** @type {(origin: string) => Promise<import("../packages/core/src/index.ts").AuthConfig>} */ config,
) {
  /** @type {http.RequestListener} */
  let handler = () => {};
  const server = http.createServer((req, res) => handler(req, res));
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = /** @type {import("node:net").AddressInfo} */ (server.address());
  const origin = `http://127.0.0.1:${address.port}`;
  handler = core.node.toNodeHandler(await config(origin));
  return {
    origin,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A cookie jar in front of `Auth(Request, config)`, like a browser. */
function authClient(
  /** @type {import("../packages/core/src/index.ts").AuthConfig} */ config,
  /** @type {string} */ origin,
) {
  const jar = new Map();
  /** @type {(path: string, init?: RequestInit) => Promise<Response>} */
  const request = async (path, init = {}) => {
    const headers = new Headers(init.headers);
    headers.set("cookie", [...jar].map(([name, value]) => `${name}=${value}`).join("; "));
    const response = await core.index.Auth(
      new Request(new URL(path, origin), { ...init, headers, redirect: "manual" }),
      config,
    );
    for (const header of response.headers.getSetCookie()) {
      const [pair = ""] = header.split(";");
      const [name = "", value = ""] = pair.split(/=(.*)/s);
      if (/Max-Age=0|Expires=Thu, 01 Jan 1970/i.test(header) || value === "") jar.delete(name);
      else jar.set(name, value);
    }
    return response;
  };
  return {
    request,
    async postForm(/** @type {string} */ path, /** @type {Record<string, string>} */ form) {
      return request(path, {
        method: "POST",
        body: new URLSearchParams(form),
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
    },
    async csrfToken() {
      const { csrfToken } = /** @type {{ csrfToken: string }} */ (
        await (await request("/auth/csrf")).json()
      );
      return csrfToken;
    },
  };
}

const credentialsConfig = () => ({
  secret: SECRET,
  trustHost: true,
  basePath: "/auth",
  providers: [
    core.credentials.default({
      credentials: { username: {} },
      authorize: (/** @type {Partial<Record<string, unknown>>} */ c) =>
        c.username === "ada" ? { id: "1", name: "Ada", email: "ada@example.test" } : null,
    }),
  ],
});

/**
 * Runs `prepare` (which signs in or starts a sign-in) and then `request` (the path measured),
 * WARM_UP times untimed and once measured; returns the files of that last `request`.
 *
 * @param {() => Promise<unknown>} prepare
 * @param {(prepared: any) => Promise<Response>} request
 * @param {(response: Response) => boolean} ok
 */
async function measure(prepare, request, ok) {
  for (let i = 0; i <= WARM_UP; i++) {
    const prepared = await prepare();
    await filesRun();
    const response = await request(prepared);
    const files = await filesRun();
    if (!ok(response)) throw new Error(`the path answered ${response.status}`);
    await response.arrayBuffer();
    if (i === WARM_UP) return files;
  }
  return new Map();
}

/** @type {Record<string, () => Promise<Map<string, string[]>>>} */
const paths = {
  async "session-jwt-node"() {
    const app = await nodeServer(async () => credentialsConfig());
    try {
      const client = new HttpClient(app.origin);
      const csrfToken = await client.csrfToken();
      await client.postForm("/auth/callback/credentials", { csrfToken, username: "ada" });
      if (!client.jar.has("authjs.session-token")) throw new Error("no session cookie");
      return await measure(
        async () => {},
        () => client.get("/auth/session"),
        (r) => r.status === 200,
      );
    } finally {
      await app.close();
    }
  },
  async "session-jwt-auth"() {
    const client = authClient(credentialsConfig(), "http://localhost:3000");
    const csrfToken = await client.csrfToken();
    await client.postForm("/auth/callback/credentials", { csrfToken, username: "ada" });
    return measure(
      async () => {},
      () => client.request("/auth/session"),
      (r) => r.status === 200,
    );
  },
  async "oidc-callback-node"() {
    /** @type {Awaited<ReturnType<typeof startOidcProvider>> | undefined} */
    let op;
    const app = await nodeServer(async (origin) => {
      op = await startOidcProvider({
        clients: [
          {
            client_id: "rp",
            client_secret: "rp-secret",
            redirect_uris: [`${origin}/auth/callback/op`],
          },
        ],
        accounts: [{ sub: "op-ada", email: "ada@op.test", email_verified: true, name: "Ada" }],
      });
      return {
        secret: SECRET,
        trustHost: true,
        basePath: "/auth",
        providers: [
          {
            id: "op",
            name: "OP",
            type: /** @type {const} */ ("oidc"),
            issuer: op.issuer,
            clientId: "rp",
            clientSecret: "rp-secret",
          },
        ],
      };
    });
    if (!op) throw new Error("the provider did not start");
    try {
      const running = op;
      return await measure(
        async () => {
          const client = new HttpClient(app.origin);
          const csrfToken = await client.csrfToken();
          const start = await client.postForm("/auth/signin/op", { csrfToken });
          const back = await running.authorize(
            /** @type {string} */ (start.headers.get("location")),
          );
          return { client, path: back.url.replace(/^https?:\/\/[^/]+/, "") };
        },
        ({ client, path }) => client.get(path),
        (r) => r.status === 302 && !/error=/.test(r.headers.get("location") ?? ""),
      );
    } finally {
      await app.close();
      await op.close();
    }
  },
  async "oidc-callback-auth"() {
    const origin = "http://localhost:3000";
    const op = await startOidcProvider({
      clients: [
        {
          client_id: "rp",
          client_secret: "rp-secret",
          redirect_uris: [`${origin}/auth/callback/op`],
        },
      ],
      accounts: [{ sub: "op-ada", email: "ada@op.test", email_verified: true, name: "Ada" }],
    });
    const config = {
      secret: SECRET,
      trustHost: true,
      basePath: "/auth",
      providers: [
        {
          id: "op",
          name: "OP",
          type: /** @type {const} */ ("oidc"),
          issuer: op.issuer,
          clientId: "rp",
          clientSecret: "rp-secret",
        },
      ],
    };
    try {
      return await measure(
        async () => {
          const client = authClient(config, origin);
          const csrfToken = await client.csrfToken();
          const start = await client.postForm("/auth/signin/op", { csrfToken });
          const back = await op.authorize(/** @type {string} */ (start.headers.get("location")));
          return { client, path: back.url.replace(/^https?:\/\/[^/]+/, "") };
        },
        ({ client, path }) => client.request(path),
        (r) => r.status === 302 && !/error=/.test(r.headers.get("location") ?? ""),
      );
    } finally {
      await op.close();
    }
  },
};

const args = process.argv.slice(2);
const json = args.includes("--json");
const withFunctions = args.includes("--functions");
const chosen = args.filter((a) => !a.startsWith("--"));
for (const id of chosen)
  if (!(id in paths)) throw new Error(`no path ${id}; one of ${Object.keys(paths).join(", ")}`);
/** @type {Record<string, { files: string[], leaves: string[], functions: Record<string, string[]> }>} */
const report = {};
for (const [id, walk] of Object.entries(paths)) {
  if (chosen.length && !chosen.includes(id)) continue;
  const ran = await walk();
  const files = [...ran.keys()];
  report[id] = { files, leaves: files.filter(isLeaf), functions: Object.fromEntries(ran) };
}
inspector.disconnect();
if (json) console.log(JSON.stringify(report, null, 2));
else {
  for (const [id, { files, leaves }] of Object.entries(report)) {
    console.log(
      `${id}: ${files.length} files (${files.length - leaves.length} + ${leaves.length} leaves)`,
    );
    for (const file of files) {
      const names = withFunctions ? `  ${report[id]?.functions[file]?.join(", ")}` : "";
      console.log(`  ${leaves.includes(file) ? "leaf " : "     "}${file}${names}`);
    }
  }
  console.log(`\n(files of ${relative(root, coreSrc)} in which a function ran; see the header)`);
}
