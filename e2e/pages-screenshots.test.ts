/**
 * Renders the built-in pages, loads them in Chromium in light and dark mode, checks that they
 * work under their own Content-Security-Policy (forms submit, redirects are allowed, no
 * violation is reported, hostile input stays inert) and saves screenshots to
 * test-artifacts/pages/ for visual review.
 */
import { mkdir } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { InternalProvider } from "../packages/core/src/lib/config/internal.js";
import {
  type PageTheme,
  renderErrorPage,
  renderSignOutPage,
  renderVerifyRequestPage,
} from "../packages/core/src/lib/pages/index.js";
import { renderSignInPage } from "../packages/core/src/lib/pages/signin.js";
import { webauthnScriptElement } from "../packages/core/src/lib/webauthn/script.js";
import type { ResponseInternal } from "../packages/core/src/types.js";
import { type LaunchedBrowser, launchBrowser, type Page } from "./browser.js";
import { DOCUMENTED_PAGES, publishDocsImage } from "./docs-images.js";

const ARTIFACTS = join(import.meta.dirname, "..", "test-artifacts", "pages");
const CSRF = "c5rf0000111122223333444455556666777788889999aaaabbbbccccddddeeee";
const SCHEMES = ["light", "dark"] as const;

// Simple drawings, standing in for provider logos.
const svg = (body: string) =>
  `data:image/svg+xml,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24">${body}</svg>`)}`;
const LOGOS = {
  octo: svg(
    '<circle cx="12" cy="12" r="11" fill="#24292f"/><circle cx="12" cy="12" r="5" fill="#fff"/>',
  ),
  quad: svg(
    '<path d="M12 12V1a11 11 0 0 1 11 11z" fill="#ea4335"/><path d="M12 12h11a11 11 0 0 1-11 11z" fill="#fbbc05"/><path d="M12 12v11A11 11 0 0 1 1 12z" fill="#34a853"/><path d="M12 12H1A11 11 0 0 1 12 1z" fill="#4285f4"/>',
  ),
  brand: svg(
    '<rect width="24" height="24" rx="6" fill="#7c3aed"/><path d="M7 16l5-9 5 9z" fill="#fff"/>',
  ),
};

/** Minimal normalised providers, as the config resolver would produce them. */
function providers(base: string, idpOrigin: string, hostile = false): InternalProvider[] {
  const oauth = (id: string, name: string, style: { brandColor?: string; logo?: string }) =>
    ({
      id,
      name,
      type: "oauth",
      style,
      checks: ["pkce"],
      authorization: { url: new URL(`${idpOrigin}/authorize`), params: {} },
      profile: () => ({ id: "1" }),
      account: () => undefined,
      signinUrl: `${base}/signin/${id}`,
      callbackUrl: `${base}/callback/${id}`,
    }) satisfies InternalProvider;
  return [
    oauth("github", hostile ? `Git<img src=x onerror="window.__xss=1">Hub` : "GitHub", {
      brandColor: "#24292f",
    }),
    oauth("google", "Google", {
      brandColor: "#4285f4",
      logo: hostile ? "javascript:window.__xss=1" : LOGOS.quad,
    }),
    oauth("acme", "Acme ID", { brandColor: "#e11d48" }),
    {
      id: "email",
      name: "Email",
      type: "email",
      maxAge: 86400,
      sendVerificationRequest: () => {},
      signinUrl: `${base}/signin/email`,
      callbackUrl: `${base}/callback/email`,
    },
    {
      id: "credentials",
      name: "Password",
      type: "credentials",
      credentials: {
        username: { label: "Username", autocomplete: "username", required: true },
        password: {
          label: "Password",
          type: "password",
          autocomplete: "current-password",
          required: true,
        },
      },
      authorize: () => null,
      signinUrl: `${base}/signin/credentials`,
      callbackUrl: `${base}/callback/credentials`,
    },
    {
      id: "passkey",
      name: "Passkey",
      type: "webauthn",
      signinUrl: `${base}/signin/passkey`,
      callbackUrl: `${base}/callback/passkey`,
    },
  ];
}

interface Posted {
  path: string;
  body: URLSearchParams;
}

let server: Server;
let idp: Server;
let origin: string;
let idpOrigin: string;
let browser: LaunchedBrowser;
const posted: Posted[] = [];

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      data += chunk;
    });
    req.on("end", () => resolve(data));
    req.on("error", reject);
  });
}

async function listen(s: Server): Promise<string> {
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}

/** Routes GET requests to the page renderers; the theme comes from query parameters. */
function renderRoute(url: URL): ResponseInternal<string> | undefined {
  const base = new URL(`${origin}/auth`);
  const q = url.searchParams;
  const theme: PageTheme = {
    colorScheme: (q.get("scheme") as PageTheme["colorScheme"] | null) ?? "auto",
    brandColor: q.get("brand") ?? undefined,
    logo: q.has("logo") ? LOGOS.brand : undefined,
  };
  const hostile = q.has("hostile");
  const all = providers(base.href, idpOrigin, hostile);
  const only = q.get("only")?.split(",");
  const list = only ? all.filter((p) => only.includes(p.id)) : all;
  const callbackUrl = hostile ? `"><script>window.__xss=1</script>` : `${origin}/dashboard`;
  switch (url.pathname) {
    case "/auth/signin":
      return renderSignInPage({
        url: base,
        theme,
        providers: list,
        callbackUrl,
        csrfToken: CSRF,
        error: q.get("error") ?? undefined,
        email: q.get("email") ?? undefined,
        webauthnScript: webauthnScriptElement(),
      });
    case "/auth/signout":
      return renderSignOutPage({ url: base, theme, csrfToken: CSRF, callbackUrl });
    case "/auth/error":
      return renderErrorPage({
        // `untrusted`: rendered as under a Host header the config does not trust.
        url: q.has("untrusted") ? undefined : base,
        theme,
        error: q.get("error") ?? undefined,
        detail: q.get("detail") ?? undefined,
      });
    case "/auth/verify-request":
      return renderVerifyRequestPage({ url: base, theme, provider: { name: "Email" } });
    default:
      return undefined;
  }
}

