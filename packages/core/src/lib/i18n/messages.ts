/**
 * Message dictionaries and the translator the built-in pages and e-mails render with. A
 * dictionary is English first: its keys are the keys of every translation, and a key a
 * translation (or the app's overrides) lacks falls back to the English text. The core has one
 * dictionary (lib/i18n/core/), and each extension brings its own, loaded only with it.
 */
import { escapeHtml, type HtmlValue, html, raw, type SafeHtml } from "../pages/html.js";
import { negotiateLocale, textDirection } from "./negotiate.js";

/** An English dictionary: message keys to texts with `{name}` placeholders. */
export type Messages = Readonly<Record<string, string>>;

/** A translation of the dictionary `M`: any of its keys, no others (a typo is a type error). */
export type Translation<M extends Messages> = { readonly [K in keyof M]?: string };

/**
 * The app's own texts for the dictionary `M`, by locale (`"de"`, `"pt-BR"`): they replace the
 * built-in ones, and a locale Tessera does not ship (`"it"`) becomes available with them.
 */
export type MessageOverrides<M extends Messages> = Readonly<Record<string, Translation<M>>>;

/**
 * The `locale` option: a BCP 47 tag (`"de"`, `"pt-BR"`), or a function of the request that
 * returns one (from a cookie, the user's profile, a path prefix), or `undefined` to let
 * `Accept-Language` decide. A tag Tessera has no texts for is matched like an `Accept-Language`
 * range (`"pt"` is `pt-BR`, `"de-AT"` is `de`), and English is the last resort.
 */
export type LocaleOption = string | ((request: Request) => string | undefined);

/** A dictionary with its translations. */
export interface MessageBundle<M extends Messages> {
  readonly en: M;
  readonly translations: Readonly<Record<string, Translation<M>>>;
}

/** Values substituted for `{name}` placeholders. */
export type MessageParams = Readonly<Record<string, string | number>>;

/** Markup or text substituted for placeholders by {@link Translator.html}. */
export type HtmlMessageParams = Readonly<Record<string, HtmlValue>>;

/** The texts of one dictionary in one locale. */
export interface Translator<M extends Messages> {
  /** The text of `key` with its placeholders filled in (plain text: escape it where it lands). */
  (key: keyof M & string, params?: MessageParams): string;
  /**
   * The text of `key` as markup: the text is escaped, and each placeholder gets its value
   * escaped, or as it is when it is `html` (a link, `<strong>`).
   */
  html(key: keyof M & string, params?: HtmlMessageParams): SafeHtml;
  /** The BCP 47 tag of the locale (`"pt-BR"`), for `<html lang>`. */
  readonly locale: string;
  /** The writing direction of the locale, for `<html dir>`. */
  readonly dir: "ltr" | "rtl";
}

/**
 * Makes a dictionary with its translations; `en` is the reference every translation follows.
 *
 * @example
 * ```ts
 * const en = { "greeting.title": "Hello, {name}" } as const
 * export const greetingMessages = defineMessages(en, { de: { "greeting.title": "Hallo, {name}" } })
 * ```
 */
export function defineMessages<M extends Messages>(
  en: M,
  translations: Readonly<Record<string, Translation<M>>>,
): MessageBundle<M> {
  return { en, translations };
}

/** One dictionary's translation into each language Tessera ships, by its module's export name. */
export interface ShippedTranslations<M extends Messages> {
  de: Translation<M>;
  fr: Translation<M>;
  es: Translation<M>;
  ptBR: Translation<M>;
  ja: Translation<M>;
  zhCN: Translation<M>;
  ar: Translation<M>;
}

/**
 * A dictionary in every language Tessera ships, in the one order every dictionary uses: a bare
 * language (`pt`) reaches the first of its variants, so the order is part of the negotiation.
 *
 * @example
 * ```ts
 * export const accountMessages = shippedMessages(en, { ar, de, es, fr, ja, ptBR, zhCN })
 * ```
 */
