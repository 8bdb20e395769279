import { readFile } from "node:fs/promises";
import { Auth, type AuthConfig } from "@tessera/core";
import Credentials from "@tessera/core/providers/credentials";
import GitHub from "@tessera/core/providers/github";
import Passkey from "@tessera/core/providers/passkey";
import { MemoryAdapter } from "@tessera/memory";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { InternalProvider } from "../src/lib/config/internal.js";
import { attributes, escapeHtml, html, raw } from "../src/lib/pages/html.js";
import {
  type PageTheme,
  renderErrorPage,
  renderSignOutPage,
  renderVerifyRequestPage,
} from "../src/lib/pages/index.js";
import { readableTextOn, safeColor, safeImageUrl } from "../src/lib/pages/security.js";
import { renderSignInPage } from "../src/lib/pages/signin.js";
import { WEBAUTHN_SCRIPT, webauthnScriptElement } from "../src/lib/webauthn/script.js";
import { WEBAUTHN_SCRIPT_HASH } from "../src/lib/webauthn/script-hash.js";
import { Client, ORIGIN, recordingLogger, SECRET } from "./helpers.js";

const url = new URL("https://app.example.com/auth");
const base = "https://app.example.com/auth";
const csrfToken = "a".repeat(64);
const callbackUrl = "https://app.example.com/dashboard";
const theme: PageTheme = { colorScheme: "auto" };

type OAuthProvider = Extract<InternalProvider, { type: "oauth" | "oidc" }>;

function oauth(id: string, name: string, extra: Partial<OAuthProvider> = {}): OAuthProvider {
  return {
    id,
    name,
    type: "oauth",
    checks: ["pkce"],
    authorization: { url: new URL(`https://idp-${id}.example/authorize`), params: {} },
    profile: () => ({ id: "1" }),
    account: () => undefined,
    signinUrl: `${base}/signin/${id}`,
    callbackUrl: `${base}/callback/${id}`,
    ...extra,
  };
}

const email: InternalProvider = {
  id: "email",
  name: "Email",
  type: "email",
  maxAge: 86400,
  sendVerificationRequest: () => {},
  signinUrl: `${base}/signin/email`,
  callbackUrl: `${base}/callback/email`,
};

const credentials: InternalProvider = {
  id: "credentials",
  name: "Password",
  type: "credentials",
  credentials: {
    username: { label: "Username", placeholder: "ada", autocomplete: "username", required: true },
    password: { label: "Password", type: "password", value: "leak-me" },
    otp: { inputMode: "numeric", maxLength: 6, onclick: "alert(1)", style: "x", formaction: "y" },
  },
  authorize: () => null,
  signinUrl: `${base}/signin/credentials`,
  callbackUrl: `${base}/callback/credentials`,
};

const passkey: InternalProvider = {
  id: "passkey",
  name: "Passkey",
  type: "webauthn",
  signinUrl: `${base}/signin/passkey`,
  callbackUrl: `${base}/callback/passkey`,
};

const allProviders = [oauth("github", "GitHub"), email, credentials, passkey];

function signIn(overrides: Partial<Parameters<typeof renderSignInPage>[0]> = {}) {
  return renderSignInPage({
    url,
    theme,
    providers: allProviders,
    callbackUrl,
    csrfToken,
    webauthnScript: webauthnScriptElement(),
    ...overrides,
  });
}

/** The forms of a page, as raw markup (our own output is regular enough for a regex). */
function forms(body: string): string[] {
  return body.match(/<form\b[\s\S]*?<\/form>/g) ?? [];
}

/** An attribute of the first tag in `markup`, entity-decoded. */
function attr(markup: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}="([^"]*)"`).exec(markup.slice(0, markup.indexOf(">") + 1));
  return match?.[1]
    ?.replaceAll("&quot;", '"')
    .replaceAll("&#39;", "'")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&amp;", "&");
}

function hiddenValue(form: string, name: string): string | undefined {
  const input = form.match(new RegExp(`<input type="hidden" name="${name}"[^>]*>`))?.[0];
  return input ? attr(input, "value") : undefined;
}

function bodyOf(response: { body?: string }): string {
  expect(typeof response.body).toBe("string");
  return response.body ?? "";
}

