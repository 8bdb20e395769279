#!/usr/bin/env node
/**
 * Checks the built documentation site (docs/.vitepress/dist, or the folder given): every internal
 * link (`href`, `src`) of every page reaches a file of the site, and its `#fragment` an element
 * with that id on the target page; no page loads a script, stylesheet, font or image from another
 * host (the site must be readable offline). External links are listed, never fetched.
 *
 *   node scripts/docs/links.mjs [dist]      exit 1 and print each broken link with its page
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, posix, relative, resolve } from "node:path";

const DEFAULT_DIST = resolve(import.meta.dirname, "../../docs/.vitepress/dist");

function htmlFiles(dir, base = dir) {
  const files = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...htmlFiles(path, base));
    else if (entry.name.endsWith(".html")) files.push(relative(base, path).split("\\").join("/"));
  }
  return files;
}

const decodeEntities = (value) =>
  value
    .replace(/&amp;/g, "&")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">");

/** The ids a page defines (anchors may target any of them). */
function pageIds(html) {
  const ids = new Set();
  for (const match of html.matchAll(/\sid="([^"]*)"/g)) ids.add(decodeEntities(match[1]));
  return ids;
}

/** The `href`/`src` values of a page, with the tag they sit on. */
function pageLinks(html) {
  // Code blocks hold text, not links.
  const text = html.replace(/<pre[\s\S]*?<\/pre>/g, "");
  const links = [];
  for (const match of text.matchAll(/<(\w+)\b[^>]*?\s(href|src)="([^"]*)"/g)) {
    links.push({ tag: match[1].toLowerCase(), attribute: match[2], url: decodeEntities(match[3]) });
  }
  return links;
}

/**
 * Problems of the site in `dist`: `{ page, url, problem }` for each broken internal link or
 * anchor and each resource loaded from another host; `pages` and `external` count what was seen.
 */
export function checkSite(dist = DEFAULT_DIST) {
  const pages = htmlFiles(dist);
  const idsByPage = new Map();
  const ids = (page) => {
    if (!idsByPage.has(page)) idsByPage.set(page, pageIds(readFileSync(join(dist, page), "utf8")));
    return idsByPage.get(page);
  };
  const problems = [];
  const external = new Set();
  for (const page of pages) {
    // The 404 page links relative to wherever it is served; it is checked as the root page.
    const html = readFileSync(join(dist, page), "utf8");
    for (const { tag, attribute, url } of pageLinks(html)) {
      if (/^(mailto|tel|javascript|data):/i.test(url)) continue;
      if (/^([a-z][\w+.-]*:)?\/\//i.test(url)) {
        // Offline reading: a page may link out, but must not load anything from elsewhere.
        if (tag !== "a")
          problems.push({ page, url, problem: `<${tag} ${attribute}> loads from another host` });
        else external.add(url);
        continue;
      }
      const [pathPart, fragment] = splitFragment(url);
      let target = page;
      if (pathPart !== "") {
        const path = pathPart.split("?")[0];
        const resolved = path.startsWith("/")
          ? posix.normalize(`.${path}`)
          : posix.normalize(posix.join(posix.dirname(page), path));
        target = decodeURIComponent(resolved === "." ? "" : resolved);
        if (target === "" || path.endsWith("/")) target = posix.join(target, "index.html");
        const file = join(dist, target);
        if (!existsSync(file) || statSync(file).isDirectory()) {
          if (existsSync(`${file}.html`)) target = `${target}.html`;
          else {
            problems.push({ page, url, problem: "no such file in the site" });
            continue;
          }
        }
      }
      if (fragment && target.endsWith(".html") && !ids(target).has(decodeURIComponent(fragment)))
        problems.push({
          page,
          url,
          problem: `no element with id "${decodeURIComponent(fragment)}" on ${target}`,
        });
    }
  }
  return { problems, pages: pages.length, external: external.size };
}

function splitFragment(url) {
  const hash = url.indexOf("#");
  return hash === -1 ? [url, ""] : [url.slice(0, hash), url.slice(hash + 1)];
}

if (process.argv[1] === import.meta.filename) {
  const dist = resolve(process.argv[2] ?? DEFAULT_DIST);
  const { problems, pages, external } = checkSite(dist);
  for (const { page, url, problem } of problems) console.error(`${page}: ${url} — ${problem}`);
  console.log(
    `${pages} pages, ${external} external links (not fetched), ${problems.length} problems`,
  );
  process.exit(problems.length > 0 ? 1 : 0);
}
