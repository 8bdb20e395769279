/**
 * `@tessera/core/i18n`: the dictionaries and translators of the built-in pages, for pages and
 * e-mails of your own in the visitor's language. The `locale` and `messages` options need no
 * import of this entry. See docs/guides/languages.md.
 *
 * @example
 * ```ts
 * import { coreMessages, negotiateTranslator } from "@tessera/core/i18n"
 * const t = negotiateTranslator(coreMessages, request.headers.get("accept-language"))
 * t("signIn.withProvider", { provider: "GitHub" })
 * ```
 */
export { type AccountMessages, accountMessages } from "./lib/i18n/account/index.js";
export { type CoreMessages, coreMessages } from "./lib/i18n/core/index.js";
export {
  createTranslator,
  defineMessages,
  type HtmlMessageParams,
  type LocaleOption,
  type MessageBundle,
  type MessageOverrides,
  type MessageParams,
  type Messages,
  negotiateTranslator,
  type Translation,
  type Translator,
} from "./lib/i18n/messages.js";
export {
  type LanguageRange,
  negotiateLocale,
  parseAcceptLanguage,
  textDirection,
} from "./lib/i18n/negotiate.js";