beforeAll(async () => {
  await mkdir(ARTIFACTS, { recursive: true });
  // A stand-in identity provider on another origin: the OAuth POST redirects here, which
  // Chromium checks against form-action.
  idp = createServer((_req, res) => {
    res.writeHead(200, { "Content-Type": "text/html" });
    res.end("<p id=idp>identity provider</p>");
  });
  idpOrigin = await listen(idp);
  server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", origin);
    if (req.method === "POST") {
      posted.push({ path: url.pathname, body: new URLSearchParams(await readBody(req)) });
      const location = url.pathname.startsWith("/auth/signin/github")
        ? `${idpOrigin}/authorize`
        : `${origin}/done`;
      res.writeHead(302, { Location: location });
      res.end();
      return;
    }
    if (url.pathname === "/favicon.ico") {
      res.writeHead(204);
      res.end();
      return;
    }
    const page = renderRoute(url);
    if (!page) {
      // "/" stands in for the site's home page, where the error page's relative link leads.
      const known = url.pathname === "/done" || url.pathname === "/";
      res.writeHead(known ? 200 : 404, { "Content-Type": "text/html" });
      res.end("<p id=done>done</p>");
      return;
    }
    res.writeHead(page.status ?? 200, page.headers);
    res.end(page.body);
  });
  origin = await listen(server);
  browser = await launchBrowser({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
});

afterAll(async () => {
  await browser?.close();
  server?.close();
  idp?.close();
});

/** Opens a page and records CSP violations (DOM events and console reports) and alerts. */
async function open(
  path: string,
  scheme: "light" | "dark" = "light",
): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage();
  const problems: string[] = [];
  // Init scripts come from the DevTools protocol, so the page's CSP does not block them.
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  page.on("console", (message) => {
    // The error pages answer 403/500 on purpose; Chromium logs that as a failed load.
    const expectedStatus =
      message.text().startsWith("Failed to load resource") &&
      message.location().url.startsWith(`${origin}/auth/`);
    if (expectedStatus) return;
    if (message.type() === "error" || /Content Security Policy/i.test(message.text())) {
      problems.push(message.text());
    }
  });
  page.on("pageerror", (error) => problems.push(String(error)));
  page.on("dialog", (dialog) => {
    problems.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  await page.emulateMedia({ colorScheme: scheme });
  const response = await page.goto(`${origin}${path}`);
  expect(response).not.toBeNull();
  return { page, problems };
}

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
  // The pictures of docs/guides/custom-pages.md (with TESSERA_DOCS_IMAGES=1 only).
  if (DOCUMENTED_PAGES.has(name))
    await publishDocsImage(join(ARTIFACTS, `${name}.png`), `images/${name}.png`);
}

