/**
 * The home page's "Two-factor authentication" card: whether the signed-in user has a factor
 * (`twoFactorApi(actionRunner(req, config)).status()`), and a link to the built-in pages that
 * set it up or manage it (`/auth/two-factor/enrol`, `/auth/two-factor`).
 */
import type { TwoFactorStatus } from "@tessera/core/two-factor";
import { html, type Markup } from "./html.js";

/**
 * The card, for the signed-in user's status (null: the status could not be read).
 *
 * @example
 * ```ts
 * renderTwoFactor(await twoFactorApi(actionRunner(req, authConfig)).status())
 * ```
 */
export function renderTwoFactor(status: TwoFactorStatus | null): Markup {
  const body = status?.enabled
    ? html`<p data-testid="two-factor-state">On: every sign-in with a password, the Demo IdP or an e-mail link asks for a code from your authenticator app. ${status.backupCodesLeft} backup codes left.</p><div class="actions"><a class="button secondary" href="/auth/two-factor">Manage</a></div>`
    : html`<p data-testid="two-factor-state">Off. Add a code from an authenticator app to every sign-in (a passkey already counts as two factors).</p><div class="actions"><a class="button primary" href="/auth/two-factor/enrol">Set up two-factor authentication</a></div>`;
  return html`<section class="card" aria-labelledby="two-factor-title" data-testid="two-factor"><div class="card-head"><h2 id="two-factor-title">Two-factor authentication</h2><p>From <code>@tessera/core/two-factor</code></p></div>${body}</section>`;
}
