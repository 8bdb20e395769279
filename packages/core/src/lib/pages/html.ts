/**
 * A tiny HTML templating core: the `html` tagged template escapes every interpolated value, so
 * markup can only come from the template literals themselves (written by us) or from `raw()`.
 * Provider names, callback URLs, error values and theme settings are all attacker-influenced at
 * some deployment, so "escape by default" is the only safe default.
 */

/** Markup that is already safe to insert as is (produced by `html` or `raw`). */
export class SafeHtml {
  readonly #value: string;
  constructor(value: string) {
    this.#value = value;
  }
  toString(): string {
    return this.#value;
  }
}

/** What may be interpolated into `html`. `null`, `undefined` and booleans render nothing. */
export type HtmlValue =
  | SafeHtml
  | string
  | number
  | boolean
  | null
  | undefined
  | readonly HtmlValue[];

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/**
 * Escapes `& < > " '`, which makes a value safe both as element text and inside a quoted
 * attribute value (the only kind of attribute our templates write).
 */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

/**
 * Marks trusted, static markup (inline SVG icons, the stylesheet) as safe. Never pass it anything
 * derived from configuration or a request: that is what `html` is for.
 */
export function raw(markup: string): SafeHtml {
  return new SafeHtml(markup);
}

function render(value: HtmlValue): string {
  if (value instanceof SafeHtml) return value.toString();
  if (value === null || value === undefined || typeof value === "boolean") return "";
  if (typeof value === "number") return escapeHtml(String(value));
  if (typeof value === "string") return escapeHtml(value);
  return value.map(render).join("");
}

/**
 * Tagged template that escapes every interpolation (arrays are rendered item by item, so lists of
 * `html` fragments compose). `${cond && html`…`}` renders nothing when `cond` is false.
 */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0] ?? "";
  for (let i = 0; i < values.length; i++) {
    out += render(values[i]) + (strings[i + 1] ?? "");
  }
  return new SafeHtml(out);
}

/** Attribute names we agree to write; anything else (notably `on*`, `style`, `formaction`) is dropped. */
const ATTRIBUTE_NAME = /^(?!on)[a-z][a-z0-9-]*$/i;

/**
 * Renders attributes from a record: `true` writes a bare attribute, `false`/`null`/`undefined`
 * omit it, other values are stringified and escaped. Names that are not plain identifiers, or
 * that start with `on` (event handlers), are dropped.
 */
export function attributes(
  attrs: Record<string, string | number | boolean | null | undefined>,
): SafeHtml {
  let out = "";
  for (const [name, value] of Object.entries(attrs)) {
    if (!ATTRIBUTE_NAME.test(name) || value === false || value === null || value === undefined) {
      continue;
    }
    out += value === true ? ` ${name}` : ` ${name}="${escapeHtml(String(value))}"`;
  }
  return new SafeHtml(out);
}
