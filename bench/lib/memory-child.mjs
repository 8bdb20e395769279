// @ts-check
/**
 * Memory use of repeated session reads, in a fresh process per library:
 * `node --expose-gc memory-child.mjs <tessera|authjs> <reads> <rounds>`. After each round the
 * heap is collected and `process.memoryUsage()` recorded; the result goes to the parent.
 */
import { libraries, ORIGIN, SESSION_COOKIE, sessionToken, USER } from "./fixtures.mjs";

const [who = "tessera", readsArg = "1000", roundsArg = "5"] = process.argv.slice(2);
const gc = /** @type {() => void} */ (globalThis.gc);
const core = await import(/** @type {string} */ (process.env.BENCH_TESSERA_CORE));
const library = libraries({ core })[who === "authjs" ? "authjs" : "tessera"];
const config = library.jwtConfig();
const cookie = `${SESSION_COOKIE}=${await sessionToken(library)}`;

async function read() {
  const response = await library.Auth(
    new Request(`${ORIGIN}/auth/session`, { headers: { cookie } }),
    config,
  );
  return response.text();
}

function snapshot() {
  gc();
  gc();
  const { rss, heapUsed } = process.memoryUsage();
  return { rss, heapUsed };
}

const first = JSON.parse(await read());
if (first?.user?.email !== USER.email) throw new Error(`${who} does not read Ada's session`);
for (let i = 0; i < 200; i++) await read();
const baseline = snapshot();
const rounds = Number(roundsArg);
const perRound = Math.ceil(Number(readsArg) / rounds);
const after = [];
const start = performance.now();
for (let round = 0; round < rounds; round++) {
  for (let i = 0; i < perRound; i++) await read();
  after.push(snapshot());
}
process.send?.({
  who,
  reads: perRound * rounds,
  seconds: (performance.now() - start) / 1000,
  baseline,
  after,
});
