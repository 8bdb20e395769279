/**
 * The demo's stylesheet: the palette and shapes of Tessera's built-in pages (zinc neutrals, 16 px
 * cards, an accent glow at the top), so moving between the demo and /auth/signin feels like one
 * site. Served inline and allowed by its hash in the Content-Security-Policy.
 */
import { createHash } from "node:crypto";

/** The demo's accent (also the built-in pages' `theme.brandColor`). */
export const ACCENT = "#4f46e5";
/** The identity provider's accent, so its pages look like another company's. */
export const IDP_ACCENT = "#0f766e";

const PALETTE = `
:root {
  color-scheme: light dark;
  --bg: #f5f5f6; --card: #ffffff; --card-border: rgba(9, 9, 11, 0.07);
  --shadow: 0 1px 2px rgba(9, 9, 11, 0.04), 0 12px 32px -8px rgba(9, 9, 11, 0.12);
  --text: #09090b; --muted: #6b6b76; --faint: #a1a1aa; --border: #e4e4e7; --hover: #f4f4f5;
  --field: #ffffff; --field-border: #d4d4d8; --code: #f4f4f5;
  --ok: #15803d; --ok-bg: #f0fdf4; --ok-border: #bbf7d0;
  --warn: #a16207; --warn-bg: #fefce8; --warn-border: #fde68a;
  --glow: 12%; --nav: rgba(255, 255, 255, 0.72);
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #09090b; --card: #131316; --card-border: rgba(255, 255, 255, 0.08);
    --shadow: 0 1px 2px rgba(0, 0, 0, 0.4), 0 16px 40px -12px rgba(0, 0, 0, 0.7);
    --text: #fafafa; --muted: #a1a1aa; --faint: #71717a; --border: #27272a; --hover: #1c1c20;
    --field: #0c0c0e; --field-border: #3a3a41; --code: #0c0c0e;
    --ok: #86efac; --ok-bg: rgba(34, 197, 94, 0.1); --ok-border: rgba(34, 197, 94, 0.3);
    --warn: #fde68a; --warn-bg: rgba(234, 179, 8, 0.1); --warn-border: rgba(234, 179, 8, 0.3);
    --glow: 18%; --nav: rgba(9, 9, 11, 0.72);
  }
}
`;