describe("built-in pages in Chromium", () => {
  for (const scheme of SCHEMES) {
    it(`sign-in page renders one form per provider (${scheme})`, async () => {
      const { page, problems } = await open("/auth/signin", scheme);
      const forms = page.locator("main form[data-provider-id]");
      expect(await forms.count()).toBe(6);
      expect(await page.locator(`input[name="csrfToken"][value="${CSRF}"]`).count()).toBe(6);
      // The inline WebAuthn helper ran: the CSP hash allows it.
      await expect
        .poll(() =>
          page.evaluate(() =>
            document.querySelector("#webauthn-passkey")?.hasAttribute("data-webauthn-ready"),
          ),
        )
        .toBe(true);
      // The scheme is applied: the page background differs between light and dark.
      const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      expect(bg).toBe(scheme === "dark" ? "rgb(9, 9, 11)" : "rgb(245, 245, 246)");
      await shoot(page, `signin-${scheme}`);
      expect(problems).toEqual([]);
      await page.close();
    });

    it(`sign-in page shows the CredentialsSignin banner (${scheme})`, async () => {
      const { page, problems } = await open(
        "/auth/signin?error=CredentialsSignin&only=credentials",
        scheme,
      );
      await expect
        .poll(() => page.getByRole("alert").textContent())
        .toContain("Sign in failed. Check the details you provided are correct.");
      await shoot(page, `signin-error-${scheme}`);
      expect(problems).toEqual([]);
      await page.close();
    });

    it(`themed sign-in page uses the brand colour and logo (${scheme})`, async () => {
      const { page, problems } = await open(
        "/auth/signin?brand=%237c3aed&logo=1&only=google,github,email",
        scheme,
      );
      const button = page.locator("button.primary").first();
      expect(await button.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(
        "rgb(124, 58, 237)",
      );
      expect(
        await page.locator("img.logo").evaluate((el: HTMLImageElement) => el.naturalWidth),
      ).toBeGreaterThan(0);
      await shoot(page, `signin-themed-${scheme}`);
      // Keyboard focus shows a ring in the brand colour (color-mix of #7c3aed, in sRGB 0..1).
      const shadowBefore = await button.evaluate((el) => getComputedStyle(el).boxShadow);
      await page.focus("#email-email");
      await page.keyboard.press("Tab");
      expect(await button.evaluate((el) => el === document.activeElement)).toBe(true);
      const ring = await button.evaluate((el) => getComputedStyle(el).boxShadow);
      expect(ring).not.toBe(shadowBefore);
      expect(ring).toMatch(/color\(srgb 0\.486\d* 0\.227\d* 0\.929\d* \/ 0\.6\) 0px 0px 0px 4px/);
      await page.locator("button.provider").first().hover();
      await shoot(page, `signin-themed-focus-${scheme}`);
      expect(problems).toEqual([]);
      await page.close();
    });

    for (const [name, path] of [
      ["signout", "/auth/signout"],
      ["error-configuration", "/auth/error?error=Configuration"],
      ["error-verification", "/auth/error?error=Verification"],
      ["error-unknown", "/auth/error?error=%3Cscript%3Ewindow.__xss%3D1%3C%2Fscript%3E"],
      [
        "error-debug-detail",
        `/auth/error?error=Configuration&detail=${encodeURIComponent("MissingSecret: set AUTH_SECRET (openssl rand -base64 33) <b>not bold</b>")}`,
      ],
      ["verify-request", "/auth/verify-request"],
    ] as const) {
      it(`${name} page (${scheme})`, async () => {
        const { page, problems } = await open(path, scheme);
        expect(await page.locator("h1").count()).toBe(1);
        expect(await page.evaluate(() => "__xss" in window)).toBe(false);
        await shoot(page, `${name}-${scheme}`);
        expect(problems).toEqual([]);
        await page.close();
      });
    }
  }

  it("styles apply under a nonce-only style-src, and an injected <style> is refused", async () => {
    const csp = (await fetch(`${origin}/auth/signin`)).headers.get("content-security-policy");
    expect(csp).toMatch(/style-src 'nonce-[\w-]+';/);
    expect(csp).not.toContain("unsafe-inline");
    const { page, problems } = await open("/auth/signin?only=github,acme");
    // Provider brand colours come from stylesheet rules, not style attributes.
    const marks = await page
      .locator(".monogram")
      .evaluateAll((els) => els.map((el) => getComputedStyle(el).backgroundColor));
    expect(marks).toEqual(["rgb(36, 41, 47)", "rgb(225, 29, 72)"]);
    expect(problems).toEqual([]);
    // CSS injection: a <style> without the nonce does not apply and is reported.
    const before = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await page.evaluate(() => {
      const style = document.createElement("style");
      style.textContent = "body { background: rgb(1, 2, 3) !important; }";
      document.head.append(style);
    });
    await expect
      .poll(() => problems.some((p) => p.includes("CSP violation: style-src")))
      .toBe(true);
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(before);
    await page.close();
  });

  it("the error page under an untrusted host links only relatively, back to the real origin", async () => {
    const { page, problems } = await open("/auth/error?error=Configuration&untrusted=1");
    expect(
      await page.locator("a").evaluateAll((els) => els.map((el) => el.getAttribute("href"))),
    ).toEqual(["/"]);
    await Promise.all([
      page.waitForURL(`${origin}/`),
      page.getByText("Go to the home page").click(),
    ]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("forced colour schemes ignore the system preference", async () => {
    const { page } = await open("/auth/signin?scheme=dark&only=email", "light");
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(
      "rgb(9, 9, 11)",
    );
    await page.close();
  });

  it("renders well on a phone", async () => {
    const { page, problems } = await open("/auth/signin");
    await page.setViewportSize({ width: 375, height: 812 });
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth > document.documentElement.clientWidth,
    );
    expect(overflow).toBe(false);
    await shoot(page, "signin-mobile-light");
    await page.emulateMedia({ colorScheme: "dark" });
    await shoot(page, "signin-mobile-dark");
    expect(problems).toEqual([]);
    await page.close();
  });

  it("hostile provider names, logos and callback URLs stay inert", async () => {
    const { page, problems } = await open("/auth/signin?hostile=1&error=%3Cb%3Ex");
    expect(await page.evaluate(() => "__xss" in window)).toBe(false);
    expect(await page.locator("main script").count()).toBe(0);
    expect(
      await page.getByText('Sign in with Git<img src=x onerror="window.__xss=1">Hub').count(),
    ).toBe(1);
    const callbackValues = await page
      .locator('input[name="callbackUrl"]')
      .evaluateAll((els) => els.map((el) => (el as HTMLInputElement).value));
    expect(new Set(callbackValues)).toEqual(new Set([`"><script>window.__xss=1</script>`]));
    expect(await page.locator('img[src^="javascript:"]').count()).toBe(0);
    await shoot(page, "signin-hostile-light");
    expect(problems).toEqual([]);
    await page.close();
  });

  it("forms submit under the page's CSP, including the redirect to the identity provider", async () => {
    // Credentials: a same-origin POST carrying the CSRF token and the callback URL.
    let { page, problems } = await open("/auth/signin");
    await page.fill("#credentials-username", "ada");
    await page.fill("#credentials-password", "secret");
    await Promise.all([
      page.waitForURL(`${origin}/done`),
      page.getByText("Sign in with Password").click(),
    ]);
    const credentials = posted.find((p) => p.path === "/auth/callback/credentials");
    expect(credentials?.body.get("csrfToken")).toBe(CSRF);
    expect(credentials?.body.get("callbackUrl")).toBe(`${origin}/dashboard`);
    expect(credentials?.body.get("username")).toBe("ada");
    expect(problems).toEqual([]);
    await page.close();

    // OAuth: the POST is redirected to another origin, which form-action must allow.
    ({ page, problems } = await open("/auth/signin"));
    await Promise.all([
      page.waitForURL(`${idpOrigin}/authorize`),
      page.getByText("Sign in with GitHub").click(),
    ]);
    expect(await page.locator("#idp").count()).toBe(1);
    expect(posted.find((p) => p.path === "/auth/signin/github")?.body.get("csrfToken")).toBe(CSRF);
    expect(problems).toEqual([]);
    await page.close();

    // Sign-out.
    ({ page, problems } = await open("/auth/signout"));
    await Promise.all([
      page.waitForURL(`${origin}/done`),
      page.getByRole("button", { name: "Sign out" }).click(),
    ]);
    expect(posted.find((p) => p.path === "/auth/signout")?.body.get("csrfToken")).toBe(CSRF);
    expect(problems).toEqual([]);
    await page.close();
  });
});
