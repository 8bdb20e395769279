/**
 * The core's dictionary: English and its translations. Imported by the page renderers and the
 * default e-mail, so every app that shows a built-in page has these languages.
 */
import type { AuthConfig } from "../../../types.js";
import type { AuthContext } from "../../config/internal.js";
import {
  createTranslator,
  defineMessages,
  type MessageOverrides,
  type Translator,
} from "../messages.js";
import { requestTranslator } from "../request.js";
import { ar } from "./ar.js";
import { de } from "./de.js";
import { type CoreMessages, en } from "./en.js";
import { es } from "./es.js";
import { fr } from "./fr.js";
import { ja } from "./ja.js";
import { ptBR } from "./pt-BR.js";
import { zhCN } from "./zh-CN.js";

export type { CoreMessages } from "./en.js";

/** The core's texts in every language Tessera ships. */
export const coreMessages = defineMessages(en, {
  de,
  fr,
  es,
  "pt-BR": ptBR,
  ja,
  "zh-CN": zhCN,
  ar,
});

/** The translator of the core's texts for a request (the config's `locale` and `messages`). */
export function coreTranslator(
  ctx: Pick<AuthContext, "config" | "request">,
): Translator<CoreMessages> {
  return requestTranslator(ctx, coreMessages, (ctx.config.source as AuthConfig).messages);
}

/**
 * The language fields of an e-mail sent for this request (`SendVerificationRequestParams`): the
 * request's locale and the app's texts, so the default e-mail speaks as the pages do.
 */
export function emailLanguage(ctx: Pick<AuthContext, "config" | "request">): {
  locale: string;
  messages?: MessageOverrides<CoreMessages>;
} {
  const messages = (ctx.config.source as AuthConfig).messages;
  return { locale: coreTranslator(ctx).locale, ...(messages && { messages }) };
}

/** English: what renderers use when no request chose a language. */
export const englishCore: Translator<CoreMessages> = createTranslator(coreMessages, "en");
