/**
 * The core's texts for a request. English is the reference every translation falls back to, so
 * it is always there; each translation is a module of its own, imported by the first request that
 * negotiates its language. A built-in page thus loads English and at most one translation. The
 * bundle with every translation at once (`coreMessages`, index.ts) serves `@tessera/core/i18n`
 * and the default e-mail.
 */
import type { AuthConfig } from "../../../types.js";
import type { AuthContext } from "../../config/internal.js";
import {
  createTranslator,
  defineMessages,
  localesWith,
  type MessageBundle,
  type MessageOverrides,
  type Translation,
  type Translator,
} from "../messages.js";
import { negotiateLocale } from "../negotiate.js";
import { wantedLocales } from "../request.js";
import { type CoreMessages, en } from "./en.js";

/**
 * The translations Tessera ships, each loaded when a request first negotiates its locale. In
 * `coreMessages`' order (a test holds them equal): a bare language (`pt`) gets the first of its
 * variants, so the order is part of the negotiation.
 */
const CORE_TRANSLATIONS: Readonly<Record<string, () => Promise<Translation<CoreMessages>>>> = {
  de: async () => (await import("./de.js")).de,
  fr: async () => (await import("./fr.js")).fr,
  es: async () => (await import("./es.js")).es,
  "pt-BR": async () => (await import("./pt-BR.js")).ptBR,
  ja: async () => (await import("./ja.js")).ja,
  "zh-CN": async () => (await import("./zh-CN.js")).zhCN,
  ar: async () => (await import("./ar.js")).ar,
};

const SHIPPED_LOCALES = Object.keys(CORE_TRANSLATIONS);

/** English alone: the bundle of `en` and of the locales only the app's `messages` provide. */
const ENGLISH: MessageBundle<CoreMessages> = defineMessages(en, {});

/**
 * English with the translation of one locale, per locale loaded so far. A translator of a locale
 * reads no other locale's translation, so this bundle answers as the full one does. Only loaded
 * bundles are kept: a failed import (a deploy missing a chunk) is tried again by the next request.
 */
const loadedBundles = new Map<string, MessageBundle<CoreMessages>>();

async function bundleFor(locale: string): Promise<MessageBundle<CoreMessages>> {
  const load = Object.hasOwn(CORE_TRANSLATIONS, locale) ? CORE_TRANSLATIONS[locale] : undefined;
  if (!load) return ENGLISH;
  let bundle = loadedBundles.get(locale);
  if (!bundle) {
    bundle = defineMessages(en, { [locale]: await load() });
    loadedBundles.set(locale, bundle);
  }
  return bundle;
}

/** The app's own texts (the config's `messages`). */
function appMessages(ctx: Pick<AuthContext, "config">): MessageOverrides<CoreMessages> | undefined {
  return (ctx.config.source as AuthConfig).messages;
}

/**
 * The locale the core answers a request in: the config's `locale`, else `Accept-Language`,
 * matched against the shipped translations and the app's `messages`; English when none fits.
 * Loads no dictionary.
 *
 * @example
 * ```ts
 * coreLocale(ctx) // "pt-BR" for `Accept-Language: pt`
 * ```
 */
export function coreLocale(ctx: Pick<AuthContext, "config" | "request">): string {
  return negotiateLocale(
    wantedLocales(ctx.config, ctx.request),
    localesWith(SHIPPED_LOCALES, appMessages(ctx)),
    "en",
  );
}

/**
 * The translator of the core's texts for a request (the config's `locale` and `messages`),
 * loading the negotiated language's translation on its first use.
 *
 * @example
 * ```ts
 * const t = await coreTranslator(ctx)
 * t("signIn.title") // "Anmelden" for `Accept-Language: de`
 * ```
 */
export async function coreTranslator(
  ctx: Pick<AuthContext, "config" | "request">,
): Promise<Translator<CoreMessages>> {
  const locale = coreLocale(ctx);
  return createTranslator(await bundleFor(locale), locale, appMessages(ctx));
}

/**
 * The language fields of an e-mail sent for this request (`SendVerificationRequestParams`): the
 * request's locale and the app's texts, so the default e-mail speaks as the pages do.
 *
 * @example
 * ```ts
 * await provider.sendVerificationRequest({ identifier, url, ...emailLanguage(ctx) })
 * ```
 */
export function emailLanguage(ctx: Pick<AuthContext, "config" | "request">): {
  locale: string;
  messages?: MessageOverrides<CoreMessages>;
} {
  const messages = appMessages(ctx);
  return { locale: coreLocale(ctx), ...(messages && { messages }) };
}

/** English: what renderers use when no request chose a language. */
export const englishCore: Translator<CoreMessages> = createTranslator(ENGLISH, "en");