export function shippedMessages<M extends Messages>(
  en: M,
  { de, fr, es, ptBR, ja, zhCN, ar }: ShippedTranslations<M>,
): MessageBundle<M> {
  return defineMessages(en, { de, fr, es, "pt-BR": ptBR, ja, "zh-CN": zhCN, ar });
}

/** The locales a bundle can answer in, with the app's overrides: English first. */
export function availableLocales<M extends Messages>(
  bundle: MessageBundle<M>,
  overrides?: MessageOverrides<M>,
): string[] {
  return localesWith(Object.keys(bundle.translations), overrides);
}

/**
 * English, the `shipped` translations' locales in their order, then the overrides' own: the
 * locales of a dictionary whose translations are not loaded yet, in {@link availableLocales}'
 * order (a bare language reaches the first of its variants, so the order decides).
 *
 * @example
 * ```ts
 * localesWith(["de", "pt-BR"], { it: {} }) // ["en", "de", "pt-BR", "it"]
 * ```
 */
export function localesWith(
  shipped: readonly string[],
  overrides?: Readonly<Record<string, unknown>>,
): string[] {
  return [...new Set(["en", ...shipped, ...Object.keys(overrides ?? {})])];
}

const PLACEHOLDER = /\{([A-Za-z0-9_]+)\}/g;

/** Looks a key up: the app's text, the shipped translation, then English. */
function lookup<M extends Messages>(
  bundle: MessageBundle<M>,
  overrides: MessageOverrides<M> | undefined,
  locale: string,
  key: keyof M & string,
): string {
  // Object.hasOwn: keys come from code, but a dictionary must never answer from its prototype.
  const own = (table: Translation<M> | undefined) =>
    table && Object.hasOwn(table, key) ? table[key] : undefined;
  return (
    own(overrides?.[locale]) ??
    own(bundle.translations[locale]) ??
    own(overrides?.en) ??
    (Object.hasOwn(bundle.en, key) ? (bundle.en[key] as string) : key)
  );
}

/**
 * The translator of `bundle` for `locale` (which should be one of {@link availableLocales};
 * another one gets English texts under its own tag).
 *
 * @example
 * ```ts
 * const t = createTranslator(coreMessages, "de")
 * t("signIn.title") // "Anmelden"
 * ```
 */
export function createTranslator<M extends Messages>(
  bundle: MessageBundle<M>,
  locale: string,
  overrides?: MessageOverrides<M>,
): Translator<M> {
  const translate = (key: keyof M & string, params?: MessageParams): string =>
    lookup(bundle, overrides, locale, key).replace(PLACEHOLDER, (whole, name: string) =>
      params && Object.hasOwn(params, name) ? String(params[name]) : whole,
    );
  const toHtml = (key: keyof M & string, params?: HtmlMessageParams): SafeHtml => {
    const text = lookup(bundle, overrides, locale, key);
    let out = "";
    let last = 0;
    for (const match of text.matchAll(PLACEHOLDER)) {
      const name = match[1] ?? "";
      out += escapeHtml(text.slice(last, match.index));
      out +=
        params && Object.hasOwn(params, name)
          ? html`${params[name]}`.toString()
          : escapeHtml(match[0]);
      last = match.index + match[0].length;
    }
    return raw(out + escapeHtml(text.slice(last)));
  };
  return Object.assign(translate, { html: toHtml, locale, dir: textDirection(locale) });
}

/**
 * The translator for an `Accept-Language` header (or a locale the app chose, matched the same
 * way: `"pt"` is `pt-BR`), English when nothing fits.
 */
export function negotiateTranslator<M extends Messages>(
  bundle: MessageBundle<M>,
  wanted: string | null | undefined,
  overrides?: MessageOverrides<M>,
): Translator<M> {
  return createTranslator(
    bundle,
    negotiateLocale(wanted, availableLocales(bundle, overrides), "en"),
    overrides,
  );
}
