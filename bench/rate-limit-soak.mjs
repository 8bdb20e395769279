// @ts-check
/**
 * Soak of the default in-memory rate-limit store: wrong-password posts to the credentials
 * callback, each for a fresh user name from a fresh IP address (the flood that used to fill the
 * store and then cost a scan of the whole map per new key), run in-process through `Auth()` with
 * the default `rateLimit` (10 per identifier, 50 per IP, one minute, a store of 100 000 windows).
 *
 *   node --expose-gc bench/rate-limit-soak.mjs [requests=680000] [maxSeconds=900]
 *
 * Every 20 000 requests it collects the heap and prints requests so far, seconds, the slice's
 * microseconds per request and heapUsed. It stops after `requests` or `maxSeconds`, whichever
 * comes first. No network: every request is handled in this process. The time per request
 * follows the machine's load; `bench/memory-store-eviction.mjs` times the store alone.
 */
import { buildTessera } from "./lib/build.mjs";

const [requestsArg = "680000", maxSecondsArg = "900"] = process.argv.slice(2);
const total = Number(requestsArg);
const maxSeconds = Number(maxSecondsArg);
const gc = /** @type {(() => void) | undefined} */ (globalThis.gc);
if (!gc)
  throw new Error("Run with node --expose-gc, so that the heap can be measured after collection.");

const { modules } = await buildTessera();
if (!modules.core) throw new Error("The core sources did not build.");
const { Auth, Credentials } = await import(modules.core);

const ORIGIN = "http://127.0.0.1:3000";
const config = {
  secret: "soak-secret-with-at-least-32-characters!!",
  trustHost: true,
  logger: { error() {}, warn() {}, debug() {} },
  providers: [
    Credentials({
      credentials: { username: {}, password: { type: "password" } },
      authorize: () => null,
    }),
  ],
};

// One CSRF pair for every post: a failed sign-in does not rotate it.
const csrf = await Auth(new Request(`${ORIGIN}/auth/csrf`), config);
const cookie = csrf.headers
  .getSetCookie()
  .map((header) => header.split(";")[0])
  .join("; ");
const { csrfToken } = /** @type {{ csrfToken: string }} */ (await csrf.json());

/** A distinct IPv4 address per request (10.0.0.0/8 holds 16 million). */
const addressOf = (/** @type {number} */ i) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

async function attempt(/** @type {number} */ i) {
  const response = await Auth(
    new Request(`${ORIGIN}/auth/callback/credentials`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie },
      body: new URLSearchParams({ csrfToken, username: `soak-${i}`, password: "wrong" }),
    }),
    config,
    { clientIp: addressOf(i) },
  );
  const location = response.headers.get("location") ?? "";
  if (!location.includes("error=CredentialsSignin"))
    throw new Error(`Request ${i} answered ${response.status} ${location}`);
}

const heapMb = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
};

const SLICE = 20_000;
const start = performance.now();
const baseline = heapMb();
console.log(`baseline heapUsed ${baseline.toFixed(1)} MB`);
console.log("requests\tseconds\tµs/request (slice)\theapUsed MB");
let done = 0;
while (done < total && (performance.now() - start) / 1000 < maxSeconds) {
  const sliceStart = performance.now();
  const end = Math.min(total, done + SLICE);
  for (; done < end; done++) await attempt(done);
  const sliceMs = performance.now() - sliceStart;
  const perRequest = (sliceMs * 1000) / SLICE;
  const seconds = (performance.now() - start) / 1000;
  console.log(`${done}\t${seconds.toFixed(1)}\t${perRequest.toFixed(1)}\t${heapMb().toFixed(1)}`);
}
