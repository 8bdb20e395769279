// @ts-check
/**
 * The bar chart of ratios (SVG, written by hand: no chart library), in two panels.
 *
 * 1. Tessera ÷ @auth/core per scenario: the dark bar is Tessera, the light bar behind it the
 *    floor ÷ @auth/core (as fast as any library could be; over HTTP the bridge with the
 *    decryption done directly, for Express the Express floor), the red tick the target.
 *    Logarithmic axis: the ratios span 1–50×.
 * 2. Tessera's cost in floors (1× = as fast as the floor; lower is better), with the 1.5× target
 *    where the issue sets one.
 */
import { httpRatio } from "./http.mjs";

/** @param {string} text */
function escapeXml(text) {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/**
 * @typedef {{ label: string, value: number | undefined, ceiling?: number | undefined, target?: number, higherIsBetter: boolean }} Row
 */

/**
 * @param {import("./report.mjs").BenchRun} run
 * @returns {{ versus: Row[], floors: Row[] }}
 */
function rows(run) {
  /** @type {Row[]} */
  const versus = [];
  /** @type {Row[]} */
  const floors = [];
  for (const r of run.inProcess) {
    if (r.skipped) continue;
    const target = r.id === "session-jwt" ? 15 : r.id === "session-db-memory" ? 5 : 1;
    versus.push({
      label: r.title,
      value: r.ratio,
      ceiling: r.authjsVsFloor,
      target,
      higherIsBetter: true,
    });
    floors.push({
      label: r.title,
      value: r.tesseraVsFloor,
      ...(r.id === "session-jwt" && { target: 1.5 }),
      higherIsBetter: false,
    });
  }
  const ratio = (/** @type {string} */ a, /** @type {string} */ b) => httpRatio(run.http, a, b);
  if (run.http.length) {
    versus.push({
      label: "HTTP session read, node:http bridge",
      value: ratio("bridge-tessera", "bridge-authjs"),
      ceiling: ratio("bridge-direct", "bridge-authjs"),
      target: 1,
      higherIsBetter: true,
    });
    versus.push({
      label: "HTTP session read, Express",
      value: ratio("express-tessera", "express-authjs"),
      ceiling: ratio("express-bare", "express-authjs"),
      target: 1,
      higherIsBetter: true,
    });
    floors.push({
      label: "HTTP session read, node:http bridge (floor: bare bridge)",
      value: ratio("bridge-bare", "bridge-tessera"),
      target: 1.5,
      higherIsBetter: false,
    });
    floors.push({
      label: "  bare bridge + only the JWE decryption, done directly",
      value: ratio("bridge-bare", "bridge-direct"),
      higherIsBetter: false,
    });
    floors.push({
      label: "HTTP session read, Express (floor: Express, no auth)",
      value: ratio("express-bare", "express-tessera"),
      target: 1.5,
      higherIsBetter: false,
    });
  }
  return { versus, floors };
}

const LEFT = 400;
const PLOT = 520;
const RIGHT = 70;
const ROW = 30;
const WIDTH = LEFT + PLOT + RIGHT;

/**
 * One panel: title, grid, bars. Returns the SVG parts and the panel's height.
 *
 * @param {{ title: string, subtitle: string, rows: Row[], top: number, ticks: number[], scale: (v: number) => number, axis: string }} panel
 */
function drawPanel({ title, subtitle, rows: data, top, ticks, scale, axis }) {
  const parts = [
    `<text x="${WIDTH / 2}" y="${top + 22}" text-anchor="middle" font-size="16" font-weight="600">${escapeXml(title)}</text>`,
    `<text x="${WIDTH / 2}" y="${top + 40}" text-anchor="middle" fill="#555">${escapeXml(subtitle)}</text>`,
  ];
  const barsTop = top + 56;
  const barsBottom = barsTop + data.length * ROW;
  for (const tick of ticks) {
    const px = scale(tick).toFixed(1);
    parts.push(
      `<line x1="${px}" x2="${px}" y1="${barsTop - 6}" y2="${barsBottom}" stroke="${tick === 1 ? "#888" : "#e3e3e3"}"/>`,
      `<text x="${px}" y="${barsBottom + 18}" text-anchor="middle" fill="#555">${tick}×</text>`,
    );
  }
  data.forEach((d, i) => {
    const y = barsTop + i * ROW;
    parts.push(
      `<text x="${LEFT - 10}" y="${y + 19}" text-anchor="end">${escapeXml(d.label)}</text>`,
    );
    if (d.ceiling !== undefined)
      parts.push(
        `<rect x="${LEFT}" y="${y + 5}" width="${(scale(d.ceiling) - LEFT).toFixed(1)}" height="20" fill="#c9dcf2"/>`,
      );
    if (d.value !== undefined) {
      const end = scale(d.value);
      const met =
        d.target === undefined || (d.higherIsBetter ? d.value >= d.target : d.value <= d.target);
      const colour = d.label.startsWith("  ") ? "#8a8a8a" : met ? "#1f5fa8" : "#b8562a";
      parts.push(
        `<rect x="${LEFT}" y="${y + 9}" width="${Math.max(end - LEFT, 1).toFixed(1)}" height="12" fill="${colour}"/>`,
        `<text x="${(Math.max(end, d.ceiling === undefined ? 0 : scale(d.ceiling)) + 6).toFixed(1)}" y="${y + 19}">${d.value.toFixed(d.higherIsBetter ? 1 : 2)}×</text>`,
      );
    }
    if (d.target !== undefined) {
      const tx = scale(d.target).toFixed(1);
      parts.push(
        `<line x1="${tx}" x2="${tx}" y1="${y + 3}" y2="${y + 27}" stroke="#d62728" stroke-width="2"/>`,
      );
    }
  });
  parts.push(
    `<text x="${LEFT + PLOT / 2}" y="${barsBottom + 40}" text-anchor="middle" fill="#555">${escapeXml(axis)}</text>`,
  );
  return { parts, height: barsBottom + 56 - top };
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
  const { versus, floors } = rows(run);
  const max = Math.max(50, ...versus.map((d) => Math.max(d.value ?? 0, d.ceiling ?? 0)));
  const min = 0.5;
  const logScale = (/** @type {number} */ v) =>
    LEFT + (PLOT * Math.log(Math.max(v, min) / min)) / Math.log(max / min);
  const floorMax = Math.max(3, ...floors.map((d) => Math.ceil(d.value ?? 0)));
  const linearScale = (/** @type {number} */ v) => LEFT + (PLOT * Math.max(v, 0)) / floorMax;
  const first = drawPanel({
    title: "Tessera ÷ @auth/core (same run; log scale; higher is better)",
    subtitle: `${run.date.slice(0, 10)} · Node ${process.version} · dark: Tessera, light: the floor ÷ @auth/core, red: target`,
    rows: versus,
    top: 0,
    ticks: [0.5, 1, 2, 5, 10, 20, 50, 100].filter((t) => t <= max),
    scale: logScale,
    axis: "times faster than @auth/core (orange: below target)",
  });
  const second = drawPanel({
    title: "Tessera's cost in floors (lower is better)",
    subtitle: "1× = the same work done directly; red: target (orange: above it)",
    rows: floors,
    top: first.height + 10,
    ticks: Array.from({ length: floorMax * 2 + 1 }, (_, i) => i / 2),
    scale: linearScale,
    axis: "times the floor's cost",
  });
  const height = first.height + 10 + second.height;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-labelledby="title" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="system-ui, sans-serif" font-size="13">`,
    `<title id="title">Tessera against @auth/core: speed ratios and Tessera's cost in floors, ${run.date.slice(0, 10)}</title>`,
    `<rect width="${WIDTH}" height="${height}" fill="#fff"/>`,
    ...first.parts,
    ...second.parts,
    "</svg>",
    "",
  ].join("\n");
}
