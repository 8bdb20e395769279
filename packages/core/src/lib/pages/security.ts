/**
 * Validation of the values that end up in URLs and CSS (escaping alone does not make a
 * `javascript:` URL or a CSS expression harmless), and the security headers of every page.
 */
import { base64url } from "../crypto/encoding.js";
import { WEBAUTHN_SCRIPT_HASH } from "../webauthn/script-hash.js";

/** Resolves relative references when no trusted origin is known; never rendered. */
const PLACEHOLDER_BASE = new URL("https://relative.invalid/");

/**
 * An image source we are willing to load: http(s) (relative paths resolve to it) or a data: image.
 * Without a trusted `base` (the request's host is not trusted), a relative path stays relative,
 * so the browser resolves it against the host it really talks to.
 */
export function safeImageUrl(value: unknown, base: URL | undefined): string | undefined {
  if (typeof value !== "string" || value.trim() === "") return undefined;
  const trimmed = value.trim();
  // data: images cannot run script inside <img>, and inline logos are common in configs.
  if (/^data:image\/[a-z0-9.+-]+[;,]/i.test(trimmed)) return trimmed;
  if (base) return safeHttpUrl(trimmed, base);
  const resolved = safeHttpUrl(trimmed, PLACEHOLDER_BASE);
  if (!resolved) return undefined;
  const url = new URL(resolved);
  return url.origin === PLACEHOLDER_BASE.origin
    ? `${url.pathname}${url.search}${url.hash}`
    : resolved;
}

/**
 * The CSP source that allows an image returned by {@link safeImageUrl}: `data:`, `'self'` for a
 * relative path, else the image's origin.
 */
export function imageSource(src: string): string | undefined {
  if (src.startsWith("data:")) return "data:";
  if (src.startsWith("/") && !src.startsWith("//")) return "'self'";
  return cspOrigin(src);
}

/**
 * A link target that is http(s) after resolution against `base`, or undefined. Stops
 * `javascript:` / `data:` links, which escaping would leave executable.
 */
export function safeHttpUrl(value: unknown, base: URL): string | undefined {
  if (typeof value !== "string" || value === "") return undefined;
  try {
    const url = new URL(value, base);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : undefined;
  } catch {
    return undefined;
  }
}

const HEX_COLOR = /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
// Only digits, units, separators and keywords inside one pair of parentheses: nothing that can
// close the declaration (`;`), the rule (`}`), the <style> element (`<`) or call url().
const FUNCTION_COLOR = /^(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch)\([-+0-9.%\s,/a-z]*\)$/i;
const NAMED_COLOR = /^[a-z]{3,24}$/i;

/**
 * Returns the colour when it is a plain CSS colour (hex, rgb()/hsl()/oklch()… or a keyword), else
 * undefined. Colours are written into a stylesheet, where HTML escaping does not apply, so this
 * allow-list is what stops CSS injection through `theme.brandColor` or `style.brandColor`.
 */
export function safeColor(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const color = value.trim();
  if (color.length > 64) return undefined;
  return HEX_COLOR.test(color) || FUNCTION_COLOR.test(color) || NAMED_COLOR.test(color)
    ? color
    : undefined;
}

/**
 * Picks black or white text for a hex background by WCAG relative luminance; other colour
 * syntaxes get white (brand colours are usually saturated or dark).
 */
export function readableTextOn(color: string): string {
  if (!HEX_COLOR.test(color)) return "#ffffff";
  let hex = color.slice(1);
  if (hex.length <= 4) hex = [...hex].map((c) => c + c).join("");
  const channel = (offset: number): number => {
    const c = Number.parseInt(hex.slice(offset, offset + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4);
  // Pure WCAG maths would switch to black at L≈0.18; brand buttons conventionally keep white text
  // on mid-tones (Google blue, orange), so only clearly light colours get black text.
  return luminance > 0.4 ? "#0a0a0a" : "#ffffff";
}

/** An origin fit for a CSP source list (scheme://host[:port] and nothing that could end the list). */
export function cspOrigin(value: string): string | undefined {
  try {
    const { protocol, origin } = new URL(value);
    if (protocol !== "https:" && protocol !== "http:") return undefined;
    return /^https?:\/\/[a-z0-9.\-[\]:]+$/i.test(origin) ? origin : undefined;
  } catch {
    return undefined;
  }
}

/** What a page's Content-Security-Policy allows besides its fixed directives. */
export interface PagePolicy {
  /** The page's own origin, or undefined when the request's host is not trusted. */
  origin: string | undefined;
  /** Extra `form-action` sources (origins forms may submit or redirect to). */
  formTargets: readonly string[];
  /** Sources of the images the page shows (see {@link imageSource}). */
  imageSources: readonly string[];
  /** The per-response nonce of the page's <style> element. */
  styleNonce: string;
  /** Hash sources (`sha256-…`) of further inline scripts the page carries (an extension's). */
  scriptHashes?: readonly string[];
}

/**
 * A fresh nonce for one response (CSP3 §2.3.1 `nonce-source`; 128 bits, base64url). The
 * stylesheet depends on the theme and the providers' brand colours, and rendering is synchronous
 * on every runtime, where SHA-256 is not (WebCrypto): a nonce allows exactly our <style> element.
 */
export function createNonce(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(16)));
}

/**
 * The Content-Security-Policy of a page. `withFrameAncestors` is false for the `<meta>` copy,
 * where browsers ignore (and warn about) `frame-ancestors`.
 */
export function contentSecurityPolicy(policy: PagePolicy, withFrameAncestors = true): string {
  // Host header injection: an untrusted origin is never listed, 'self' is the browser's own view.
  const own = policy.origin === undefined ? [] : [policy.origin];
  const formAction = [...new Set(["'self'", ...own, ...policy.formTargets])].join(" ");
  const images = [...new Set(policy.imageSources)].join(" ") || "'none'";
  const directives = [
    "default-src 'none'",
    // CSS injection: only our own <style> element (by its nonce), no style="" attribute.
    `style-src 'nonce-${policy.styleNonce}'`,
    // Only the images the page shows: a tracking pixel or exfiltrating image is refused.
    `img-src ${images}`,
    `form-action ${formAction}`,
    // Only the inline WebAuthn helper (and a page's own helpers), by hash: no other inline
    // script, no URL, no eval.
    `script-src ${[WEBAUTHN_SCRIPT_HASH, ...(policy.scriptHashes ?? [])].map((hash) => `'${hash}'`).join(" ")}`,
    // The WebAuthn helper fetches its options from our own origin.
    "connect-src 'self'",
    // An injected <base> would silently re-target every relative URL.
    "base-uri 'none'",
  ];
  // Clickjacking: nobody may frame a page that submits credentials.
  if (withFrameAncestors) directives.push("frame-ancestors 'none'");
  return directives.join("; ");
}

/** Headers of every built-in page. */
export function pageHeaders(policy: PagePolicy): Record<string, string> {
  return {
    "Content-Type": "text/html; charset=utf-8",
    "Content-Security-Policy": contentSecurityPolicy(policy),
    // For browsers without frame-ancestors support.
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    // Pages carry a CSRF token: never serve them from a shared cache or the back-forward cache.
    "Cache-Control": "private, no-cache, no-store, max-age=0",
    // Keeps ?callbackUrl=… and ?email=… out of the Referer sent to identity providers, while
    // same-origin POSTs still carry a normal Origin header (framework CSRF checks rely on it).
    "Referrer-Policy": "same-origin",
  };
}
