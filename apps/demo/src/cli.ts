/**
 * The demo as a command (`npm start` at the repository root runs it through
 * scripts/start-demo.mjs): reads its settings from the environment, starts everything and prints
 * where to go.
 *
 * Environment: `AUTH_SECRET` (required; start-demo.mjs generates one into .env),
 * `DEMO_SESSION_STRATEGY` (`database` or `jwt`), `PORT` (3000), `DEMO_IDP_PORT` (3001),
 * `DEMO_DATA_DIR` (.data), `HOST` (127.0.0.1), `AUTH_GITHUB_ID`/`_SECRET`, `AUTH_GOOGLE_ID`/`_SECRET`.
 */
import { styleText } from "node:util";
import type { SessionStrategy } from "./auth-config.js";
import { type RunningDemo, startDemo } from "./demo.js";

/** What start-demo.mjs tells the demo about the secret, for the start-up summary. */
export interface CliOptions {
  /** e.g. "generated into .env (AUTH_SECRET)". */
  secretSource: string;
}

const color = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (format: Parameters<typeof styleText>[0], text: string) =>
  color ? styleText(format, text) : text;

function port(name: string, fallback: number): number {
  const value = process.env[name];
  if (value === undefined || value === "") return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0 || parsed > 65535)
    throw new Error(`${name} must be a port number (0-65535), got ${JSON.stringify(value)}.`);
  return parsed;
}

function strategy(): SessionStrategy {
  const value = process.env.DEMO_SESSION_STRATEGY ?? "database";
  if (value !== "database" && value !== "jwt")
    throw new Error(
      `DEMO_SESSION_STRATEGY must be "database" or "jwt", got ${JSON.stringify(value)}.`,
    );
  return value;
}

/** The start-up summary. */
export function summary(demo: RunningDemo, options: CliOptions): string {
  const { facts } = demo;
  const other = facts.strategy === "database" ? "jwt" : "database";
  const row = (label: string, value: string) => `  ${paint("dim", label.padEnd(10))} ${value}`;
  const lines = [
    "",
    `${paint("bold", "Tessera demo")}  →  ${paint(["bold", "cyan"], demo.url)}`,
    row(
      "database",
      `${facts.database} (SQLite, migrated)   sessions: ${facts.strategy} (DEMO_SESSION_STRATEGY=${other} to switch)`,
    ),
    row("demo user", `${facts.demoUser.email} / ${facts.demoUser.password}`),
    row("mailbox", `${demo.url}/dev/mailbox`),
    row("OIDC IdP", `${facts.idp.issuer} (account: ${facts.idp.username} / ${facts.idp.password})`),
    row("passkeys", `create one on ${demo.url}/auth/signin (Chrome, Safari, Firefox)`),
  ];
  for (const method of facts.methods.filter((m) => m.id === "github" || m.id === "google"))
    lines.push(row(method.name, "enabled from the environment"));
  for (const missing of facts.missingOAuth)
    lines.push(
      row(
        missing.name,
        paint("dim", `set ${missing.variable}_ID and ${missing.variable}_SECRET to add it`),
      ),
    );
  lines.push(row("secret", options.secretSource), "", paint("dim", "  Press Ctrl+C to stop."), "");
  return lines.join("\n");
}

/**
 * Starts the demo from the environment and stops it on Ctrl+C (SIGINT), SIGTERM or SIGHUP. Exits
 * with a message (no stack trace) when a setting is wrong or a port is taken.
 */
export async function runDemoCli(options: CliOptions): Promise<void> {
  let demo: RunningDemo;
  try {
    const secret = process.env.AUTH_SECRET;
    if (!secret)
      throw new Error(
        "AUTH_SECRET is not set: run `npx tessera secret`, or start the demo with `npm start`.",
      );
    demo = await startDemo({
      port: port("PORT", 3000),
      idpPort: port("DEMO_IDP_PORT", 3001),
      host: process.env.HOST ?? "127.0.0.1",
      dataDir: process.env.DEMO_DATA_DIR ?? ".data",
      secret,
      strategy: strategy(),
      env: process.env,
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const message =
      code === "EADDRINUSE"
        ? `A port the demo needs is taken (${(error as Error).message.replace(/^listen EADDRINUSE: address already in use /, "")}). Stop the other program, or choose ports: PORT=3100 DEMO_IDP_PORT=3101 npm start`
        : error instanceof Error
          ? error.message
          : String(error);
    process.stderr.write(`\n${paint("red", "The demo could not start:")} ${message}\n`);
    process.exitCode = 1;
    return;
  }
  process.stdout.write(summary(demo, options));

  let stopping = false;
  const stop = () => {
    if (stopping) process.exit(1);
    stopping = true;
    process.stdout.write("\nStopping the demo…\n");
    void demo.close().then(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  // The terminal the demo runs in was closed.
  process.on("SIGHUP", stop);
}
