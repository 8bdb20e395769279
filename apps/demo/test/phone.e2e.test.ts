/**
 * The demo's home page on a phone (390 px wide, as an iPhone 14/15) in headless Chromium, signed
 * in with two devices so the Devices card has rows: nothing may overflow the viewport sideways,
 * the boxes of a row must not overlap, the metadata column must keep a usable width, and the
 * sticky navigation bar must not cover a card it scrolls to. Boxes are measured in the page.
 */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LaunchedBrowser, launchBrowser, type Page } from "../../../e2e/browser.js";
import { DEMO_USER } from "../src/database.js";
import { type RunningDemo, startDemo } from "../src/demo.js";

const ARTIFACTS = join(import.meta.dirname, "..", "..", "..", "test-artifacts", "demo");
const SECRET = "demo-phone-test-secret-with-more-than-32-characters";
const PHONE = { width: 390, height: 844 };
const SAFARI_ON_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";

let demo: RunningDemo;
let browser: LaunchedBrowser;
let page: Page;

beforeAll(async () => {
  await mkdir(ARTIFACTS, { recursive: true });
  demo = await startDemo({ port: 0, dataDir: null, secret: SECRET });
  browser = await launchBrowser({ viewport: PHONE, deviceScaleFactor: 2 });
  page = await browser.newPage();
  page.setDefaultTimeout(20_000);
});

afterAll(async () => {
  await browser?.close();
  await demo?.close();
});

/** A second device: the demo user signed in over HTTP with an iPhone's User-Agent. */
async function signInElsewhere(): Promise<void> {
  const csrf = await fetch(`${demo.url}/auth/csrf`, {
    headers: { "user-agent": SAFARI_ON_IPHONE },
  });
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const cookie = csrf.headers
    .getSetCookie()
    .map((header) => header.split(";")[0])
    .join("; ");
  await fetch(`${demo.url}/auth/callback/password`, {
    method: "POST",
    redirect: "manual",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      "user-agent": SAFARI_ON_IPHONE,
      cookie,
    },
    body: new URLSearchParams({ csrfToken, ...DEMO_USER, callbackUrl: "/" }),
  });
}

interface Box {
  what: string;
  left: number;
  top: number;
  right: number;
  bottom: number;
}

describe("demo home on a 390 px phone", () => {
  beforeAll(async () => {
    await signInElsewhere();
    await page.goto(`${demo.url}/auth/signin?callbackUrl=%2F`);
    await page.locator("#password-email").fill(DEMO_USER.email);
    await page.locator("#password-password").fill(DEMO_USER.password);
    await page.getByRole("button", { name: "Sign in with Password" }).click();
    await page.waitForURL(`${demo.url}/`);
  });

  it("shows the Devices card without overflow, overlapping boxes or a squeezed column", async () => {
    await page.goto(`${demo.url}/`);
    await page.screenshot({ path: join(ARTIFACTS, "home-390.png"), fullPage: true });

    // Nothing is wider than the screen: no sideways scrolling.
    const widths = await page.evaluate(() => ({
      document: document.documentElement.scrollWidth,
      viewport: document.documentElement.clientWidth,
    }));
    expect(widths.document).toBeLessThanOrEqual(widths.viewport);

    const rows = await page.getByTestId("device").evaluateAll((items) =>
      items.map((item) => {
        const box = (element: Element | null, what: string) => {
          const rect = element?.getBoundingClientRect();
          return rect
            ? { what, left: rect.left, top: rect.top, right: rect.right, bottom: rect.bottom }
            : null;
        };
        const row = item.getBoundingClientRect();
        return {
          row: { left: row.left, right: row.right },
          name: item.querySelector("strong")?.textContent ?? "",
          parts: [
            box(item.querySelector(".method-text strong"), "name"),
            box(item.querySelector(".method-text span"), "metadata"),
            box(item.querySelector(".badge"), "badge"),
            box(item.querySelector("button"), "button"),
          ].filter((part) => part !== null),
          metadataWidth:
            item.querySelector(".method-text span")?.getBoundingClientRect().width ?? 0,
        };
      }),
    );
    expect(rows.map((row) => row.name).sort()).toEqual(["Chrome on Linux", "Safari on iPhone"]);
    for (const row of rows) {
      const parts = row.parts as Box[];
      for (const part of parts) {
        expect(part.left, `${part.what} inside its row`).toBeGreaterThanOrEqual(row.row.left - 0.5);
        expect(part.right, `${part.what} inside its row`).toBeLessThanOrEqual(row.row.right + 0.5);
      }
      for (const [index, a] of parts.entries())
        for (const b of parts.slice(index + 1)) {
          const overlap =
            Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 &&
            Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
          expect(overlap, `${a.what} and ${b.what} overlap`).toBe(false);
        }
      // "IP … · active … · signed in …" must not squeeze to a word per line.
      expect(row.metadataWidth).toBeGreaterThan(PHONE.width * 0.5);
    }
  });

  it("keeps the title of a card it scrolls to clear of the sticky navigation bar", async () => {
    await page.goto(`${demo.url}/`);
    const covered = await page.evaluate(() => {
      const nav = document.querySelector(".nav-wrap");
      const found: string[] = [];
      for (const title of document.querySelectorAll(".card h2[id]")) {
        // As a link to #<id> or a screen reader's "next heading" does.
        title.scrollIntoView({ block: "start" });
        const navBottom = nav?.getBoundingClientRect().bottom ?? 0;
        if (title.getBoundingClientRect().top < navBottom - 0.5) found.push(title.id);
      }
      return found;
    });
    expect(covered).toEqual([]);
  });
});