describe("html tagged template", () => {
  it("escapes the five HTML-significant characters", () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;",
    );
  });

  it("escapes interpolations, keeps nested fragments and raw markup, drops null and booleans", () => {
    const name = "<script>alert(1)</script>";
    const out = html`<p title="${`" onmouseover="x`}">${name}${html`<b>${"&"}</b>`}${raw("<i>ok</i>")}${null}${undefined}${false}${true}${[html`<br>`, "<"]}${42}</p>`;
    expect(out.toString()).toBe(
      '<p title="&quot; onmouseover=&quot;x">&lt;script&gt;alert(1)&lt;/script&gt;<b>&amp;</b><i>ok</i><br>&lt;42</p>',
    );
  });

  it("writes only plain, non-event attributes", () => {
    expect(
      attributes({
        id: "a",
        onclick: "x",
        ONLOAD: "y",
        'x" y': "z",
        required: true,
        hidden: false,
        value: '"><',
      }).toString(),
    ).toBe(' id="a" required value="&quot;&gt;&lt;"');
  });

  it("never lets an interpolated string add a tag or close an attribute (property)", () => {
    // Escaping is complete iff the count of `<` and `"` in the output does not depend on the input.
    const reference = bodyOf(
      signIn({ providers: [oauth("x", "x")], callbackUrl: "x", error: "x" }),
    );
    const count = (s: string, c: string) => s.split(c).length - 1;
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.string(), (name, cb, error) => {
        const body = bodyOf(signIn({ providers: [oauth("x", name)], callbackUrl: cb, error }));
        for (const c of ["<", '"']) expect(count(body, c)).toBe(count(reference, c));
      }),
      { numRuns: 300 },
    );
  });
});

describe("error page", () => {
  it.each([
    ["Configuration", 500, "Server error"],
    ["AccessDenied", 403, "Access denied"],
    ["Verification", 403, "Unable to sign in"],
    [undefined, 200, "Something went wrong"],
    ["SomethingElse", 200, "Something went wrong"],
    ["constructor", 200, "Something went wrong"],
    ["__proto__", 200, "Something went wrong"],
    ["toString", 200, "Something went wrong"],
  ])("error=%s → %i", (error, status, title) => {
    const res = renderErrorPage({ url, theme, error });
    expect(res.status).toBe(status);
    expect(res.headers?.["Content-Type"]).toBe("text/html; charset=utf-8");
    const body = bodyOf(res);
    expect(body.startsWith("<!DOCTYPE html>")).toBe(true);
    expect(body).toContain(`<h1>${title}</h1>`);
  });

  it("never prints an unknown error value", () => {
    const error = "<img src=x onerror=alert(1)>NotARealError";
    const body = bodyOf(renderErrorPage({ url, theme, error }));
    expect(body).not.toContain("NotARealError");
    expect(body).not.toContain("<img src=x");
  });

  it("shows the debug detail only when given, escaped", () => {
    expect(bodyOf(renderErrorPage({ url, theme, error: "Configuration" }))).not.toContain(
      "<details",
    );
    const body = bodyOf(
      renderErrorPage({ url, theme, error: "Configuration", detail: "MissingSecret <b>x</b>" }),
    );
    expect(body).toContain("<details");
    expect(body).toContain("MissingSecret &lt;b&gt;x&lt;/b&gt;");
  });

  it("links back to sign-in, or to the site for configuration errors", () => {
    expect(bodyOf(renderErrorPage({ url, theme, error: "Verification" }))).toContain(
      `href="${base}/signin"`,
    );
    expect(bodyOf(renderErrorPage({ url, theme, error: "Configuration" }))).toContain(
      'href="https://app.example.com/"',
    );
  });
});

