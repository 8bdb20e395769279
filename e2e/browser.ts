/**
 * Launches Debian's Chromium headless through playwright-core, for every browser test of the
 * repository. One launch = one fresh profile directory, so no cookie, passkey or cache leaks from
 * one test file into the next; `close()` removes it again.
 *
 * @example
 * ```ts
 * const browser = await launchBrowser();
 * try {
 *   const page = await browser.newPage();
 *   await page.goto(url);
 * } finally {
 *   await browser.close();
 * }
 * ```
 */
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";

export type { BrowserContext, Page };

/** Where Debian installs Chromium; override with `CHROMIUM_PATH`. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/**
 * Flags for a quiet, reproducible headless Chromium running as root in a container: no sandbox
 * (root cannot use it), no GPU, and no background traffic that would reach out of the machine.
 */
export const CHROMIUM_ARGS: readonly string[] = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Options of {@link launchBrowser}. */
export interface LaunchOptions {
  /** Extra Chromium flags, appended to {@link CHROMIUM_ARGS}. */
  args?: string[];
  /** Viewport of new pages. Default 1280×800. */
  viewport?: { width: number; height: number };
  /** Initial `prefers-color-scheme`. Pages can still change it with `page.emulateMedia`. */
  colorScheme?: "light" | "dark";
  /** Device scale factor (2 gives crisp screenshots). Default 1. */
  deviceScaleFactor?: number;
  /** Run with a visible window (local debugging only). Default false. */
  headed?: boolean;
  /** `false` disables JavaScript in every page, to test what works without it. Default true. */
  javaScriptEnabled?: boolean;
}

/** A running browser with its own profile. */
export interface LaunchedBrowser {
  /** The persistent context (one per launch); use it for cookies, CDP sessions, routes. */
  readonly context: BrowserContext;
  /** The fresh profile directory, removed by `close()`. */
  readonly userDataDir: string;
  /** Opens a new tab. */
  newPage(): Promise<Page>;
  /** Closes the browser and deletes its profile. Safe to call more than once. */
  close(): Promise<void>;
}

/**
 * Launches Chromium headless with a fresh, temporary `--user-data-dir`.
 * Throws a readable error when Chromium is not installed.
 */
export async function launchBrowser(options: LaunchOptions = {}): Promise<LaunchedBrowser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM_PATH}: install it with \`apt-get install -y chromium\` or set CHROMIUM_PATH`,
    );
  }
  const userDataDir = await mkdtemp(join(tmpdir(), "tessera-chromium-"));
  let context: BrowserContext;
  try {
    // A persistent context is the only way to choose the profile directory; playwright passes it
    // to Chromium as --user-data-dir.
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM_PATH,
      headless: !options.headed,
      args: [...CHROMIUM_ARGS, ...(options.args ?? [])],
      viewport: options.viewport ?? { width: 1280, height: 800 },
      deviceScaleFactor: options.deviceScaleFactor ?? 1,
      colorScheme: options.colorScheme ?? "light",
      javaScriptEnabled: options.javaScriptEnabled ?? true,
    });
  } catch (error) {
    await rm(userDataDir, { recursive: true, force: true });
    throw error;
  }

  let closing: Promise<void> | undefined;
  return {
    context,
    userDataDir,
    newPage: () => context.newPage(),
    close() {
      closing ??= (async () => {
        try {
          await context.close();
        } finally {
          await rm(userDataDir, { recursive: true, force: true, maxRetries: 3 });
        }
      })();
      return closing;
    },
  };
}
