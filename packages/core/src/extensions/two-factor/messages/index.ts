/**
 * The two-factor extension's dictionary, registered beside the core's: an app without
 * `twoFactor()` never loads these texts.
 */
import { shippedMessages } from "../../../lib/i18n/messages.js";
import { en } from "./en.js";
import { ar, de, es, fr, ja, ptBR, zhCN } from "./translations.js";

export type { TwoFactorMessages } from "./en.js";

/** The two-factor pages' texts in every language Tessera ships. */
export const twoFactorMessages = shippedMessages(en, { ar, de, es, fr, ja, ptBR, zhCN });
