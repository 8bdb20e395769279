/**
 * `GET /verify-request`: "check your e-mail" page shown after an e-mail sign-in starts. In the
 * browser that asked for the e-mail, it also takes the 6-digit code (lib/email/sign-in-code.ts).
 */
import type { ResponseInternal } from "../../types.js";
import type { AuthContext } from "../config/internal.js";
import { pendingSignInCode, signInCodeEnabled } from "../email/sign-in-code.js";
import { coreTranslator } from "../i18n/core/translator.js";
import { renderVerifyRequestPage } from "../pages/index.js";
import { pageUrl } from "./page-url.js";

/** Renders the verify-request page (or redirects to `pages.verifyRequest`). */
export async function verifyRequest(ctx: AuthContext): Promise<ResponseInternal> {
  const { config, request } = ctx;
  if (config.pages.verifyRequest)
    return {
      redirect: pageUrl(ctx, config.pages.verifyRequest, {
        provider: request.query.provider,
        type: request.query.type,
      }),
    };
  const provider = ctx.providers.find((p) => p.id === request.query.provider);
  const takesCode =
    provider?.type === "email" && signInCodeEnabled(provider) && (await pendingSignInCode(ctx));
  return renderVerifyRequestPage({
    url: ctx.url,
    theme: config.theme,
    ...(provider && { provider: { id: provider.id, name: provider.name } }),
    ...(takesCode && { codeForm: { csrfToken: ctx.csrfToken ?? "" } }),
    t: await coreTranslator(ctx),
  });
}
