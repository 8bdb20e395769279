/** `GET /error`: the error page (or a redirect to `pages.error`). */
import type { ResponseInternal } from "../../types.js";
import type { AuthContext } from "../config/internal.js";
import { coreTranslator } from "../i18n/core/translator.js";
import { renderErrorPage } from "../pages/index.js";
import { pageUrl } from "./page-url.js";

/** Renders the error page for `?error=`. */
export async function error(ctx: AuthContext): Promise<ResponseInternal> {
  const { config, request } = ctx;
  const type = request.query.error;
  if (config.pages.error) return { redirect: pageUrl(ctx, config.pages.error, { error: type }) };
  return renderErrorPage({
    url: ctx.url,
    theme: config.theme,
    ...(type !== undefined && { error: type }),
    t: await coreTranslator(ctx),
  });
}
