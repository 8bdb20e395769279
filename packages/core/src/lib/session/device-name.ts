/**
 * A device's name as people say it ("Chrome on Linux", "Safari on iPhone"), read from a
 * User-Agent header for the session list. A few ordered rules, not a full parser: browsers that
 * build on another name it in their own token (Edge and Opera carry "Chrome/", Chrome carries
 * "Safari/"), so the more specific tokens are tried first. Anything unrecognised names nothing,
 * and the raw User-Agent stays beside the name.
 */

/** Browser tokens, most specific first. */
const BROWSERS: readonly (readonly [RegExp, string])[] = [
  [/\bEdg(?:e|A|iOS)?\//, "Edge"],
  [/\b(?:OPR|OPiOS|Opera)\//, "Opera"],
  [/\bSamsungBrowser\//, "Samsung Internet"],
  [/\b(?:Firefox|FxiOS)\//, "Firefox"],
  [/\bCriOS\//, "Chrome"],
  [/\bChromium\//, "Chromium"],
  [/(?:\b|Headless)Chrome\//, "Chrome"],
  [/\bVersion\/[\d.]+.*\bSafari\//, "Safari"],
];

/** Platform tokens; phones and tablets before the systems they also mention. */
const PLATFORMS: readonly (readonly [RegExp, string])[] = [
  [/\biPhone\b/, "iPhone"],
  [/\biPad\b/, "iPad"],
  [/\bAndroid\b/, "Android"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bWindows\b/, "Windows"],
  [/\bMac OS X\b|\bMacintosh\b/, "Mac"],
  [/\bLinux\b/, "Linux"],
];

function first(rules: readonly (readonly [RegExp, string])[], text: string): string | undefined {
  return rules.find(([pattern]) => pattern.test(text))?.[1];
}

/**
 * The device name of a User-Agent: "<browser> on <platform>", either half alone when only one is
 * known, or null.
 *
 * @example
 * ```ts
 * deviceName("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36") // "Chrome on Linux"
 * deviceName("curl/8.5.0") // null
 * ```
 */
export function deviceName(userAgent: string | null | undefined): string | null {
  if (!userAgent) return null;
  const browser = first(BROWSERS, userAgent);
  const platform = first(PLATFORMS, userAgent);
  if (browser && platform) return `${browser} on ${platform}`;
  return browser ?? platform ?? null;
}
