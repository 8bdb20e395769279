/**
 * A Chromium page with a CDP virtual authenticator (a CTAP2 platform authenticator with resident
 * keys and user verification, presence simulated), for the passkey tests in the browser.
 */
import type { CDPSession } from "playwright-core";
import type { LaunchedBrowser, Page } from "./browser.js";

/** A page with its authenticator, and the console errors and CSP violations it recorded. */
export interface AuthenticatorPage {
  page: Page;
  cdp: CDPSession;
  authenticatorId: string;
  problems: string[];
}

/**
 * Opens a page in `browser` with a virtual authenticator attached.
 *
 * @example
 * ```ts
 * const { page, cdp, authenticatorId } = await pageWithAuthenticator(browser)
 * await page.goto(`${origin}/auth/signin`)
 * ```
 */
export async function pageWithAuthenticator(browser: LaunchedBrowser): Promise<AuthenticatorPage> {
  const page = await browser.newPage();
  const problems: string[] = [];
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  page.on("console", (message) => {
    // Refused options requests answer 400 on purpose; Chromium logs that as a failed load.
    const refusedOptions =
      message.text().startsWith("Failed to load resource") &&
      message.location().url.includes("/auth/webauthn-options/");
    if (message.type() === "error" && !refusedOptions) problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(String(error)));
  const cdp = await browser.context.newCDPSession(page);
  await cdp.send("WebAuthn.enable", { enableUI: false });
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { page, cdp, authenticatorId, problems };
}
