/** `GET /verify-request`: "check your e-mail" page shown after an e-mail sign-in starts. */
import type { ResponseInternal } from "../../types.js";
import type { AuthContext } from "../config/internal.js";
import { coreTranslator } from "../i18n/core/index.js";
import { renderVerifyRequestPage } from "../pages/index.js";
import { pageUrl } from "./page-url.js";

/** Renders the verify-request page (or redirects to `pages.verifyRequest`). */
export function verifyRequest(ctx: AuthContext): ResponseInternal {
  const { config, request } = ctx;
  if (config.pages.verifyRequest)
    return {
      redirect: pageUrl(ctx, config.pages.verifyRequest, {
        provider: request.query.provider,
        type: request.query.type,
      }),
    };
  const provider = ctx.providers.find((p) => p.id === request.query.provider);
  return renderVerifyRequestPage({
    url: ctx.url,
    theme: config.theme,
    ...(provider && { provider: { name: provider.name } }),
    t: coreTranslator(ctx),
  });
}
