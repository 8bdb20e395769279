/**
 * The account page's dictionary. Only the account page imports it, and the account page is
 * loaded on the first request for it: an app whose users never open it never loads these texts.
 */
import type { AuthConfig } from "../../../types.js";
import type { AuthContext } from "../../config/internal.js";
import { shippedMessages, type Translator } from "../messages.js";
import { requestTranslator } from "../request.js";
import { type AccountMessages, en } from "./en.js";
import { ar, de, es, fr, ja, ptBR, zhCN } from "./translations.js";

export type { AccountMessages } from "./en.js";

/** The account page's texts in every language Tessera ships. */
export const accountMessages = shippedMessages(en, { ar, de, es, fr, ja, ptBR, zhCN });

/** The translator of the account page for a request (the config's `locale` and `messages`). */
export function accountTranslator(
  ctx: Pick<AuthContext, "config" | "request">,
): Translator<AccountMessages> {
  return requestTranslator(ctx, accountMessages, (ctx.config.source as AuthConfig).messages);
}

/**
 * The text for a `notice` or `error` query value, or undefined when it names none: the raw value
 * is only ever a key, never printed (content injection through the URL).
 */
export function accountQueryText(
  t: Translator<AccountMessages>,
  kind: "notice" | "error",
  value: string | undefined,
): string | undefined {
  if (value === undefined) return undefined;
  const key = `account.${kind}.${value}`;
  // hasOwn, not `in`: `?error=constructor` must not reach Object.prototype.
  return Object.hasOwn(en, key) ? t(key as keyof AccountMessages) : undefined;
}
