/**
 * The organisations extension's dictionary (the invitation page), registered beside the core's:
 * an app without `organizations()` never loads these texts.
 */
import { shippedMessages } from "../../../lib/i18n/messages.js";
import { en } from "./en.js";
import { ar, de, es, fr, ja, ptBR, zhCN } from "./translations.js";

export type { OrganizationMessages } from "./en.js";

/** The invitation page's texts in every language Tessera ships. */
export const organizationMessages = shippedMessages(en, { ar, de, es, fr, ja, ptBR, zhCN });