describe("sign-in page", () => {
  it("renders one form per provider, in configuration order, each with csrfToken and callbackUrl", () => {
    const res = signIn();
    expect(res.status).toBe(200);
    const list = forms(bodyOf(res));
    expect(list.map((f) => attr(f, "data-provider-id"))).toEqual([
      "github",
      "email",
      "credentials",
      "passkey",
    ]);
    for (const form of list) {
      expect(attr(form, "method")).toBe("post");
      expect(hiddenValue(form, "csrfToken")).toBe(csrfToken);
      expect(hiddenValue(form, "callbackUrl")).toBe(callbackUrl);
    }
  });

  it("OAuth: posts to signinUrl with a branded button, logo and readable monogram", () => {
    const body = bodyOf(
      signIn({
        providers: [
          oauth("github", "GitHub", {
            style: { brandColor: "#24292f", logo: "https://cdn.example/github.svg" },
          }),
          oauth("acme", "acme", { style: { brandColor: "#fde047" } }),
        ],
      }),
    );
    const [withLogo, withoutLogo] = forms(body);
    expect(attr(withLogo ?? "", "action")).toBe(`${base}/signin/github`);
    expect(withLogo).toContain("Sign in with GitHub");
    // Brand colours are stylesheet rules for the button's class: the CSP allows no style="".
    expect(withLogo).toContain('class="button provider provider-0"');
    expect(body).toContain(".provider-0 { --provider-brand: #24292f; --provider-text: #ffffff; }");
    expect(withLogo).toContain('<img class="provider-logo" src="https://cdn.example/github.svg"');
    expect(withoutLogo).toContain('class="button provider provider-1"');
    expect(withoutLogo).toContain('<span class="monogram" aria-hidden="true">A</span>');
    expect(body).toContain(".provider-1 { --provider-brand: #fde047; --provider-text: #0a0a0a; }");
    expect(body).not.toMatch(/\sstyle=/);
  });

  it("email: posts to signinUrl with a required, autocompleting, prefilled email input", () => {
    const [form] = forms(bodyOf(signIn({ providers: [email], email: "ada@example.com" })));
    expect(attr(form ?? "", "action")).toBe(`${base}/signin/email`);
    const input = form?.match(/<input id="email-email"[^>]*>/)?.[0] ?? "";
    expect(input).toContain('name="email"');
    expect(input).toContain('type="email"');
    expect(input).toContain('autocomplete="email"');
    expect(input).toContain(" required");
    expect(input).toContain('value="ada@example.com"');
    expect(form).toContain("Sign in with Email");
  });

  it("credentials: posts to the provider's callbackUrl with one input per field", () => {
    const [form = ""] = forms(bodyOf(signIn({ providers: [credentials] })));
    expect(attr(form, "action")).toBe(`${base}/callback/credentials`);
    const inputs = form.match(/<input id="[^"]*"[^>]*>/g) ?? [];
    expect(inputs).toHaveLength(3);
    const [username = "", password = "", otp = ""] = inputs;
    expect(username).toBe(
      '<input id="credentials-username" name="username" type="text" placeholder="ada" required autocomplete="username">',
    );
    expect(form).toContain('<label for="credentials-username">Username</label>');
    // A configured value is never echoed into a password field.
    expect(password).toBe(
      '<input id="credentials-password" name="password" type="password" autocomplete="current-password">',
    );
    // Allow-listed extras pass; event handlers, style and formaction do not.
    expect(otp).toBe(
      '<input id="credentials-otp" name="otp" type="text" inputmode="numeric" maxlength="6">',
    );
    expect(form).toContain('<label for="credentials-otp">otp</label>');
    expect(form).toContain("Sign in with Password");
  });

  it("webauthn: wrapper with data attributes, default field, both actions and the script hook", () => {
    const body = bodyOf(signIn({ providers: [passkey] }));
    const section = body.match(/<section[^>]*>/)?.[0] ?? "";
    expect(attr(section, "id")).toBe("webauthn-passkey");
    expect(attr(section, "data-webauthn-options-url")).toBe(`${base}/webauthn-options/passkey`);
    expect(attr(section, "data-callback-url")).toBe(`${base}/callback/passkey`);
    expect(body).toContain('autocomplete="username webauthn"');
    expect(body).toContain(
      'data-provider-id="passkey" data-action="authenticate">Sign in with passkey</button>',
    );
    expect(body).toContain(
      'data-provider-id="passkey" data-action="register">Create a passkey</button>',
    );
    expect(attr(section, "data-conditional-ui")).toBe("false");
    expect(body).toContain(webauthnScriptElement());
    expect(bodyOf(signIn({ providers: [email] }))).not.toContain("<script");
  });

  it("webauthn: uses the provider's formFields when given", () => {
    const body = bodyOf(
      signIn({
        providers: [
          { ...passkey, formFields: { handle: { label: "Handle", autocomplete: "username" } } },
        ],
      }),
    );
    expect(body).toContain(
      '<input id="passkey-handle" name="handle" type="text" autocomplete="username">',
    );
    expect(body).not.toContain('name="email"');
  });

  it("credentials: a password autocompletes as current-password and the address beside it as username", () => {
    const login: InternalProvider = {
      ...credentials,
      credentials: {
        email: { label: "Email", type: "email" },
        password: { label: "Password", type: "password" },
      },
    };
    const [form = ""] = forms(bodyOf(signIn({ providers: [login] })));
    expect(form).toContain(
      '<input id="credentials-email" name="email" type="email" autocomplete="username">',
    );
    expect(form).toContain(
      '<input id="credentials-password" name="password" type="password" autocomplete="current-password">',
    );
    // Without a password the address is just an e-mail; an explicit value always wins.
    const invite: InternalProvider = { ...credentials, credentials: { email: { type: "email" } } };
    expect(bodyOf(signIn({ providers: [invite] }))).toContain(
      '<input id="credentials-email" name="email" type="email" autocomplete="email">',
    );
    const pin: InternalProvider = {
      ...credentials,
      credentials: { pin: { type: "password", autocomplete: "one-time-code" } },
    };
    expect(bodyOf(signIn({ providers: [pin] }))).toContain(
      '<input id="credentials-pin" name="pin" type="password" autocomplete="one-time-code">',
    );
  });

  it("with several methods, titles each group and labels the built-in e-mail fields by purpose", () => {
    const body = bodyOf(signIn());
    const titles = [...body.matchAll(/<h2 class="group-title" id="([^"]+)">([^<]+)<\/h2>/g)];
    expect(titles.map((match) => match[2])).toEqual([
      "Use an account you have",
      "Email me a sign-in link",
      "Password",
      "Passkey",
    ]);
    for (const [, id] of titles) expect(body).toContain(`role="group" aria-labelledby="${id}"`);
    const labels = [...body.matchAll(/<label for="[^"]+">([^<]+)<\/label>/g)].map((m) => m[1]);
    expect(labels).toContain("Email for the sign-in link");
    expect(labels).toContain("Email for the passkey");
    expect(labels.filter((label) => label === "Email")).toEqual([]);
  });

  it("with one method, shows no group title and keeps the plain Email label", () => {
    for (const provider of [email, passkey]) {
      const body = bodyOf(signIn({ providers: [provider] }));
      expect(body).not.toContain('class="group-title"');
      expect(body).toMatch(/<label for="[^"]+">Email<\/label>/);
    }
  });

  it("tells a signed-in visitor who they are and offers to link another method", () => {
    const body = bodyOf(signIn({ signedInAs: "<b>ada@example.com</b>" }));
    const notice = body.match(/<div class="notice"[\s\S]*?<\/div>/)?.[0] ?? "";
    expect(notice).toContain("Signed in as <strong>&lt;b&gt;ada@example.com&lt;/b&gt;</strong>");
    expect(notice).toContain("link another method");
    expect(notice).toContain(`<a href="${base}/signout">sign out</a>`);
    expect(bodyOf(signIn())).not.toContain('class="notice"');
  });

  it("GET /signin names the signed-in user of a database session, and nobody once signed out", async () => {
    const client = new Client({
      secret: SECRET,
      trustHost: true,
      adapter: MemoryAdapter(),
      session: { strategy: "database" },
      logger: recordingLogger().logger,
      providers: [
        GitHub({ clientId: "id", clientSecret: "secret" }),
        Credentials({
          credentials: { email: { type: "email" }, password: { type: "password" } },
          authorize: ({ email }) => ({ id: "ada", email: String(email) }),
        }),
      ],
    });
    const csrf = await client.csrfToken();
    await client.post("/auth/callback/credentials", {
      csrfToken: csrf,
      email: "ada@example.com",
      password: "x",
    });
    const signedIn = await (await client.get("/auth/signin")).text();
    expect(signedIn).toContain("Signed in as <strong>ada@example.com</strong>");
    await client.post("/auth/signout", { csrfToken: await client.csrfToken() });
    expect(await (await client.get("/auth/signin")).text()).not.toContain("Signed in as");
  });

  it("GET /signin carries the passkey helper and its Signal API hook only where they apply", async () => {
    const page = async (config: Partial<AuthConfig>) =>
      (
        await new Client({
          secret: SECRET,
          trustHost: true,
          logger: recordingLogger().logger,
          providers: [],
          ...config,
        }).get("/auth/signin")
      ).text();
    const withPasskeys = await page({
      adapter: MemoryAdapter(),
      providers: [Passkey()],
      experimental: { enableWebAuthn: true },
    });
    expect(withPasskeys).toContain(webauthnScriptElement());
    expect(withPasskeys.match(/<section[^>]*>/)?.[0]).toContain(
      `data-passkeys-url="${ORIGIN}/auth/passkeys"`,
    );
    const { listPasskeysByUserId: _l, ...cannotManage } = MemoryAdapter();
    const unmanaged = await page({
      adapter: cannotManage,
      providers: [Passkey()],
      experimental: { enableWebAuthn: true },
    });
    expect(unmanaged).toContain(webauthnScriptElement());
    expect(unmanaged.match(/<section[^>]*>/)?.[0]).not.toContain("data-passkeys-url");
    const credentialsOnly = await page({
      adapter: MemoryAdapter(),
      providers: [Credentials({ credentials: { password: { type: "password" } } })],
    });
    expect(credentialsOnly).toContain('autocomplete="current-password"');
    expect(credentialsOnly).not.toContain("<script");
  });

  it("separates provider groups with 'or', keeping consecutive OAuth buttons together", () => {
    const body = bodyOf(
      signIn({
        providers: [oauth("a", "A"), oauth("b", "B"), email, oauth("c", "C"), credentials],
      }),
    );
    expect(body.match(/class="divider"/g)).toHaveLength(3);
    expect(body.match(/class="group"/g)).toHaveLength(4);
  });

  it.each([
    "Signin",
    "OAuthSignin",
    "OAuthSignInError",
    "OAuthCallbackError",
    "OAuthCreateAccount",
    "EmailCreateAccount",
    "Callback",
    "OAuthAccountNotLinked",
    "EmailSignin",
    "EmailSignInError",
    "CredentialsSignin",
    "SessionRequired",
    "MissingCSRF",
    "Verification",
    "AccountNotLinked",
    "WebAuthnVerificationError",
  ])("shows a specific banner for error=%s", (error) => {
    const body = bodyOf(signIn({ error }));
    const banner = body.match(/<div class="alert" role="alert">[\s\S]*?<\/div>/)?.[0];
    expect(banner).toBeDefined();
    expect(banner).not.toContain("Unable to sign in. Please try again.");
  });

  it("words CredentialsSignin without hinting which field was wrong", () => {
    const body = bodyOf(signIn({ error: "CredentialsSignin" }));
    expect(body).toContain("Sign in failed. Check the details you provided are correct.");
    expect(body).not.toMatch(/password (is|was) (wrong|incorrect)|user not found|no account/i);
  });

  it("shows a generic banner for unknown errors, never the value, and none without error", () => {
    const body = bodyOf(signIn({ error: "<svg onload=alert(1)>" }));
    expect(body).toContain("Unable to sign in. Please try again.");
    expect(body).not.toContain("onload");
    expect(bodyOf(signIn({ error: "hasOwnProperty" }))).toContain("Unable to sign in.");
    expect(bodyOf(signIn())).not.toContain('role="alert"');
  });

  it("escapes hostile provider names, callback URLs, emails and ids", () => {
    const hostile = `"><script>alert(1)</script>`;
    const body = bodyOf(
      signIn({
        providers: [oauth("gh", hostile), { ...credentials, name: hostile }],
        callbackUrl: hostile,
        email: hostile,
        csrfToken: hostile,
      }),
    );
    expect(body).not.toContain("<script>alert(1)");
    expect(body).toContain("Sign in with &quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(body).toContain(
      'name="callbackUrl" value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"',
    );
  });

  it("drops javascript: and other non-image logo URLs", () => {
    const body = bodyOf(
      signIn({
        theme: { logo: "javascript:alert(1)" },
        providers: [
          oauth("a", "A", { style: { logo: "javascript:alert(1)" } }),
          oauth("b", "B", { style: { logo: " JaVaScRiPt:alert(1)" } }),
          oauth("c", "C", { style: { logo: "data:text/html,<script>alert(1)</script>" } }),
        ],
      }),
    );
    expect(body.toLowerCase()).not.toContain("javascript:");
    expect(body).not.toContain("data:text/html");
    expect(body).not.toContain("<img");
  });

  it("drops brand colours that would inject CSS", () => {
    const body = bodyOf(
      signIn({
        theme: { brandColor: "red;}</style><script>alert(1)</script>" },
        providers: [oauth("a", "A", { style: { brandColor: "#fff; background: url(//evil)" } })],
      }),
    );
    expect(body).not.toContain("alert(1)");
    expect(body).not.toContain("evil");
    expect(body).toContain("--brand: var(--default-brand)");
  });
});

describe("theme", () => {
  it("auto follows prefers-color-scheme; light and dark are forced", () => {
    const auto = bodyOf(renderVerifyRequestPage({ url, theme: { colorScheme: "auto" } }));
    expect(auto).toContain("@media (prefers-color-scheme: dark)");
    expect(auto).toContain('<meta name="color-scheme" content="light dark">');
    const dark = bodyOf(renderVerifyRequestPage({ url, theme: { colorScheme: "dark" } }));
    expect(dark).not.toContain("prefers-color-scheme");
    expect(dark).toContain("color-scheme: dark;");
    expect(dark).not.toContain("color-scheme: light;");
    const light = bodyOf(renderVerifyRequestPage({ url, theme: { colorScheme: "light" } }));
    expect(light).not.toContain("prefers-color-scheme");
    expect(light).not.toContain("color-scheme: dark;");
  });

  it("applies brandColor, buttonText and logo", () => {
    const body = bodyOf(
      renderSignOutPage({
        url,
        theme: { brandColor: "#7c3aed", buttonText: "#fefefe", logo: "/logo.png" },
        csrfToken,
        callbackUrl,
      }),
    );
    expect(body).toContain("--brand: #7c3aed; --brand-text: #fefefe;");
    expect(body).toContain('<img class="logo" src="https://app.example.com/logo.png"');
    // Without buttonText the text colour is derived from the brand colour.
    expect(
      bodyOf(renderSignOutPage({ url, theme: { brandColor: "#fde047" }, csrfToken, callbackUrl })),
    ).toContain("--brand-text: #0a0a0a;");
  });

  it("validates colours and image URLs", () => {
    expect(safeColor("#abc")).toBe("#abc");
    expect(safeColor("rgb(1 2 3 / 50%)")).toBe("rgb(1 2 3 / 50%)");
    expect(safeColor("oklch(0.7 0.1 200)")).toBe("oklch(0.7 0.1 200)");
    expect(safeColor("rebeccapurple")).toBe("rebeccapurple");
    expect(safeColor("url(x)")).toBeUndefined();
    expect(safeColor("red;color:blue")).toBeUndefined();
    expect(safeColor("rgb(1,2,3));x{")).toBeUndefined();
    expect(readableTextOn("#000")).toBe("#ffffff");
    expect(readableTextOn("#ffffff")).toBe("#0a0a0a");
    expect(safeImageUrl("data:image/png;base64,AAAA", url)).toBe("data:image/png;base64,AAAA");
    expect(safeImageUrl("vbscript:x", url)).toBeUndefined();
    expect(safeImageUrl("//cdn.example/x.png", url)).toBe("https://cdn.example/x.png");
  });
});

describe("sign-out and verify-request pages", () => {
  it("sign-out posts to /signout with csrfToken and callbackUrl", () => {
    const res = renderSignOutPage({ url, theme, csrfToken, callbackUrl });
    expect(res.status).toBe(200);
    const [form = ""] = forms(bodyOf(res));
    expect(attr(form, "action")).toBe(`${base}/signout`);
    expect(hiddenValue(form, "csrfToken")).toBe(csrfToken);
    expect(hiddenValue(form, "callbackUrl")).toBe(callbackUrl);
    expect(form).toContain(`<a class="button secondary" href="${callbackUrl}">Cancel</a>`);
  });

  it("sign-out never turns a javascript: callbackUrl into a link", () => {
    const body = bodyOf(
      renderSignOutPage({ url, theme, csrfToken, callbackUrl: "javascript:alert(1)" }),
    );
    expect(body).toContain('href="https://app.example.com/">Cancel');
    expect(body).not.toContain('href="javascript:');
  });

  it("sign-out lets the browser follow a federated logout to the OpenID Provider (Chromium applies form-action to the redirect), and stays on the origin without one", () => {
    const csp = (res: ReturnType<typeof renderSignOutPage>) =>
      res.headers?.["Content-Security-Policy"] ?? "";
    const federated = renderSignOutPage({
      url,
      theme,
      csrfToken,
      callbackUrl,
      logoutIssuers: ["http://127.0.0.1:3101", "not a url"],
    });
    expect(csp(federated)).toContain(
      "form-action 'self' https://app.example.com https: http://127.0.0.1:3101;",
    );
    expect(csp(renderSignOutPage({ url, theme, csrfToken, callbackUrl }))).toContain(
      "form-action 'self' https://app.example.com;",
    );
  });

  it("verify-request renders a 200 page linking back to the site", () => {
    const res = renderVerifyRequestPage({ url, theme, provider: { name: "Email" } });
    expect(res.status).toBe(200);
    expect(bodyOf(res)).toContain("<h1>Check your email</h1>");
    expect(bodyOf(res)).toContain(`href="${base}/signin"`);
  });
});

describe("security headers", () => {
  const pages = {
    signin: signIn(),
    signout: renderSignOutPage({ url, theme, csrfToken, callbackUrl }),
    error: renderErrorPage({ url, theme, error: "Configuration" }),
    verify: renderVerifyRequestPage({ url, theme }),
  };

  it.each(Object.entries(pages))("%s carries CSP, anti-framing and no-store headers", (_, res) => {
    const headers = res.headers ?? {};
    const csp = headers["Content-Security-Policy"] ?? "";
    for (const directive of [
      "default-src 'none'",
      `script-src '${WEBAUTHN_SCRIPT_HASH}'`,
      "frame-ancestors 'none'",
      "base-uri 'none'",
    ]) {
      expect(csp).toContain(directive);
    }
    expect(csp).toMatch(/form-action 'self' https:\/\/app\.example\.com/);
    expect(headers["X-Frame-Options"]).toBe("DENY");
    expect(headers["X-Content-Type-Options"]).toBe("nosniff");
    expect(headers["Cache-Control"]).toContain("no-store");
    expect(headers["Content-Type"]).toBe("text/html; charset=utf-8");
    // The <meta> copy omits frame-ancestors, which browsers ignore there.
    const meta = bodyOf(res).match(/<meta http-equiv="Content-Security-Policy" content="([^"]*)">/);
    expect(meta?.[1]).toContain("default-src &#39;none&#39;");
    expect(meta?.[1]).not.toContain("frame-ancestors");
    // No script but the hash-allowed WebAuthn helper, and no inline event handlers anywhere.
    const rest = bodyOf(res).replace(webauthnScriptElement(), "");
    expect(rest).not.toMatch(/<script/i);
    expect(rest).not.toMatch(/\son[a-z]+=/i);
  });

  it("lets OAuth pages redirect to identity providers, and keeps others on the origin", () => {
    const withOAuth = signIn().headers?.["Content-Security-Policy"] ?? "";
    expect(withOAuth).toContain(
      "form-action 'self' https://app.example.com https: https://idp-github.example;",
    );
    const without = signIn({ providers: [email, credentials] }).headers?.[
      "Content-Security-Policy"
    ];
    expect(without).toContain("form-action 'self' https://app.example.com;");
    const crossSite = signIn({
      providers: [credentials],
      callbackUrl: "https://other.example.com/after",
    }).headers?.["Content-Security-Policy"];
    // An unparseable callback URL adds nothing (and does not throw).
    expect(signIn({ callbackUrl: "http://[" }).headers?.["Content-Security-Policy"]).toContain(
      "form-action 'self' https://app.example.com https: https://idp-github.example;",
    );
    expect(crossSite).toContain(
      "form-action 'self' https://app.example.com https://other.example.com;",
    );
  });

  /** The sources of one directive of a policy. */
  function directive(csp: string, name: string): string[] {
    const entry = csp
      .split(";")
      .map((part) => part.trim().split(/\s+/))
      .find(([key]) => key === name);
    return entry?.slice(1) ?? [];
  }

  const branded = signIn({
    theme: { brandColor: "#7c3aed", logo: "data:image/svg+xml,<svg/>" },
    providers: [
      oauth("github", "GitHub", {
        style: { brandColor: "#24292f", logo: "https://cdn.example/github.svg" },
      }),
      oauth("acme", "Acme", { style: { brandColor: "#fde047" } }),
      credentials,
    ],
  });

  it.each(Object.entries({ ...pages, branded }))(
    "CSS injection: %s allows its own <style> by nonce, no 'unsafe-inline', no style attribute",
    (_, res) => {
      const csp = res.headers?.["Content-Security-Policy"] ?? "";
      const styleSrc = directive(csp, "style-src");
      expect(styleSrc).toHaveLength(1);
      expect(styleSrc[0]).toMatch(/^'nonce-[A-Za-z0-9_-]{22}'$/);
      expect(csp).not.toContain("unsafe-inline");
      expect(csp).not.toContain("unsafe-hashes");
      const body = bodyOf(res);
      const styles = [...body.matchAll(/<style\b([^>]*)>/g)].map((m) => m[1]);
      expect(styles.length).toBeGreaterThan(0);
      for (const attributes of styles) {
        expect(`'nonce-${attr(`<style${attributes}>`, "nonce")}'`).toBe(styleSrc[0]);
      }
      expect(body).not.toMatch(/\sstyle=/);
      // The <meta> copy carries the same nonce.
      expect(body).toContain(`style-src ${escapeHtml(styleSrc[0] ?? "")}`);
    },
  );

  it("CSS injection: every response gets a fresh style nonce", () => {
    const nonce = () =>
      directive(signIn().headers?.["Content-Security-Policy"] ?? "", "style-src")[0];
    expect(nonce()).not.toBe(nonce());
  });

  it("image exfiltration: img-src lists only the sources of the images the page shows", () => {
    const csp = branded.headers?.["Content-Security-Policy"] ?? "";
    expect(directive(csp, "img-src").sort()).toEqual(["data:", "https://cdn.example"]);
    for (const res of Object.values(pages)) {
      expect(directive(res.headers?.["Content-Security-Policy"] ?? "", "img-src")).toEqual([
        "'none'",
      ]);
    }
    const relativeLogo = renderVerifyRequestPage({ url, theme: { logo: "/logo.png" } });
    expect(directive(relativeLogo.headers?.["Content-Security-Policy"] ?? "", "img-src")).toEqual([
      "https://app.example.com",
    ]);
  });

  it("a passkey form comes with the inline helper the CSP hash allows, and never without it", () => {
    const body = bodyOf(signIn({ providers: [passkey] }));
    expect(body).toContain(`<script>${WEBAUTHN_SCRIPT}</script>`);
    expect(body).not.toContain(" src=");
    expect(() =>
      renderSignInPage({ url, theme, providers: [passkey], callbackUrl, csrfToken }),
    ).toThrow(/webauthnScript/);
  });
});

