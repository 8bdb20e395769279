// @ts-check
/**
 * The bar chart of ratios (SVG, written by hand: no chart library). One row per scenario: the
 * dark bar is Tessera ÷ @auth/core, the light bar behind it the floor ÷ @auth/core (as fast as
 * any library could be; over HTTP the bridge with the decryption done directly, for Express the
 * Express floor), the red tick the issue's target. Logarithmic axis: ratios span 1–50×.
 */

import { httpRatio } from "./http.mjs";

/** @param {string} text */
function escapeXml(text) {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/**
 * @typedef {{ label: string, ratio: number | undefined, ceiling: number | undefined, target: number }} Row
 */

/**
 * @param {import("./report.mjs").BenchRun} run
 * @returns {Row[]}
 */
function rows(run) {
  /** @type {Row[]} */
  const list = [];
  for (const r of run.inProcess) {
    if (r.skipped) continue;
    const target = r.id === "session-jwt" ? 15 : r.id === "session-db-memory" ? 5 : 1;
    list.push({ label: r.title, ratio: r.ratio, ceiling: r.authjsVsFloor, target });
  }
  const ratio = (/** @type {string} */ a, /** @type {string} */ b) => httpRatio(run.http, a, b);
  if (run.http.length) {
    list.push({
      label: "HTTP session read, node:http bridge",
      ratio: ratio("bridge-tessera", "bridge-authjs"),
      ceiling: ratio("bridge-direct", "bridge-authjs"),
      target: 1,
    });
    list.push({
      label: "HTTP session read, Express",
      ratio: ratio("express-tessera", "express-authjs"),
      ceiling: ratio("express-bare", "express-authjs"),
      target: 1,
    });
  }
  return list;
}

/**
 * The SVG document.
 *
 * @param {import("./report.mjs").BenchRun} run
 * @example
 * ```js
 * writeFileSync("bench/ratios.svg", ratioChart(run))
 * ```
 */
export function ratioChart(run) {
  const data = rows(run);
  const left = 390;
  const right = 70;
  const plot = 520;
  const rowHeight = 30;
  const top = 58;
  const height = top + data.length * rowHeight + 56;
  const width = left + plot + right;
  const max = Math.max(50, ...data.map((d) => Math.max(d.ratio ?? 0, d.ceiling ?? 0)));
  const min = 0.5;
  const scale = (/** @type {number} */ v) =>
    left + (plot * Math.log(Math.max(v, min) / min)) / Math.log(max / min);
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif" font-size="13">`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    `<text x="${width / 2}" y="24" text-anchor="middle" font-size="16" font-weight="600">Tessera ÷ @auth/core (ops per second, same run; log scale)</text>`,
    `<text x="${width / 2}" y="42" text-anchor="middle" fill="#555">${escapeXml(`${run.date.slice(0, 10)} · Node ${process.version} · dark: Tessera, light: the floor (ceiling), red: target`)}</text>`,
  ];
  for (const tick of [0.5, 1, 2, 5, 10, 20, 50, 100].filter((t) => t <= max)) {
    const px = scale(tick).toFixed(1);
    parts.push(
      `<line x1="${px}" x2="${px}" y1="${top - 6}" y2="${top + data.length * rowHeight}" stroke="${tick === 1 ? "#888" : "#e3e3e3"}"/>`,
    );
    parts.push(
      `<text x="${px}" y="${top + data.length * rowHeight + 18}" text-anchor="middle" fill="#555">${tick}×</text>`,
    );
  }
  data.forEach((d, i) => {
    const y = top + i * rowHeight;
    parts.push(
      `<text x="${left - 10}" y="${y + 19}" text-anchor="end">${escapeXml(d.label)}</text>`,
    );
    if (d.ceiling !== undefined)
      parts.push(
        `<rect x="${left}" y="${y + 5}" width="${(scale(d.ceiling) - left).toFixed(1)}" height="20" fill="#c9dcf2"/>`,
      );
    if (d.ratio !== undefined) {
      const end = scale(d.ratio);
      parts.push(
        `<rect x="${left}" y="${y + 9}" width="${(end - left).toFixed(1)}" height="12" fill="${d.ratio >= d.target ? "#1f5fa8" : "#b8562a"}"/>`,
      );
      parts.push(
        `<text x="${(Math.max(end, scale(d.ceiling ?? 0)) + 6).toFixed(1)}" y="${y + 19}">${d.ratio.toFixed(1)}×</text>`,
      );
    }
    const tx = scale(d.target).toFixed(1);
    parts.push(
      `<line x1="${tx}" x2="${tx}" y1="${y + 3}" y2="${y + 27}" stroke="#d62728" stroke-width="2"/>`,
    );
  });
  parts.push(
    `<text x="${left + plot / 2}" y="${height - 12}" text-anchor="middle" fill="#555">times faster than @auth/core (orange: below target)</text>`,
    "</svg>",
    "",
  );
  return parts.join("\n");
}
