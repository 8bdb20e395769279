// @ts-check
/**
 * Account enumeration by timing, for password sign-in: the time of a sign-in for an address
 * without an account against one for an address with an account (wrong password, and right
 * password), through `Auth()` in-process with `@tessera/core/password` at its default scrypt
 * parameters (OWASP's N=2^17, r=8, p=1) and the memory adapter. Rate limits are on (counted in
 * the default store, as in an app) with a ceiling no run reaches, so that every attempt makes the
 * limiter's calls and reaches the password check.
 *
 * Then "forgot password" for an address with and without an account, with a mail server that
 * takes 50 ms to answer: the e-mail leaves off the response path, so both answers take as long.
 *
 *   node bench/password-enumeration.mjs [rounds=12] [perRound=3]
 *
 * The three kinds take turns in each round (in a rotating order, so that none always runs first
 * after a pause); the figure per kind is the median of its attempts. It prints the medians and
 * each against the unknown-address median; the claim is that they lie within ±10 % of it.
 */
import { buildTessera } from "./lib/build.mjs";

const [roundsArg = "12", perRoundArg = "3"] = process.argv.slice(2);
const rounds = Number(roundsArg);
const perRound = Number(perRoundArg);

const { modules, failures } = await buildTessera();
if (!modules.password) throw new Error(`The password sources did not build: ${failures.password}`);
const { Auth, Password, password, hashPassword, MemoryAdapter } = await import(modules.password);

const ORIGIN = "http://127.0.0.1:3000";
const adapter = MemoryAdapter();
await adapter.createUser({ id: "ada", email: "ada@example.com", emailVerified: new Date() });
await adapter.setPasswordHash("ada", await hashPassword("correct horse battery staple"));
const config = {
  secret: "bench-secret-with-at-least-32-characters!!",
  trustHost: true,
  adapter,
  session: { strategy: "jwt" },
  rateLimit: { max: 1_000_000 },
  logger: { error() {}, warn() {}, debug() {} },
  providers: [Password({ adapter })],
  experimental: {
    extensions: [
      password({
        breachedPasswords: false,
        // A mail server that takes 50 ms to accept a message.
        send: () => new Promise((resolve) => setTimeout(resolve, 50)),
      }),
    ],
  },
};

const csrf = await Auth(new Request(`${ORIGIN}/auth/csrf`), config);
const cookie = csrf.headers
  .getSetCookie()
  .map((header) => header.split(";")[0])
  .join("; ");
const { csrfToken } = /** @type {{ csrfToken: string }} */ (await csrf.json());

/** @type {Record<string, { email: string; password: string }>} */
const kinds = {
  "unknown address": { email: "nobody@example.com", password: "correct horse battery staple" },
  "known address, wrong password": { email: "ada@example.com", password: "not the passphrase" },
  "known address, right password": {
    email: "ada@example.com",
    password: "correct horse battery staple",
  },
};

/** @param {{ email: string; password: string }} form */
async function attempt(form) {
  const started = process.hrtime.bigint();
  const response = await Auth(
    new Request(`${ORIGIN}/auth/callback/password`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie },
      body: new URLSearchParams({ csrfToken, ...form }),
    }),
    config,
  );
  await response.arrayBuffer();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

// One of each first: the dummy hash is made on the first unknown-address sign-in.
for (const form of Object.values(kinds)) await attempt(form);

/** @type {Record<string, number[]>} */
const times = Object.fromEntries(Object.keys(kinds).map((name) => [name, []]));
const names = Object.keys(kinds);
for (let round = 0; round < rounds; round++) {
  for (let turn = 0; turn < names.length; turn++) {
    const name = /** @type {string} */ (names[(round + turn) % names.length]);
    for (let i = 0; i < perRound; i++) times[name]?.push(await attempt(kinds[name]));
  }
}

/** @param {number[]} values */
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};
const base = median(times["unknown address"] ?? []);
console.log(
  `password sign-in, ${rounds} rounds × ${perRound} attempts per kind, scrypt N=2^17 r=8 p=1`,
);
for (const name of names) {
  const value = median(times[name] ?? []);
  const ratio = value / base;
  console.log(
    `${name.padEnd(32)} median ${value.toFixed(1).padStart(7)} ms  ${((ratio - 1) * 100).toFixed(1).padStart(6)} % against the unknown address`,
  );
}

/** @param {string} email */
async function forgot(email) {
  const started = process.hrtime.bigint();
  const response = await Auth(
    new Request(`${ORIGIN}/auth/password/forgot`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie },
      body: new URLSearchParams({ csrfToken, email }),
    }),
    config,
  );
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`forgot answered ${response.status}`);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

// Each request for another address of the same kind, so the per-address limit never counts up.
/** @type {Record<string, number[]>} */
const forgotTimes = { "forgot, no account": [], "forgot, account": [] };
for (let i = 0; i < 20; i++) {
  const email = `user${i}@example.com`;
  await adapter.createUser({ id: `user-${i}`, email, emailVerified: new Date() });
  const order =
    i % 2 ? ["forgot, account", "forgot, no account"] : ["forgot, no account", "forgot, account"];
  for (const name of order)
    forgotTimes[name]?.push(
      await forgot(name === "forgot, account" ? email : `nobody${i}@example.com`),
    );
}
const forgotBase = median(forgotTimes["forgot, no account"] ?? []);
for (const [name, values] of Object.entries(forgotTimes)) {
  const value = median(values);
  console.log(
    `${name.padEnd(32)} median ${value.toFixed(2).padStart(7)} ms  ${((value / forgotBase - 1) * 100).toFixed(1).padStart(6)} % against no account`,
  );
}
