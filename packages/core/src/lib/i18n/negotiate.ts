/**
 * Choosing a locale from an `Accept-Language` header (RFC 9110 §12.5.4,
 * https://www.rfc-editor.org/rfc/rfc9110#section-12.5.4): the ranges are ordered by their
 * q-values, and each is matched by the "lookup" scheme of RFC 4647 §3.4
 * (https://www.rfc-editor.org/rfc/rfc4647#section-3.4) with two additions: a bare language
 * reaches its regional variant (`pt` → `pt-BR`), and Chinese is matched by script
 * (`zh`, `zh-Hans`, `zh-SG` → `zh-CN`; `zh-Hant`, `zh-TW` never become Simplified Chinese).
 */

/** One language range and its weight. */
export interface LanguageRange {
  range: string;
  q: number;
}

/**
 * Headers beyond this length, and ranges beyond this count, are not read: a header of thousands
 * of ranges would make every page render do thousands of comparisons (CPU exhaustion).
 */
const MAX_HEADER_LENGTH = 1024;
const MAX_RANGES = 32;

const RANGE = /^(?:\*|[a-z]{1,8}(?:-[a-z0-9]{1,8})*)$/i;
const QVALUE = /^q=(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/i;

/**
 * Parses an `Accept-Language` value into ranges, highest q first (equal weights keep their
 * order). Malformed entries are skipped, and `q=0` ranges ("not acceptable") are left out.
 *
 * @example
 * ```ts
 * parseAcceptLanguage("fr-CH, fr;q=0.9, en;q=0.8, *;q=0.5")
 * // [{ range: "fr-CH", q: 1 }, { range: "fr", q: 0.9 }, { range: "en", q: 0.8 }, { range: "*", q: 0.5 }]
 * ```
 */
export function parseAcceptLanguage(header: string | null | undefined): LanguageRange[] {
  if (!header) return [];
  const ranges: LanguageRange[] = [];
  for (const entry of header.slice(0, MAX_HEADER_LENGTH).split(",").slice(0, MAX_RANGES)) {
    const [rawRange = "", ...parameters] = entry.split(";").map((part) => part.trim());
    if (!RANGE.test(rawRange)) continue;
    let q = 1;
    let valid = true;
    for (const parameter of parameters) {
      const match = QVALUE.exec(parameter.replace(/\s+/g, ""));
      if (match?.[1] === undefined) {
        valid = false;
        break;
      }
      q = Number(match[1]);
    }
    if (valid && q > 0) ranges.push({ range: rawRange, q });
  }
  // Array.prototype.sort is stable: equal q-values keep the header's order.
  return ranges.sort((a, b) => b.q - a.q);
}

/** Chinese written in Traditional characters: never answered with Simplified Chinese. */
function isTraditionalChinese(subtags: readonly string[]): boolean {
  return subtags.some((tag) => tag === "hant" || tag === "tw" || tag === "hk" || tag === "mo");
}

/** The available locale one range selects, or undefined. */
function matchRange(range: string, available: readonly string[]): string | undefined {
  const byLowerCase = new Map(available.map((locale) => [locale.toLowerCase(), locale]));
  const subtags = range.toLowerCase().split("-");
  // RFC 4647 lookup: the whole range, then shorter and shorter prefixes.
  for (let length = subtags.length; length > 0; length--) {
    const found = byLowerCase.get(subtags.slice(0, length).join("-"));
    if (found) return found;
  }
  const [language] = subtags;
  if (language === "zh" && isTraditionalChinese(subtags)) return undefined;
  // A range without the region we have: the first available variant of its language.
  return available.find((locale) => locale.toLowerCase().split("-")[0] === language);
}

/**
 * The best of `available` for an `Accept-Language` header, or `fallback` when none fits.
 *
 * @example
 * ```ts
 * negotiateLocale("pt;q=0.9, de;q=0.8", ["en", "de", "pt-BR"], "en") // "pt-BR"
 * negotiateLocale("zh-Hans-CN", ["en", "zh-CN"], "en") // "zh-CN"
 * ```
 */
export function negotiateLocale(
  header: string | null | undefined,
  available: readonly string[],
  fallback: string,
): string {
  for (const { range } of parseAcceptLanguage(header)) {
    if (range === "*") continue;
    const found = matchRange(range, available);
    if (found) return found;
  }
  return fallback;
}

/** Languages written right to left (their primary subtags). */
const RIGHT_TO_LEFT = new Set(["ar", "he", "fa", "ur", "ps", "yi", "dv", "ckb", "sd", "ug"]);

/** The writing direction of a locale, for `<html dir>`. */
export function textDirection(locale: string): "ltr" | "rtl" {
  const [language = ""] = locale.toLowerCase().split("-");
  return RIGHT_TO_LEFT.has(language) ? "rtl" : "ltr";
}