const BASE = `
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body {
  margin: 0; min-height: 100vh;
  font: 14px/1.5 ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", "Noto Sans", Arial, sans-serif;
  color: var(--text);
  background: radial-gradient(1000px 460px at 50% -160px, color-mix(in srgb, var(--accent) var(--glow), transparent), transparent 70%), var(--bg);
  background-repeat: no-repeat;
  -webkit-font-smoothing: antialiased;
}
a { color: inherit; }
/* A heading scrolled to (a #link, "next heading") stays below the sticky navigation bar. */
html { scroll-padding-top: 84px; }
.nav {
  position: sticky; top: 0; z-index: 1;
  display: flex; align-items: center; gap: 24px;
  max-width: 960px; margin: 0 auto; padding: 16px 24px;
}
.nav-wrap { position: sticky; top: 0; z-index: 1; background: var(--nav); backdrop-filter: blur(12px); border-bottom: 1px solid var(--card-border); }
.brand { display: flex; align-items: center; gap: 10px; font-weight: 600; font-size: 15px; letter-spacing: -0.01em; text-decoration: none; }
.brand svg { display: block; }
.brand small { font-weight: 500; color: var(--muted); font-size: 13px; }
.nav-links { display: flex; gap: 4px; flex: 1; }
.nav-links a { padding: 6px 10px; border-radius: 8px; color: var(--muted); text-decoration: none; font-weight: 500; }
.nav-links a:hover { color: var(--text); background: var(--hover); }
.nav-links a[aria-current="page"] { color: var(--text); background: var(--hover); }
.nav-user { display: flex; align-items: center; gap: 10px; color: var(--muted); font-size: 13px; }
.inline-form { display: contents; }
main { max-width: 960px; margin: 0 auto; padding: 40px 24px 64px; }
main.narrow { max-width: 440px; padding-top: 72px; }
.hero { margin: 8px 0 32px; }
.hero h1 { margin: 0; font-size: 30px; line-height: 36px; font-weight: 650; letter-spacing: -0.025em; }
.hero p { margin: 10px 0 0; max-width: 640px; color: var(--muted); font-size: 15px; }
.hero .actions { margin-top: 24px; }
h2 { margin: 0 0 4px; font-size: 15px; font-weight: 600; letter-spacing: -0.01em; }
.card {
  background: var(--card); border: 1px solid var(--card-border); border-radius: 16px;
  box-shadow: var(--shadow); padding: 24px;
}
.card + .card, .grid + .card, .card + .grid { margin-top: 20px; }
.card-head { display: flex; align-items: baseline; justify-content: space-between; gap: 16px; margin-bottom: 16px; }
.card-head p { margin: 0; color: var(--muted); font-size: 13px; }
.grid { display: grid; gap: 20px; grid-template-columns: repeat(2, minmax(0, 1fr)); }
.grid .card + .card { margin-top: 0; }
.grid + .grid { margin-top: 20px; }
.center { text-align: center; }
.oauth-hint { margin: 24px 0 0; }
.muted { color: var(--muted); }
.small { font-size: 13px; }
.actions { display: flex; flex-wrap: wrap; gap: 10px; }
.button {
  display: inline-flex; align-items: center; justify-content: center; gap: 8px;
  min-height: 38px; padding: 8px 16px; font: inherit; font-weight: 500; line-height: 20px;
  text-decoration: none; border-radius: 8px; border: 1px solid transparent; cursor: pointer;
  transition: background-color 120ms ease, filter 120ms ease, border-color 120ms ease;
}
.button.block { width: 100%; }
.button.small { min-height: 30px; padding: 4px 10px; font-size: 13px; }
.primary { color: #fff; background: var(--accent); box-shadow: inset 0 1px 0 rgba(255, 255, 255, 0.14), 0 1px 2px rgba(9, 9, 11, 0.14); }
.primary:hover { filter: brightness(1.1); }
.secondary { color: var(--text); background: var(--card); border-color: var(--border); box-shadow: 0 1px 2px rgba(9, 9, 11, 0.05); }
.secondary:hover { background: var(--hover); }
.button.used { color: var(--muted); border-style: dashed; box-shadow: none; text-decoration: line-through; }
.button:focus-visible, a:focus-visible, input:focus-visible {
  outline: none; box-shadow: 0 0 0 2px var(--card), 0 0 0 4px color-mix(in srgb, var(--accent) 60%, transparent);
}
.profile { display: flex; align-items: center; gap: 16px; }
.avatar {
  display: grid; place-items: center; flex: none; width: 56px; height: 56px; border-radius: 14px;
  font-size: 22px; font-weight: 600; color: #fff;
  background: linear-gradient(135deg, var(--accent), color-mix(in srgb, var(--accent) 55%, #ec4899));
}
.avatar.solid { background: var(--accent); }
.avatar.small { width: 28px; height: 28px; border-radius: 8px; font-size: 13px; }
.profile h1 { margin: 0; font-size: 24px; line-height: 30px; font-weight: 650; letter-spacing: -0.02em; }
.profile p { margin: 2px 0 0; color: var(--muted); }
.profile > div:nth-child(2) { flex: 1; min-width: 0; }
.profile .actions { margin-left: auto; flex-wrap: nowrap; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 10px 24px; margin: 0; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; min-width: 0; overflow-wrap: anywhere; }
code, pre { font: 12.5px/1.6 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
code { padding: 1px 6px; border-radius: 6px; background: var(--code); border: 1px solid var(--border); }
pre { margin: 0; padding: 14px 16px; overflow-x: auto; border-radius: 10px; background: var(--code); border: 1px solid var(--border); white-space: pre-wrap; word-break: break-word; }
.badge { display: inline-flex; align-items: center; gap: 6px; padding: 2px 8px; border-radius: 999px; font-size: 12px; font-weight: 500; border: 1px solid var(--border); color: var(--muted); background: var(--card); white-space: nowrap; }
.badge.ok { color: var(--ok); background: var(--ok-bg); border-color: var(--ok-border); }
.badge.accent { color: var(--accent); border-color: color-mix(in srgb, var(--accent) 35%, var(--border)); background: color-mix(in srgb, var(--accent) 8%, var(--card)); }
.methods { list-style: none; margin: 0; padding: 0; }
.methods li { display: flex; align-items: center; gap: 14px; padding: 14px 0; border-top: 1px solid var(--border); }
.methods li:first-child { border-top: 0; padding-top: 0; }
.methods li:last-child { padding-bottom: 0; }
.method-icon { display: grid; place-items: center; flex: none; width: 36px; height: 36px; border-radius: 10px; background: var(--hover); border: 1px solid var(--border); color: var(--text); }
.method-text { flex: 1; min-width: 0; }
.method-text strong { display: block; font-weight: 550; }
.method-text span { display: block; color: var(--muted); font-size: 13px; overflow-wrap: anywhere; }
.feature { display: flex; gap: 14px; }
.feature h2 { margin-top: 6px; }
.feature p { margin: 6px 0 0; color: var(--muted); font-size: 13.5px; }
.notice { display: flex; gap: 10px; padding: 12px 14px; border-radius: 10px; font-size: 13.5px; color: var(--warn); background: var(--warn-bg); border: 1px solid var(--warn-border); }
.notice p { margin: 0; }
main > .notice { margin-bottom: 20px; }
.impersonation { max-width: 960px; margin: 16px auto 0; align-items: center; }
.mail { padding: 0; overflow: hidden; }
.mail-head { display: flex; gap: 16px; align-items: flex-start; justify-content: space-between; padding: 18px 24px; border-bottom: 1px solid var(--border); }
.mail-head h2 { margin: 0; }
.mail-meta { margin: 4px 0 0; color: var(--muted); font-size: 13px; }
.mail-body { padding: 18px 24px 22px; }
.mail-body pre { max-height: 240px; }
.mail-body .actions { margin-bottom: 14px; }
details summary { cursor: pointer; color: var(--muted); font-size: 13px; font-weight: 500; margin-bottom: 10px; }
.empty { padding: 48px 24px; text-align: center; color: var(--muted); }
.empty .method-icon { margin: 0 auto 14px; width: 48px; height: 48px; border-radius: 12px; }
.empty h2 { color: var(--text); }
.field { display: flex; flex-direction: column; gap: 6px; margin-bottom: 14px; }
label { font-size: 13px; font-weight: 500; }
input {
  width: 100%; height: 40px; padding: 0 12px; font: inherit; font-size: 15px; color: var(--text);
  background: var(--field); border: 1px solid var(--field-border); border-radius: 8px; outline: none;
}
input:focus-visible { border-color: var(--accent); box-shadow: 0 0 0 3px color-mix(in srgb, var(--accent) 22%, transparent); }
.login-card { padding: 36px 32px 32px; }
.login-card header { text-align: center; margin-bottom: 24px; }
.login-card header .avatar { margin: 0 auto 18px; width: 48px; height: 48px; border-radius: 12px; font-size: 18px; }
.login-card h1 { margin: 0; font-size: 20px; font-weight: 600; letter-spacing: -0.015em; }
.login-card header p { margin: 6px 0 0; color: var(--muted); }
.error { margin: 0 0 16px; padding: 10px 12px; border-radius: 10px; font-size: 13.5px; color: #b91c1c; background: #fef2f2; border: 1px solid #fecaca; }
.stack { display: flex; flex-direction: column; gap: 10px; }
.cancel-form { margin-top: 10px; }
.login-hint { margin: 20px 0 0; }
.footer { max-width: 960px; margin: 0 auto; padding: 0 24px 40px; color: var(--faint); font-size: 12.5px; }
.footer code { font-size: 12px; }
@media (max-width: 720px) {
  .grid { grid-template-columns: minmax(0, 1fr); }
  .nav { gap: 12px; padding: 12px 16px; }
  .nav-user span { display: none; }
  main { padding: 24px 16px 48px; }
  .profile { flex-wrap: wrap; }
  .profile .actions { margin-left: 0; }
}
/* Phones: the brand and the account controls share the first row, the links get the second. */
@media (max-width: 560px) {
  html { scroll-padding-top: 116px; }
  .nav { flex-wrap: wrap; row-gap: 8px; padding: 10px 16px 8px; }
  /* A device's name and details take the row's width; its badge and button go below them. */
  .devices li { flex-wrap: wrap; row-gap: 10px; }
  .devices .method-text { flex: 1 1 100%; }
  .brand { flex: 1; }
  .nav-links { order: 1; flex: 1 1 100%; margin: 0 -10px; }
}
`;

function accentRule(accent: string): string {
  return `:root { --accent: ${accent}; }`;
}

/** A stylesheet with its CSP source expression. */
export interface Stylesheet {
  css: string;
  /** `'sha256-…'` for `style-src`. */
  hash: string;
}

function build(accent: string): Stylesheet {
  const css = `${PALETTE}${accentRule(accent)}${BASE}`;
  return { css, hash: `'sha256-${createHash("sha256").update(css).digest("base64")}'` };
}

/** The demo's pages. */
export const demoStyles: Stylesheet = build(ACCENT);
/** The identity provider's pages. */
export const idpStyles: Stylesheet = build(IDP_ACCENT);
