// @ts-check
/**
 * One HTTP server for the HTTP benchmark, run in its own process (one core for the server, the
 * other for the load generator): `node http-server.mjs <target>`, with the bundled Tessera modules
 * named by the environment (BENCH_TESSERA_CORE, BENCH_TESSERA_EXPRESS). It listens on 127.0.0.1
 * with a random port and reports the port to its parent.
 *
 * Every target answers `GET /auth/session`:
 * - node-raw: plain node:http writing a fixed session answer (no Fetch API objects at all);
 * - bridge-*: node:http → `new Request` → handler → `Response` → node:http, the usual way to
 *   mount a Fetch-API handler on Node; "bridge-bare" does no authentication work (the floor),
 *   "bridge-direct" only the JWE decryption with node:crypto (the in-process floor's work);
 * - node-direct: plain node:http decrypting the cookie with node:crypto and answering JSON, no
 *   Fetch API objects (the floor of the native path); node-tessera: Tessera's `toNodeHandler`;
 * - tessera-data: the bridge, but Tessera's `raw` mode returns data and no `Response` is built;
 * - tessera-light: as tessera-data with a minimal request object instead of `new Request`, to
 *   measure what the Fetch API request costs (an experiment, not a supported API);
 * - express-*: Express 5 with @tessera/express, @auth/express, or the same request conversion
 *   and no authentication work ("express-bare"); "express-plain" is Express alone;
 *   "express-direct" decrypts the cookie with node:crypto (the floor of @tessera/express).
 */
import { createServer } from "node:http";
import { Readable } from "node:stream";
import { serialize } from "cookie";
import {
  libraries,
  SECRET,
  SESSION_COOKIE,
  seedDatabaseSession,
  TOKEN_CLAIMS,
  USER,
} from "./fixtures.mjs";
import { directCookie, directDecrypt, directKey, NO_CACHE_JSON } from "./floor.mjs";

/** @typedef {import("node:http").IncomingMessage} IncomingMessage */
/** @typedef {import("node:http").ServerResponse} ServerResponse */

/** The session answer of the floors: the same bytes the libraries send for Ada. */
const SESSION_BODY = JSON.stringify({
  user: { name: USER.name, email: USER.email, image: TOKEN_CLAIMS.picture },
  expires: new Date(Date.now() + 30 * 24 * 3600 * 1000).toISOString(),
});

/**
 * The session answer decrypted straight from the cookie header with node:crypto (the floors).
 *
 * @param {string | undefined} cookie
 * @param {ReturnType<typeof directKey>} key
 */
function directSessionBody(cookie, key) {
  const claims = directDecrypt(
    /** @type {string} */ (directCookie(cookie ?? null, SESSION_COOKIE)),
    key,
  );
  return JSON.stringify({
    user: { name: claims.name, email: claims.email, image: claims.picture },
    expires: new Date(/** @type {number} */ (claims.exp) * 1000).toISOString(),
  });
}

/**
 * node:http request → Fetch API `Request`.
 *
 * @param {IncomingMessage} req
 */
function toWebRequest(req) {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2)
    headers.append(/** @type {string} */ (raw[i]), /** @type {string} */ (raw[i + 1]));
  /** @type {RequestInit & { duplex?: "half" }} */
  const init = { method: req.method, headers };
  if (req.method !== "GET" && req.method !== "HEAD") {
    init.body = /** @type {ReadableStream} */ (Readable.toWeb(req));
    init.duplex = "half";
  }
  return new Request(`http://${req.headers.host}${req.url}`, init);
}

/**
 * Fetch API `Response` → node:http response.
 *
 * @param {ServerResponse} res
 * @param {Response} response
 */
async function writeWebResponse(res, response) {
  /** @type {string[]} */
  const headers = [];
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers.push(name, value);
  });
  for (const cookie of response.headers.getSetCookie()) headers.push("set-cookie", cookie);
  const body = response.body ? Buffer.from(await response.arrayBuffer()) : undefined;
  res.writeHead(response.status, headers);
  res.end(body);
}

/**
 * Tessera's response data (`raw` mode) → node:http response, with no `Response` in between.
 *
 * @param {ServerResponse} res
 * @param {any} internal
 */
function writeInternal(res, internal) {
  /** @type {Record<string, string | string[]>} */
  const headers = { ...internal.headers };
  if (internal.cookies?.length)
    headers["set-cookie"] = internal.cookies.map((/** @type {any} */ c) =>
      serialize(c.name, c.value, c.options),
    );
  if (internal.redirect !== undefined) headers.location = internal.redirect;
  res.writeHead(internal.status ?? (internal.redirect !== undefined ? 302 : 200), headers);
  res.end(internal.redirect === undefined ? JSON.stringify(internal.body ?? null) : undefined);
}

/**
 * The smallest request object Tessera's pipeline reads (method, url, headers.get/has, body);
 * headers come straight from node:http's already parsed, lower-cased `req.headers`.
 *
 * @param {IncomingMessage} req
 */
function lightRequest(req) {
  const nodeHeaders = req.headers;
  return /** @type {Request} */ (
    /** @type {unknown} */ ({
      method: req.method,
      url: `http://${nodeHeaders.host}${req.url}`,
      body: null,
      headers: {
        get: (/** @type {string} */ name) => {
          const value = nodeHeaders[name.toLowerCase()];
          return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
        },
        has: (/** @type {string} */ name) => nodeHeaders[name.toLowerCase()] !== undefined,
      },
    })
  );
}

