/**
 * The password extension's dictionary, registered beside the core's: an app without
 * `password()` never loads these texts.
 */
import { shippedMessages } from "../../../lib/i18n/messages.js";
import { en } from "./en.js";
import { ar, de, es, fr, ja, ptBR, zhCN } from "./translations.js";

export type { PasswordMessages } from "./en.js";

/** The password pages' texts in every language Tessera ships. */
export const passwordMessages = shippedMessages(en, { ar, de, es, fr, ja, ptBR, zhCN });
