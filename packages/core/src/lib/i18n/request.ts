/**
 * The locale of a request: the configuration's `locale` (a tag, or a function of the request),
 * else the request's `Accept-Language`. Each dictionary then picks its best match, so an
 * extension that ships fewer languages still answers in the nearest one it has.
 */
import type { AuthConfig } from "../../types.js";
import type { AuthContext, RequestInternal, ResolvedConfig } from "../config/internal.js";
import {
  type LocaleOption,
  type MessageBundle,
  type MessageOverrides,
  type Messages,
  negotiateTranslator,
  type Translator,
} from "./messages.js";

/** The language ranges wanted for `request`, in `Accept-Language` syntax. */
export function wantedLocales(
  config: Pick<ResolvedConfig, "source" | "logger">,
  request: Pick<RequestInternal, "request" | "headers">,
): string | null {
  const option: LocaleOption | undefined = (config.source as AuthConfig).locale;
  if (typeof option === "string") return option;
  if (typeof option === "function") {
    try {
      const chosen = option(request.request);
      if (typeof chosen === "string" && chosen !== "") return chosen;
    } catch (error) {
      // A failing locale callback costs the user their language, not the page.
      config.logger.error(error instanceof Error ? error : new Error(String(error)));
    }
  }
  return request.headers.get("accept-language");
}

/**
 * The translator of `bundle` for this request, with the app's `overrides` of it.
 *
 * @example
 * ```ts
 * const t = requestTranslator(ctx, twoFactorMessages, options.messages)
 * t("twoFactor.challenge.title")
 * ```
 */
export function requestTranslator<M extends Messages>(
  ctx: Pick<AuthContext, "config" | "request">,
  bundle: MessageBundle<M>,
  overrides?: MessageOverrides<M>,
): Translator<M> {
  return negotiateTranslator(bundle, wantedLocales(ctx.config, ctx.request), overrides);
}
