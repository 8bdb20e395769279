/**
 * The stylesheet of the built-in pages. Static CSS plus custom properties derived from the theme;
 * theme colours reach this file only after `safeColor`, because HTML escaping does not protect
 * the inside of a <style> element.
 */

import { readableTextOn, safeColor } from "./security.js";
import type { PageTheme } from "./types.js";

/** Palette of one colour scheme, as CSS custom properties. */
const LIGHT = `
  color-scheme: light;
  --bg: #f5f5f6;
  --card: #ffffff;
  --card-border: rgba(9, 9, 11, 0.07);
  --card-shadow: 0 1px 2px rgba(9, 9, 11, 0.04), 0 12px 32px -8px rgba(9, 9, 11, 0.12);
  --text: #09090b;
  --muted: #6b6b76;
  --faint: #a1a1aa;
  --border: #e4e4e7;
  --field: #ffffff;
  --field-border: #d4d4d8;
  --hover: #f4f4f5;
  --danger-bg: #fef2f2;
  --danger-border: #fecaca;
  --danger-text: #b91c1c;
  --glow: 10%;
  --mark-ring: rgba(9, 9, 11, 0.06);
  --default-brand: #18181b;
  --default-brand-text: #ffffff;
`;

const DARK = `
  color-scheme: dark;
  --bg: #09090b;
  --card: #131316;
  --card-border: rgba(255, 255, 255, 0.08);
  --card-shadow: 0 1px 2px rgba(0, 0, 0, 0.4), 0 16px 40px -12px rgba(0, 0, 0, 0.7);
  --text: #fafafa;
  --muted: #a1a1aa;
  --faint: #71717a;
  --border: #27272a;
  --field: #0c0c0e;
  --field-border: #3a3a41;
  --hover: #1c1c20;
  --danger-bg: rgba(239, 68, 68, 0.1);
  --danger-border: rgba(239, 68, 68, 0.3);
  --danger-text: #fca5a5;
  --glow: 16%;
  --mark-ring: rgba(255, 255, 255, 0.18);
  --default-brand: #fafafa;
  --default-brand-text: #09090b;
`;

function schemeRules(colorScheme: PageTheme["colorScheme"]): string {
  if (colorScheme === "dark") return `:root {${DARK}}`;
  if (colorScheme === "light") return `:root {${LIGHT}}`;
  return `:root {${LIGHT}}\n@media (prefers-color-scheme: dark) { :root {${DARK}} }`;
}

function brandRules(theme: PageTheme): string {
  const brand = safeColor(theme.brandColor);
  if (!brand) {
    // Without a brand colour the primary button is neutral (near-black on light, white on dark).
    return `:root { --brand: var(--default-brand); --brand-text: var(--default-brand-text); --accent: var(--faint); }`;
  }
  const text = safeColor(theme.buttonText) ?? readableTextOn(brand);
  return `:root { --brand: ${brand}; --brand-text: ${text}; --accent: ${brand}; }`;
}

