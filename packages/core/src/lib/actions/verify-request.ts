/**
 * `GET /verify-request`: "check your e-mail" page shown after an e-mail sign-in starts. In the
 * browser that asked for the e-mail, it also takes the 6-digit code (lib/email/sign-in-code.ts).
 */
import type { ResponseInternal } from "../../types.js";
import type { AuthContext, InternalEmailProvider } from "../config/internal.js";
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
  const takesCode = provider?.type === "email" && (await hasPendingCode(ctx, provider));
  return renderVerifyRequestPage({
    url: ctx.url,
    theme: config.theme,
    ...(provider && { provider: { id: provider.id, name: provider.name } }),
    ...(takesCode && { codeForm: { csrfToken: ctx.csrfToken ?? "" } }),
    t: await coreTranslator(ctx),
  });
}

/**
 * Whether this browser waits for a code of the e-mail `provider`. The sign-in code's module loads
 * only for an e-mail provider's page: a `verify-request` without one shows the page alone.
 */
async function hasPendingCode(ctx: AuthContext, provider: InternalEmailProvider): Promise<boolean> {
  const { pendingSignInCode, signInCodeEnabled } = await import("../email/sign-in-code.js");
  return signInCodeEnabled(provider) && (await pendingSignInCode(ctx)) !== null;
}
