/**
 * The two-factor extension's dictionary, registered beside the core's: an app without
 * `twoFactor()` never loads these texts.
 */
import { defineMessages } from "../../../lib/i18n/messages.js";
import { en } from "./en.js";
import { ar, de, es, fr, ja, ptBR, zhCN } from "./translations.js";

export type { TwoFactorMessages } from "./en.js";

/** The two-factor pages' texts in every language Tessera ships. */
export const twoFactorMessages = defineMessages(en, {
  de,
  fr,
  es,
  "pt-BR": ptBR,
  ja,
  "zh-CN": zhCN,
  ar,
});