const BASE = `
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body {
  margin: 0;
  min-height: 100vh;
  min-height: 100dvh;
  display: flex;
  flex-direction: column;
  align-items: center;
  justify-content: center;
  padding: 48px 16px;
  font-family: ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", "Noto Sans", Arial, sans-serif;
  font-size: 14px;
  line-height: 1.5;
  color: var(--text);
  background:
    radial-gradient(900px 420px at 50% -120px, color-mix(in srgb, var(--accent) var(--glow), transparent), transparent 70%),
    var(--bg);
  -webkit-font-smoothing: antialiased;
  text-rendering: optimizeLegibility;
}
.card {
  width: 100%;
  max-width: 400px;
  padding: 40px 36px 36px;
  background: var(--card);
  border: 1px solid var(--card-border);
  border-radius: 16px;
  box-shadow: var(--card-shadow);
}
.header { text-align: center; margin-bottom: 28px; }
.logo { display: block; max-width: 160px; max-height: 48px; margin: 0 auto 20px; object-fit: contain; }
.icon-badge {
  display: grid;
  place-items: center;
  width: 48px;
  height: 48px;
  margin: 0 auto 20px;
  border-radius: 12px;
  color: var(--text);
  background: var(--hover);
  border: 1px solid var(--border);
}
.icon-badge.danger { color: var(--danger-text); background: var(--danger-bg); border-color: var(--danger-border); }
h1 { margin: 0; font-size: 20px; line-height: 28px; font-weight: 600; letter-spacing: -0.015em; }
.subtitle { margin: 6px 0 0; color: var(--muted); }
.subtitle strong { color: var(--text); font-weight: 500; }
.stack { display: flex; flex-direction: column; gap: 12px; }
.group { display: flex; flex-direction: column; gap: 10px; }
form { margin: 0; }
.field { display: flex; flex-direction: column; gap: 6px; }
label { font-size: 13px; font-weight: 500; }
input:not([type="hidden"]) {
  width: 100%;
  height: 40px;
  padding: 0 12px;
  font: inherit;
  font-size: 15px;
  color: var(--text);
  background: var(--field);
  border: 1px solid var(--field-border);
  border-radius: 8px;
  outline: none;
  transition: border-color 120ms ease, box-shadow 120ms ease;
}
input::placeholder { color: var(--faint); }
input:focus-visible {
  border-color: var(--brand);
  box-shadow: 0 0 0 3px color-mix(in srgb, var(--brand) 22%, transparent);
}
.button {
  position: relative;
  display: inline-flex;
  align-items: center;
  justify-content: center;
  gap: 10px;
  width: 100%;
  min-height: 40px;
  padding: 8px 16px;
  font: inherit;
  font-weight: 500;
  line-height: 20px;
  text-decoration: none;
  border-radius: 8px;
  border: 1px solid transparent;
  cursor: pointer;
  transition: background-color 120ms ease, border-color 120ms ease, box-shadow 120ms ease, filter 120ms ease;
}
.button:focus-visible {
  outline: none;
  box-shadow: 0 0 0 2px var(--card), 0 0 0 4px color-mix(in srgb, var(--brand) 60%, transparent);
}
.primary { color: var(--brand-text); background: var(--brand); box-shadow: inset 0 1px 0 rgba(255, 255, 255, 0.12), 0 1px 2px rgba(9, 9, 11, 0.12); }
.primary:hover { filter: brightness(1.1) saturate(1.05); }
.primary:active { filter: brightness(0.95); }
.secondary, .provider { color: var(--text); background: var(--card); border-color: var(--border); box-shadow: 0 1px 2px rgba(9, 9, 11, 0.05); }
.secondary:hover { background: var(--hover); }
.provider:hover {
  border-color: color-mix(in srgb, var(--provider-brand, var(--brand)) 45%, var(--border));
  background: color-mix(in srgb, var(--provider-brand, var(--brand)) 6%, var(--card));
}
.provider:focus-visible {
  box-shadow: 0 0 0 2px var(--card), 0 0 0 4px color-mix(in srgb, var(--provider-brand, var(--brand)) 60%, transparent);
}
.provider-logo { width: 20px; height: 20px; object-fit: contain; flex: none; }
.monogram {
  display: grid;
  place-items: center;
  width: 20px;
  height: 20px;
  flex: none;
  border-radius: 6px;
  font-size: 12px;
  font-weight: 600;
  color: var(--provider-text, var(--brand-text));
  background: var(--provider-brand, var(--brand));
  /* Keeps a near-black brand mark visible on the dark card. */
  box-shadow: inset 0 0 0 1px var(--mark-ring);
}
.divider {
  display: flex;
  align-items: center;
  gap: 12px;
  margin: 20px 0;
  color: var(--faint);
  font-size: 12px;
  text-transform: uppercase;
  letter-spacing: 0.06em;
}
.divider::before, .divider::after { content: ""; flex: 1; height: 1px; background: var(--border); }
.alert {
  display: flex;
  gap: 10px;
  align-items: flex-start;
  margin: 0 0 20px;
  padding: 12px 14px;
  color: var(--danger-text);
  background: var(--danger-bg);
  border: 1px solid var(--danger-border);
  border-radius: 10px;
  font-size: 13.5px;
}
.group-title { margin: 0 0 2px; font-size: 13px; font-weight: 600; color: var(--muted); text-transform: uppercase; letter-spacing: 0.04em; }
.notice { margin: 0 0 20px; padding: 12px 14px; background: var(--hover); border: 1px solid var(--border); border-radius: 10px; font-size: 13.5px; }
.notice p { margin: 0; }
.notice a { color: var(--text); font-weight: 500; text-underline-offset: 2px; }
.alert svg { flex: none; margin-top: 1px; }
.alert p { margin: 0; }
.message { margin: 0 0 24px; text-align: center; color: var(--muted); }
.hint { margin: 16px 0 0; text-align: center; color: var(--muted); font-size: 13px; }
.button-stack { display: flex; flex-direction: column; gap: 10px; }
.detail { margin: 0 0 24px; border: 1px solid var(--border); border-radius: 10px; background: var(--hover); }
.detail summary { padding: 10px 14px; cursor: pointer; font-size: 13px; font-weight: 500; }
.detail pre {
  margin: 0;
  padding: 0 14px 12px;
  overflow-x: auto;
  font: 12px/1.6 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  white-space: pre-wrap;
  word-break: break-word;
}
.hint a, .message a { color: var(--text); font-weight: 500; text-underline-offset: 2px; }
.hint a:hover, .message a:hover { color: var(--brand); }
.footer { margin-top: 24px; color: var(--faint); font-size: 12px; text-align: center; }
.footer a { color: var(--muted); text-decoration: none; }
.footer a:hover { color: var(--text); text-decoration: underline; }
a:focus-visible { outline: 2px solid color-mix(in srgb, var(--brand) 60%, transparent); outline-offset: 2px; border-radius: 4px; }
/* Right-to-left pages (Arabic): the layout above uses no physical sides, so flex rows and text
   mirror by themselves. Arabic letters join, and letter-spacing would pull the words apart. */
[dir="rtl"] h1, [dir="rtl"] .divider, [dir="rtl"] .group-title { letter-spacing: 0; }
/* Addresses are written left to right in every language; aligned to the page's side. */
[dir="rtl"] input[type="email"] { direction: ltr; text-align: end; }
@media (max-width: 480px) {
  body { padding: 24px 12px; justify-content: flex-start; }
  .card { padding: 32px 20px 28px; border-radius: 14px; }
}
@media (prefers-reduced-motion: reduce) {
  * { transition: none !important; }
}
`;

/** The full stylesheet for a theme. Only validated colours are interpolated. */
export function stylesheet(theme: PageTheme): string {
  return `${schemeRules(theme.colorScheme)}\n${brandRules(theme)}\n${BASE}`;
}
