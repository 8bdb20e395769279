// @ts-check
/**
 * One fresh process of the cold-start benchmark: imports an app bundle, then answers one session
 * read (GET /auth/session with a session cookie) and, with a third argument, one request to that
 * path afterwards (the first request that needs a lazily loaded part). Prints its timings as JSON.
 *
 * Usage: node cold-start-child.mjs <bundle.mjs> <cookie header> [second path]
 *
 * Under bench/lib/module-log.mjs it also marks the end of the import on stderr, so that the
 * modules loaded by the import and by the session read can be told apart.
 */
import { writeSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [bundle, cookie, secondPath] = process.argv.slice(2);
const origin = "http://localhost:3000";
const t0 = performance.now();
const app = (await import(pathToFileURL(bundle).href)).default;
const t1 = performance.now();
if (process.env.COLD_START_MODULE_LOG === "1") writeSync(2, "cold-start: imported\n");
const response = await app.fetch(new Request(`${origin}/auth/session`, { headers: { cookie } }));
const body = await response.text();
const t2 = performance.now();
// A figure for a request that failed would measure the wrong thing.
if (response.status !== 200 || !body.includes("ada@example.com"))
  throw new Error(`session read answered ${response.status}: ${body.slice(0, 200)}`);
/** @type {Record<string, number>} */
const out = { import: t1 - t0, firstRequest: t2 - t1, sinceStart: t2 };
if (secondPath) {
  const second = await app.fetch(new Request(`${origin}${secondPath}`, { headers: { cookie } }));
  await second.text();
  if (second.status >= 500) throw new Error(`${secondPath} answered ${second.status}`);
  out.second = performance.now() - t2;
}
console.log(JSON.stringify(out));
