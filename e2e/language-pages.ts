/**
 * The built-in pages that e2e/languages-screenshots.test.ts photographs in every layout (desktop
 * and phone, light and dark, left-to-right and right-to-left). A page joins the list with one
 * entry: its name (the screenshots' file names) and how to render it for an `Accept-Language`
 * value, either through the real `Auth()` handler or by calling its renderer with a translator.
 *
 * @example
 * ```ts
 * { name: "signin", render: (acceptLanguage, origin) => handle(config, "/auth/signin", acceptLanguage, origin) }
 * ```
 */

import { organizationMessages } from "../packages/core/src/extensions/organizations/messages/index.js";
import { invitationPage } from "../packages/core/src/extensions/organizations/pages.js";
import { password } from "../packages/core/src/extensions/password/index.js";
import { twoFactorMessages } from "../packages/core/src/extensions/two-factor/messages/index.js";
import {
  backupCodesPage,
  challengePage,
  enrolPage,
  managePage,
} from "../packages/core/src/extensions/two-factor/pages.js";
import { accountMessages, coreMessages, negotiateTranslator } from "../packages/core/src/i18n.js";
import { Auth, type AuthConfig } from "../packages/core/src/index.js";
import type { AccountOverview } from "../packages/core/src/lib/account/types.js";
import { renderAccountPage } from "../packages/core/src/lib/pages/account.js";
import { verifyRequestPage } from "../packages/core/src/lib/pages/other-pages.js";
import type { PageTheme } from "../packages/core/src/lib/pages/types.js";
import Credentials from "../packages/core/src/providers/credentials.js";
import Email from "../packages/core/src/providers/email.js";
import GitHub from "../packages/core/src/providers/github.js";
import Passkey from "../packages/core/src/providers/passkey.js";
import type { ResponseInternal } from "../packages/core/src/types.js";
import { MemoryAdapter } from "../packages/memory/src/index.js";

/** One page of the list. */
export interface LanguagePage {
  /** File-name part of its screenshots (`signin` → `signin-ar-mobile-dark.png`). */
  name: string;
  /** The page for a request with this `Accept-Language`, as the server would answer it. */
  render(acceptLanguage: string, origin: string): Promise<Response> | Response;
}

const SECRET = "language-screenshots-secret-at-least-32-characters";
const CSRF = "c5rf0000111122223333444455556666777788889999aaaabbbbccccddddeeee";
const theme: PageTheme = { colorScheme: "auto" };

/** A page renderer's answer as the `Response` a server sends. */
function toResponse(page: ResponseInternal<string>): Response {
  return new Response(page.body, { status: page.status ?? 200, headers: page.headers });
}

/** A configuration with every kind of sign-in method the sign-in page shows. */
function signInConfig(): AuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    adapter: MemoryAdapter(),
    experimental: { enableWebAuthn: true },
    providers: [
      GitHub({ clientId: "id", clientSecret: "secret" }),
      Email({ sendVerificationRequest: () => {} }),
      Credentials({
        credentials: {
          email: { label: "Email", type: "email" },
          password: { label: "Password", type: "password" },
        },
        authorize: () => null,
      }),
      Passkey({}),
    ],
  };
}

/** A GET through the real handler, with the browser's `Accept-Language`. */
async function handle(config: AuthConfig, path: string, acceptLanguage: string, origin: string) {
  return Auth(
    new Request(`${origin}${path}`, { headers: { "accept-language": acceptLanguage } }),
    config,
  );
}

/** The two-factor pages' context for a request: the translator chosen by its header. */
function twoFactorContext(acceptLanguage: string, origin: string) {
  return {
    url: new URL(`${origin}/auth`),
    theme,
    csrfToken: CSRF,
    t: negotiateTranslator(twoFactorMessages, acceptLanguage),
  };
}

/** A QR-code-sized drawing standing in for the enrolment's code (the page inserts it as is). */
const QR_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 29 29"><rect width="29" height="29" fill="#fff"/><path d="M2 2h7v7H2zM20 2h7v7h-7zM2 20h7v7H2zM12 12h5v5h-5z" fill="#000"/></svg>';

const config = signInConfig();

/** The sign-in configuration with password accounts (their change-e-mail page). */
const passwordConfig: AuthConfig = {
  ...signInConfig(),
  experimental: { extensions: [password({ breachedPasswords: false })] },
};

/**
 * The account page of a signed-in user with every section the configuration can enable (and the
 * longest texts: an unverified address, a last sign-in method, an unnamed passkey), rendered
 * from its overview as the two-factor pages are from theirs: a session is the action's concern,
 * tested in packages/core/test/account.test.ts and e2e/account.test.ts.
 */
