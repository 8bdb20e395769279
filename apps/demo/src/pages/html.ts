/**
 * Escape-by-default HTML for the demo's pages: every `${value}` in an `html` template is escaped,
 * so markup can only come from the template text itself. User names, e-mail subjects and bodies
 * reach these pages from outside (stored XSS), so nothing is ever interpolated unescaped.
 */

/** Markup that is safe to insert as is: produced by `html`, or static text marked by `trusted`. */
export class Markup {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

/** Anything `html` accepts; `null`, `undefined` and `false` render nothing, arrays item by item. */
export type Interpolation = Markup | string | number | boolean | null | undefined | Interpolation[];

const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Escapes text for element content and double-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ENTITIES[char]!);
}

function renderValue(value: Interpolation): string {
  if (value instanceof Markup) return value.value;
  if (Array.isArray(value)) return value.map(renderValue).join("");
  if (value === null || value === undefined || value === false || value === true) return "";
  return escapeHtml(String(value));
}

/**
 * The tagged template of every demo page.
 *
 * @example
 * ```ts
 * html`<p>Signed in as ${user.name}</p>` // a name like "<img onerror=…>" stays text
 * ```
 */
export function html(strings: TemplateStringsArray, ...values: Interpolation[]): Markup {
  let out = strings[0]!;
  values.forEach((value, index) => {
    out += renderValue(value) + strings[index + 1]!;
  });
  return new Markup(out);
}

/**
 * Marks static markup written in this code base (icons) as safe. Never give it request or
 * database data.
 */
export function trusted(markup: string): Markup {
  return new Markup(markup);
}

/**
 * A link target that is http(s), or `undefined`: stops `javascript:` URLs, which escaping would
 * leave clickable.
 */
export function httpUrl(value: string, base?: string): string | undefined {
  try {
    const url = new URL(value, base);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : undefined;
  } catch {
    return undefined;
  }
}
