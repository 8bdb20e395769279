/**
 * The core's dictionary with every translation loaded at once: `coreMessages` of
 * `@tessera/core/i18n` and the default e-mail. The built-in pages load English and the one
 * translation a request negotiates instead (translator.ts).
 */
import { shippedMessages } from "../messages.js";
import { ar } from "./ar.js";
import { de } from "./de.js";
import { en } from "./en.js";
import { es } from "./es.js";
import { fr } from "./fr.js";
import { ja } from "./ja.js";
import { ptBR } from "./pt-BR.js";
import { zhCN } from "./zh-CN.js";

export type { CoreMessages } from "./en.js";

/** The core's texts in every language Tessera ships. */
export const coreMessages = shippedMessages(en, { ar, de, es, fr, ja, ptBR, zhCN });