/**
 * @param {string} target
 * @returns {Promise<import("node:http").RequestListener>}
 */
async function handlerFor(target) {
  const core = await import(/** @type {string} */ (process.env.BENCH_TESSERA_CORE));
  const { tessera, authjs } = libraries({ core });
  const tesseraConfig = tessera.jwtConfig();
  const rawConfig = { ...tesseraConfig, raw: core.raw };
  const authjsConfig = authjs.jwtConfig();
  switch (target) {
    case "node-raw":
      return (_req, res) => {
        res.writeHead(200, NO_CACHE_JSON);
        res.end(SESSION_BODY);
      };
    case "bridge-bare":
      return async (req, res) => {
        toWebRequest(req);
        await writeWebResponse(res, new Response(SESSION_BODY, { headers: NO_CACHE_JSON }));
      };
    case "bridge-direct": {
      const key = directKey(SECRET, SESSION_COOKIE);
      return async (req, res) => {
        const request = toWebRequest(req);
        const claims = directDecrypt(
          /** @type {string} */ (directCookie(request.headers.get("cookie"), SESSION_COOKIE)),
          key,
        );
        const body = JSON.stringify({
          user: { name: claims.name, email: claims.email, image: claims.picture },
          expires: new Date(/** @type {number} */ (claims.exp) * 1000).toISOString(),
        });
        await writeWebResponse(res, new Response(body, { headers: NO_CACHE_JSON }));
      };
    }
    case "node-direct": {
      const key = directKey(SECRET, SESSION_COOKIE);
      return (req, res) => {
        res.writeHead(200, NO_CACHE_JSON);
        res.end(directSessionBody(req.headers.cookie, key));
      };
    }
    case "node-tessera":
      return core.toNodeHandler(tesseraConfig);
    case "node-tessera-db": {
      // Database sessions through @tessera/memory: the session read's own work over HTTP, with no
      // database round trip to drown it.
      const { MemoryAdapter, createMemoryStore } = await import(
        /** @type {string} */ (process.env.BENCH_TESSERA_MEMORY)
      );
      const adapter = MemoryAdapter(createMemoryStore());
      sessionCookie = `${SESSION_COOKIE}=${await seedDatabaseSession(adapter)}`;
      return core.toNodeHandler(tessera.databaseConfig(adapter));
    }
    case "bridge-tessera":
      return async (req, res) =>
        writeWebResponse(res, await tessera.Auth(toWebRequest(req), tesseraConfig));
    case "bridge-authjs":
      return async (req, res) =>
        writeWebResponse(res, await authjs.Auth(toWebRequest(req), authjsConfig));
    case "tessera-data":
      return async (req, res) => writeInternal(res, await core.Auth(toWebRequest(req), rawConfig));
    case "tessera-light":
      return async (req, res) => writeInternal(res, await core.Auth(lightRequest(req), rawConfig));
  }
  const { default: express } = await import("express");
  const app = express();
  switch (target) {
    case "express-plain":
      app.get("/auth/session", (_req, res) => {
        res.set(NO_CACHE_JSON).end(SESSION_BODY);
      });
      break;
    case "express-direct": {
      const key = directKey(SECRET, SESSION_COOKIE);
      app.get("/auth/session", (req, res) => {
        res.set(NO_CACHE_JSON).end(directSessionBody(req.headers.cookie, key));
      });
      break;
    }
    case "express-mounted-direct": {
      // As express-direct, mounted the way ExpressAuth is (`app.use("/auth", …)`): what the
      // mount alone costs (Express strips and restores the prefix around the handler).
      const key = directKey(SECRET, SESSION_COOKIE);
      app.use("/auth", (req, res) => {
        res.set(NO_CACHE_JSON).end(directSessionBody(req.headers.cookie, key));
      });
      break;
    }
    case "express-bare": {
      const { toWebRequest: expressToWebRequest } = await import(
        /** @type {string} */ (process.env.BENCH_TESSERA_EXPRESS)
      );
      app.use("/auth", async (req, res) => {
        await expressToWebRequest(req);
        res.set(NO_CACHE_JSON).end(SESSION_BODY);
      });
      break;
    }
    case "express-tessera": {
      const { ExpressAuth } = await import(
        /** @type {string} */ (process.env.BENCH_TESSERA_EXPRESS)
      );
      app.use("/auth", ExpressAuth(tessera.jwtConfig()));
      break;
    }
    case "express-authjs": {
      const { ExpressAuth } = await import("@auth/express");
      app.use("/auth", ExpressAuth(authjs.jwtConfig()));
      break;
    }
    default:
      throw new Error(`unknown target ${target}`);
  }
  return app;
}

/** The session cookie a target needs other than the JWT one every client sends (database sessions). */
let sessionCookie = /** @type {string | undefined} */ (undefined);

const target = /** @type {string} */ (process.argv[2]);
const server = createServer({ keepAliveTimeout: 60_000 }, await handlerFor(target));
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  process.send?.({
    port: typeof address === "object" && address ? address.port : 0,
    sessionCookie,
  });
});
// The HTTP bench and bench/profile-http.mjs ask for the server's CPU time (µs) around the
// requests they count.
if (process.env.BENCH_REPORT_CPU === "1")
  process.on("message", () => {
    const { user, system } = process.cpuUsage();
    process.send?.({ cpu: user + system });
  });
// The parent going away (normally or not) ends the server.
process.on("disconnect", () => process.exit(0));
// A normal exit on SIGINT lets `--cpu-prof` write the server's profile.
process.on("SIGINT", () => process.exit(0));
