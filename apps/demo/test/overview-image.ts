/**
 * Composes the README picture from two screenshots of the end-to-end test: the signed-in home
 * page in a browser frame, with the sign-in page in a second frame in front of it.
 */
import { readFile } from "node:fs/promises";
import type { Page } from "../../../e2e/browser.js";

const frame = (png: Buffer, url: string, className: string) => `
<figure class="window ${className}">
  <div class="bar"><i></i><i></i><i></i><span>${url}</span></div>
  <img src="data:image/png;base64,${png.toString("base64")}" alt="">
</figure>`;

/**
 * Renders the composition in `page` (a blank tab) and saves it to `outPath`.
 *
 * @example
 * ```ts
 * await composeOverview(await browser.newPage(), { signIn, home, origin }, "overview.png")
 * ```
 */
export async function composeOverview(
  page: Page,
  shots: { signInPath: string; homePath: string; host: string },
  outPath: string,
): Promise<void> {
  const [signIn, home] = await Promise.all([readFile(shots.signInPath), readFile(shots.homePath)]);
  await page.setViewportSize({ width: 1440, height: 960 });
  await page.setContent(`<!DOCTYPE html><html><head><style>
    html, body { margin: 0; height: 100%; }
    body {
      position: relative; overflow: hidden;
      background: radial-gradient(900px 520px at 70% -10%, #e0e7ff, transparent 70%),
        radial-gradient(700px 500px at 0% 110%, #fce7f3, transparent 70%), #f5f5f6;
      font: 12px ui-sans-serif, system-ui, sans-serif;
    }
    .window {
      position: absolute; margin: 0; overflow: hidden; background: #fff; border-radius: 12px;
      border: 1px solid rgba(9, 9, 11, 0.08);
      box-shadow: 0 2px 4px rgba(9, 9, 11, 0.05), 0 24px 64px -12px rgba(9, 9, 11, 0.25);
    }
    .bar { display: flex; align-items: center; gap: 6px; height: 34px; padding: 0 14px; background: #f4f4f5; border-bottom: 1px solid #e4e4e7; }
    .bar i { width: 10px; height: 10px; border-radius: 50%; background: #d4d4d8; }
    .bar span { margin: 0 auto; padding: 3px 14px; border-radius: 6px; background: #fff; color: #52525b; border: 1px solid #e4e4e7; }
    .window img { display: block; width: 100%; }
    .home { left: 380px; top: 60px; width: 1010px; }
    .signin { left: 50px; top: 100px; width: 400px; }
  </style></head><body>
  ${frame(home, `${shots.host}/`, "home")}
  ${frame(signIn, `${shots.host}/auth/signin`, "signin")}
  </body></html>`);
  await page.waitForFunction(() =>
    Array.from(document.images).every((image) => image.complete && image.naturalWidth > 0),
  );
  await page.screenshot({ path: outPath });
}
