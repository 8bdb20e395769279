/**
 * The built-in pages of e2e/language-pages.ts in Chromium, in English (left to right) and Arabic
 * (right to left), on a 1280 px desktop and a 390 px phone, light and dark: each is checked for
 * its `lang` and `dir`, its direction as laid out, and horizontal overflow (no element wider
 * than the viewport or outside it), and photographed to test-artifacts/languages/
 * (`<page>-<locale>-<desktop|mobile>-<light|dark>.png`).
 */
import { mkdir } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LaunchedBrowser, launchBrowser, type Page } from "./browser.js";
import { DOCUMENTED_LANGUAGE_PAGES, publishDocsImage } from "./docs-images.js";
import { LANGUAGE_PAGES } from "./language-pages.js";

const ARTIFACTS = join(import.meta.dirname, "..", "test-artifacts", "languages");

const LOCALES = [
  { acceptLanguage: "en-US,en;q=0.9", lang: "en", dir: "ltr", sample: /^[A-Za-z' -]+$/ },
  { acceptLanguage: "ar-EG,ar;q=0.9,en;q=0.5", lang: "ar", dir: "rtl", sample: /[\u0600-\u06ff]/ },
] as const;
const VIEWPORTS = [
  { name: "desktop", width: 1280, height: 900 },
  { name: "mobile", width: 390, height: 844 },
] as const;
const SCHEMES = ["light", "dark"] as const;

let server: Server;
let origin: string;
let browser: LaunchedBrowser;

beforeAll(async () => {
  await mkdir(ARTIFACTS, { recursive: true });
  // Serves each listed page at /<name>, rendered for the browser's Accept-Language.
  server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", origin);
    const page = LANGUAGE_PAGES.find((candidate) => `/${candidate.name}` === url.pathname);
    if (!page) {
      res.writeHead(url.pathname === "/favicon.ico" ? 204 : 404);
      res.end();
      return;
    }
    const response = await page.render(req.headers["accept-language"] ?? "", origin);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(await response.text());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchBrowser({ viewport: { width: 1280, height: 900 } });
});

afterAll(async () => {
  await browser?.close();
  server?.close();
});

/** Elements whose box leaves the viewport sideways, described for the failure message. */
function overflowingElements(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const out: string[] = [];
    if (document.documentElement.scrollWidth > width)
      out.push(`document: scrollWidth ${document.documentElement.scrollWidth} > ${width}`);
    for (const element of document.body.querySelectorAll("*")) {
      const box = element.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue;
      // Half a pixel of rounding is layout, not overflow.
      if (box.left < -0.5 || box.right > width + 0.5 || box.width > width + 0.5) {
        const name = `${element.tagName.toLowerCase()}${element.className ? `.${String(element.className).replace(/\s+/g, ".")}` : ""}`;
        out.push(`${name}: ${Math.round(box.left)}..${Math.round(box.right)} of ${width}`);
      }
    }
    return out;
  });
}

describe("built-in pages in two writing directions", () => {
  for (const entry of LANGUAGE_PAGES) {
    for (const locale of LOCALES) {
      it(`${entry.name} (${locale.lang}): lang, dir, layout direction, no overflow, screenshots`, async () => {
        const page = await browser.newPage();
        const problems: string[] = [];
        page.on("pageerror", (error) => problems.push(String(error)));
        page.on("console", (message) => {
          if (/Content Security Policy/i.test(message.text())) problems.push(message.text());
        });
        await page.setExtraHTTPHeaders({ "Accept-Language": locale.acceptLanguage });
        for (const viewport of VIEWPORTS) {
          await page.setViewportSize({ width: viewport.width, height: viewport.height });
          for (const scheme of SCHEMES) {
            await page.emulateMedia({ colorScheme: scheme });
            await page.goto(`${origin}/${entry.name}`);
            const seen = await page.evaluate(() => ({
              lang: document.documentElement.lang,
              dir: document.documentElement.getAttribute("dir"),
              direction: getComputedStyle(document.body).direction,
              heading: document.querySelector("h1")?.textContent ?? "",
              scheme: getComputedStyle(document.documentElement).colorScheme,
            }));
            expect(seen.lang).toBe(locale.lang);
            // Left to right is HTML's default: the attribute is written only for right to left.
            expect(seen.dir).toBe(locale.dir === "rtl" ? "rtl" : null);
            expect(seen.direction).toBe(locale.dir);
            expect(seen.heading).toMatch(locale.sample);
            expect(await overflowingElements(page)).toEqual([]);
            const shot = `${entry.name}-${locale.lang}-${viewport.name}-${scheme}`;
            await page.screenshot({ path: join(ARTIFACTS, `${shot}.png`), fullPage: true });
            // The pictures of docs/guides/languages.md (with TESSERA_DOCS_IMAGES=1 only).
            if (DOCUMENTED_LANGUAGE_PAGES.has(shot))
              await publishDocsImage(join(ARTIFACTS, `${shot}.png`), `images/${shot}.png`);
          }
        }
        expect(problems).toEqual([]);
        await page.close();
      });
    }
  }

  it("right to left mirrors the layout: the alert icon sits on the right of its text", async () => {
    const page = await browser.newPage();
    await page.setExtraHTTPHeaders({ "Accept-Language": "ar" });
    await page.goto(`${origin}/signin-error`);
    const [icon, text] = await Promise.all([
      page.locator(".alert svg").boundingBox(),
      page.locator(".alert p").boundingBox(),
    ]);
    expect(icon && text && icon.x > text.x).toBe(true);
    await page.setExtraHTTPHeaders({ "Accept-Language": "en" });
    await page.goto(`${origin}/signin-error`);
    const [iconLtr, textLtr] = await Promise.all([
      page.locator(".alert svg").boundingBox(),
      page.locator(".alert p").boundingBox(),
    ]);
    expect(iconLtr && textLtr && iconLtr.x < textLtr.x).toBe(true);
    await page.close();
  });
});