function accountOverview(origin: string): AccountOverview {
  const day = "2026-11-20T09:30:00.000Z";
  return {
    profile: {
      id: "u1",
      name: "Ada Lovelace",
      email: "ada.lovelace@analytical-engine.example",
      emailVerified: false,
      image: null,
    },
    sessions: [
      {
        id: "s1",
        current: true,
        expires: day,
        createdAt: day,
        lastSeenAt: day,
        ip: "203.0.113.7",
        userAgent: null,
        device: "Chrome on macOS",
      },
      {
        id: "s2",
        current: false,
        expires: day,
        createdAt: day,
        lastSeenAt: null,
        ip: "2001:db8::1",
        userAgent: null,
        device: "Safari on iPhone",
      },
    ],
    linkedAccounts: [
      {
        provider: "github",
        providerName: "GitHub",
        providerAccountId: "1",
        type: "oauth",
        canUnlink: false,
      },
    ],
    linkableProviders: [
      { id: "google", name: "Google", signinUrl: `${origin}/auth/signin/google` },
    ],
    passkeys: {
      passkeys: [
        {
          id: "cred-1",
          name: "MacBook Pro",
          createdAt: day,
          lastUsedAt: day,
          deviceType: "multiDevice",
          backedUp: true,
          transports: ["internal"],
        },
        {
          id: "cred-2",
          name: null,
          createdAt: day,
          lastUsedAt: null,
          deviceType: "singleDevice",
          backedUp: false,
          transports: ["usb"],
        },
      ],
      signals: {
        rpId: new URL(origin).hostname,
        name: "ada.lovelace@analytical-engine.example",
        displayName: "Ada Lovelace",
        userHandles: ["dTE"],
        allAcceptedCredentialIds: ["cred-1", "cred-2"],
      },
    },
    twoFactor: { enabled: true, backupCodesLeft: 8, manageUrl: `${origin}/auth/two-factor/manage` },
    password: {
      set: true,
      changeUrl: `${origin}/auth/password/change`,
      changeEmailUrl: `${origin}/auth/password/change-email`,
      deleteUrl: `${origin}/auth/password/delete`,
    },
    waysIn: 3,
  };
}

/** Every page photographed; add yours here. */
export const LANGUAGE_PAGES: readonly LanguagePage[] = [
  {
    name: "signin",
    render: (acceptLanguage, origin) => handle(config, "/auth/signin", acceptLanguage, origin),
  },
  {
    name: "signin-error",
    render: (acceptLanguage, origin) =>
      handle(config, "/auth/signin?error=CredentialsSignin", acceptLanguage, origin),
  },
  {
    name: "two-factor-challenge",
    render: (acceptLanguage, origin) =>
      toResponse(
        challengePage({
          ...twoFactorContext(acceptLanguage, origin),
          trustDays: 30,
          error: "twoFactor.error.wrongCode",
          emailCode: { sent: true, address: "a***@example.com" },
        }),
      ),
  },
  {
    name: "two-factor-enrol",
    render: (acceptLanguage, origin) =>
      toResponse(
        enrolPage({
          ...twoFactorContext(acceptLanguage, origin),
          qrSvg: QR_SVG,
          secret: "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP",
          uri: "otpauth://totp/Tessera:ada%40example.com?secret=JBSWY3DPEHPK3PXP",
        }),
      ),
  },
  {
    name: "two-factor-backup-codes",
    render: (acceptLanguage, origin) =>
      toResponse(
        backupCodesPage({
          ...twoFactorContext(acceptLanguage, origin),
          codes: ["K7P2-9XQM", "4HTR-2WZL", "Q8NB-6CVD", "M3JF-7YKS", "T5GX-1PEA", "W9LC-8RHN"],
          next: `${origin}/`,
        }),
      ),
  },
  {
    name: "two-factor-manage",
    render: (acceptLanguage, origin) =>
      toResponse(
        managePage({
          ...twoFactorContext(acceptLanguage, origin),
          enabled: true,
          backupCodesLeft: 8,
        }),
      ),
  },
  {
    name: "account",
    render: (acceptLanguage, origin) => {
      const t = negotiateTranslator(accountMessages, acceptLanguage);
      return toResponse(
        renderAccountPage({
          url: new URL(`${origin}/auth/account`),
          theme,
          t,
          csrfToken: CSRF,
          overview: accountOverview(origin),
          passkeyProvider: { id: "passkey", callbackUrl: `${origin}/auth/callback/passkey` },
          formTargets: [],
          notice: t("account.notice.name-saved"),
        }),
      );
    },
  },
  {
    name: "verify-request-code",
    render: (acceptLanguage, origin) =>
      toResponse(
        verifyRequestPage({
          url: new URL(`${origin}/auth/verify-request`),
          theme,
          provider: { id: "email", name: "Email" },
          codeForm: { csrfToken: CSRF },
          error: "CodeInvalid",
          t: negotiateTranslator(coreMessages, acceptLanguage),
        }),
      ),
  },
  {
    name: "password-change-email",
    render: (acceptLanguage, origin) =>
      handle(passwordConfig, "/auth/password/change-email", acceptLanguage, origin),
  },
  {
    name: "organizations-invitation",
    render: (acceptLanguage, origin) =>
      toResponse(
        invitationPage(
          {
            url: new URL(`${origin}/auth/organizations/join`),
            theme,
            csrfToken: CSRF,
            pageUrl: `${origin}/auth/organizations/join?invitationId=inv_1`,
            t: negotiateTranslator(organizationMessages, acceptLanguage),
          },
          {
            state: "open",
            invitationId: "inv_1",
            organization: "Acme Corporation International",
            role: "admin",
          },
        ),
      ),
  },
];