describe("pages under an untrusted host", () => {
  // The Host header is attacker-chosen when the host is not trusted (host header injection):
  // nothing on the page, in its headers or in a redirect may name or target it.
  const evil = "http://evil.com";
  const untrusted = (extra: Partial<AuthConfig> = {}): AuthConfig => ({
    secret: SECRET,
    trustHost: false,
    providers: [],
    logger: recordingLogger().logger,
    ...extra,
  });

  function expectNoEvilHost(response: Response, body: string): void {
    expect(body).not.toContain("evil.com");
    expect(response.headers.get("location")).toBeNull();
    for (const [name, value] of response.headers) {
      expect(`${name}: ${value}`).not.toContain("evil.com");
    }
  }

  it.each(["error", "signin", "signout", "verify-request"])(
    "host header injection: GET /auth/%s answers the error page that names and links no host",
    async (action) => {
      const response = await Auth(new Request(`${evil}/auth/${action}`), untrusted());
      expect(response.status).toBe(500);
      const body = await response.text();
      expectNoEvilHost(response, body);
      expect(body).toContain("<h1>Server error</h1>");
      // The only link is relative, so it stays on the host the browser really talks to.
      expect([...body.matchAll(/href="([^"]*)"/g)].map((m) => m[1])).toEqual(["/"]);
      const csp = response.headers.get("content-security-policy") ?? "";
      expect(csp).toContain("form-action 'self';");
    },
  );

  it("host header injection: a configured pages.error does not redirect to the untrusted host", async () => {
    const response = await Auth(
      new Request(`${evil}/auth/signin`),
      untrusted({ pages: { error: "/oops" } }),
    );
    expect(response.status).toBe(500);
    expectNoEvilHost(response, await response.text());
  });

  it("host header injection: the debug detail names the error, not the untrusted host", async () => {
    const response = await Auth(new Request(`${evil}/auth/error`), untrusted({ debug: true }));
    const body = await response.text();
    expectNoEvilHost(response, body);
    expect(body).toContain("UntrustedHost");
  });

  it("host header injection: the difference from Auth.js is listed in the migration guide", async () => {
    const guide = await readFile(
      new URL("../../../docs/migrating-from-authjs.md", import.meta.url),
      "utf8",
    );
    const section = guide.split(/^## Deliberate differences$/m)[1]?.split(/^## /m)[0] ?? "";
    expect(section).toMatch(
      /^- \*\*A configuration error under an untrusted host never redirects/m,
    );
  });

  it("host header injection: a relative theme logo stays relative and img-src is only 'self'", async () => {
    const response = await Auth(
      new Request(`${evil}/auth/error`),
      untrusted({ theme: { logo: "/logo.png" } }),
    );
    const body = await response.text();
    expectNoEvilHost(response, body);
    expect(body).toContain('<img class="logo" src="/logo.png"');
    expect(response.headers.get("content-security-policy")).toContain("img-src 'self';");
  });
});
