/**
 * Languages of the built-in pages, e-mails and error messages: `Accept-Language` negotiation,
 * the config's `locale` (tag or callback), typed overrides with English fallback, right-to-left
 * pages, and the completeness of every shipped dictionary (a test fails when a translation lacks
 * a key the English dictionary has, or a placeholder it uses).
 */
import { Auth, type AuthConfig } from "@tessera/core";
import {
  accountMessages,
  type CoreMessages,
  coreMessages,
  createTranslator,
  type MessageBundle,
  type MessageOverrides,
  type Messages,
  negotiateLocale,
  negotiateTranslator,
  parseAcceptLanguage,
} from "@tessera/core/i18n";
import { organizationMessages, organizations } from "@tessera/core/organizations";
import { password, passwordMessages } from "@tessera/core/password";
import Credentials from "@tessera/core/providers/credentials";
import Email from "@tessera/core/providers/email";
import { twoFactorMessages } from "@tessera/core/two-factor";
import { MemoryAdapter } from "@tessera/memory";
import { build } from "esbuild";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type {
  AuthContext,
  InternalProvider,
  RequestInternal,
  ResolvedConfig,
} from "../src/lib/config/internal.js";
import { renderVerificationEmail } from "../src/lib/email/template.js";
import { coreTranslator, emailLanguage } from "../src/lib/i18n/core/translator.js";
import { verifyRequestPage } from "../src/lib/pages/other-pages.js";
import { renderSignInPage } from "../src/lib/pages/signin.js";
import { webauthnScriptElement } from "../src/lib/webauthn/script.js";
import { recordingLogger, SECRET } from "./helpers.js";

const SHIPPED = ["de", "fr", "es", "pt-BR", "ja", "zh-CN", "ar"] as const;

const BUNDLES: Record<string, MessageBundle<Messages>> = {
  core: coreMessages,
  account: accountMessages,
  "two-factor": twoFactorMessages,
  password: passwordMessages,
  organizations: organizationMessages,
};

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe("Accept-Language parsing (RFC 9110 §12.5.4)", () => {
  it("orders ranges by q-value, keeping the header's order for equal weights", () => {
    expect(parseAcceptLanguage("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.9, *;q=0.5")).toEqual([
      { range: "fr-CH", q: 1 },
      { range: "fr", q: 0.9 },
      { range: "de", q: 0.9 },
      { range: "en", q: 0.8 },
      { range: "*", q: 0.5 },
    ]);
  });

  it("drops q=0 ranges and malformed entries instead of failing", () => {
    expect(parseAcceptLanguage("de;q=0, fr;q=abc, <script>, ja;q=1.5, es ; q=0.3")).toEqual([
      { range: "es", q: 0.3 },
    ]);
    expect(parseAcceptLanguage("")).toEqual([]);
    expect(parseAcceptLanguage(null)).toEqual([]);
  });

  it("CPU exhaustion: a header of thousands of ranges is read up to a bound", () => {
    const huge = Array.from({ length: 5000 }, (_, i) => `x${i % 100}`).join(",");
    expect(parseAcceptLanguage(`${huge},de`).length).toBeLessThanOrEqual(32);
  });
});

describe("locale negotiation", () => {
  const available = ["en", ...SHIPPED];
  it.each([
    ["de-AT,de;q=0.9", "de"],
    ["pt", "pt-BR"],
    ["pt-PT", "pt-BR"],
    ["zh-Hans", "zh-CN"],
    ["zh-Hans-SG", "zh-CN"],
    ["zh", "zh-CN"],
    ["ZH-cn", "zh-CN"],
    ["it, fr;q=0.4", "fr"],
    ["ar-EG", "ar"],
    ["en-GB", "en"],
    ["ja;q=0.2, es;q=0.9", "es"],
  ])("%s → %s", (header, expected) => {
    expect(negotiateLocale(header, available, "en")).toBe(expected);
  });

  it("Traditional Chinese is never answered in Simplified Chinese", () => {
    expect(negotiateLocale("zh-TW, ja;q=0.5", available, "en")).toBe("ja");
    expect(negotiateLocale("zh-Hant", available, "en")).toBe("en");
  });

  it("falls back when nothing fits, or only * is given", () => {
    expect(negotiateLocale("tlh, *;q=0.1", available, "en")).toBe("en");
    expect(negotiateLocale(undefined, available, "en")).toBe("en");
  });
});

describe("dictionaries", () => {
  for (const [name, bundle] of Object.entries(BUNDLES)) {
    for (const locale of SHIPPED) {
      it(`${name}: ${locale} has every English key, no other, and the same placeholders`, () => {
        const translation = bundle.translations[locale] ?? {};
        expect(Object.keys(translation).sort()).toEqual(Object.keys(bundle.en).sort());
        for (const [key, english] of Object.entries(bundle.en)) {
          expect([key, placeholders(translation[key] ?? "")]).toEqual([key, placeholders(english)]);
        }
      });

      it(`${name}: ${locale} is a translation, not a copy of English`, () => {
        const translation = bundle.translations[locale] ?? {};
        const copied = Object.entries(bundle.en).filter(([key, text]) => translation[key] === text);
        // A few words are the same in both ("Code", "Passkey"); whole sentences are not.
        expect(copied.length).toBeLessThan(Object.keys(bundle.en).length / 10);
      });
    }
  }

  it("a key the app's language lacks falls back to English; placeholders are filled in", () => {
    const t = createTranslator(coreMessages, "it", { it: { "signIn.title": "Accedi" } });
    expect(t("signIn.title")).toBe("Accedi");
    expect(t("signIn.withProvider", { provider: "GitHub" })).toBe("Sign in with GitHub");
    expect(t.dir).toBe("ltr");
    expect(createTranslator(coreMessages, "ar").dir).toBe("rtl");
  });

  it("markup injection: a text and its parameters are escaped, only html values stay markup", () => {
    const t = createTranslator(coreMessages, "en", {
      en: { "signIn.continueTo": "<b>to</b> {host}" },
    });
    expect(t.html("signIn.continueTo", { host: "<img src=x onerror=alert(1)>" }).toString()).toBe(
      "&lt;b&gt;to&lt;/b&gt; &lt;img src=x onerror=alert(1)&gt;",
    );
  });

  it("prototype keys: __proto__ or constructor never answer from Object.prototype", () => {
    const t = createTranslator(coreMessages, "de");
    expect(t("constructor" as "signIn.title")).toBe("constructor");
  });
});

const adapter = MemoryAdapter();
function config(extra: Partial<AuthConfig> = {}): AuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    adapter,
    logger: recordingLogger().logger,
    providers: [
      Credentials({ credentials: { username: {}, password: {} }, authorize: () => null }),
      Email({ sendVerificationRequest: () => {} }),
    ],
    ...extra,
  };
}

async function page(path: string, headers: Record<string, string>, cfg = config()) {
  const response = await Auth(new Request(`https://app.example.com${path}`, { headers }), cfg);
  return { status: response.status, body: await response.text() };
}

describe("the core's texts loaded per request", () => {
  const ranges = ["de", "de-AT", "pt", "pt-PT", "zh", "zh-Hant", "zh-SG", "ja-JP", "ar", "fr-CH"];
  const header = fc
    .array(
      fc.tuple(
        fc.constantFrom(...ranges, "it", "es-419", "en-GB", "*", "xx"),
        fc.constantFrom("", ";q=0.9", ";q=0.5", ";q=0"),
      ),
      { maxLength: 4 },
    )
    .map((parts) => parts.map(([range, q]) => range + q).join(", "));
  const overrides = fc.constantFrom<MessageOverrides<CoreMessages> | undefined>(
    undefined,
    { it: { "signIn.title": "Accedi" }, "pt-PT": { "signIn.title": "Iniciar sessão" } },
    { de: { "signIn.title": "Einloggen" }, en: { "signIn.or": "or else" } },
  );
  const requestFor = (
    acceptLanguage: string,
    messages: MessageOverrides<CoreMessages> | undefined,
  ): Pick<AuthContext, "config" | "request"> => ({
    config: { source: { messages }, logger: recordingLogger().logger } as unknown as ResolvedConfig,
    request: {
      headers: new Headers({ "accept-language": acceptLanguage }),
      request: new Request("https://app.example.com/auth/signin"),
    } as unknown as RequestInternal,
  });

  it("a request gets the language and every text the full dictionary would give it", async () => {
    await fc.assert(
      fc.asyncProperty(header, overrides, async (acceptLanguage, messages) => {
        const t = await coreTranslator(requestFor(acceptLanguage, messages));
        const full = negotiateTranslator(coreMessages, acceptLanguage, messages);
        expect([t.locale, t.dir]).toEqual([full.locale, full.dir]);
        expect(emailLanguage(requestFor(acceptLanguage, messages)).locale).toBe(full.locale);
        for (const key of Object.keys(coreMessages.en) as (keyof CoreMessages)[])
          expect([key, t(key, { provider: "P", host: "h" })]).toEqual([
            key,
            full(key, { provider: "P", host: "h" }),
          ]);
      }),
      { numRuns: 150 },
    );
  });
});

describe("the pages in the request's language", () => {
  it("Accept-Language picks the language, with lang on <html>", async () => {
    const { body } = await page("/auth/signin", { "accept-language": "de-DE,de;q=0.9,en;q=0.8" });
    expect(body).toContain('<html lang="de">');
    expect(body).toContain("<h1>Anmelden</h1>");
    expect(body).toContain("um mit <strong>app.example.com</strong> fortzufahren");
    expect(body).toContain(">oder</div>");
  });

  it("Arabic pages are right to left: dir=rtl beside lang", async () => {
    const { body } = await page("/auth/signin", { "accept-language": "ar" });
    expect(body).toContain('<html lang="ar" dir="rtl">');
    expect(body).toContain("<h1>تسجيل الدخول</h1>");
  });

  it("English pages are unchanged: lang=en and no dir", async () => {
    const { body } = await page("/auth/signin", {});
    expect(body).toContain('<html lang="en">\n');
    expect(body).toContain("<h1>Sign in</h1>");
  });

  it("the config's locale wins over Accept-Language", async () => {
    const { body } = await page(
      "/auth/signout",
      { "accept-language": "fr" },
      config({ locale: "ja" }),
    );
    expect(body).toContain('<html lang="ja">');
    expect(body).toContain("ログアウトしてもよろしいですか？");
  });

  it("a locale callback receives the request; undefined lets Accept-Language decide", async () => {
    const seen: string[] = [];
    const cfg = config({
      locale: (request) => {
        seen.push(new URL(request.url).pathname);
        return new URL(request.url).searchParams.get("lang") ?? undefined;
      },
    });
    expect((await page("/auth/error?lang=es", { "accept-language": "de" }, cfg)).body).toContain(
      "<h1>Algo salió mal</h1>",
    );
    expect((await page("/auth/error", { "accept-language": "de" }, cfg)).body).toContain(
      "<h1>Etwas ist schiefgelaufen</h1>",
    );
    expect(seen).toEqual(["/auth/error", "/auth/error"]);
  });

  it("a failing locale callback is logged and costs only the language", async () => {
    const log = recordingLogger();
    const cfg = config({
      logger: log.logger,
      locale: () => {
        throw new Error("profile store down");
      },
    });
    const { status, body } = await page("/auth/signin", { "accept-language": "pt-BR" }, cfg);
    expect(status).toBe(200);
    expect(body).toContain("<h1>Entrar</h1>");
    expect(log.errors.map((error) => error.message)).toContain("profile store down");
  });

  it("the app's messages override a text, add a language, and fall back to English", async () => {
    const cfg = config({
      messages: { de: { "signIn.title": "Einloggen" }, it: { "signIn.title": "Accedi" } },
    });
    const de = (await page("/auth/signin", { "accept-language": "de" }, cfg)).body;
    expect(de).toContain("<h1>Einloggen</h1>");
    expect(de).toContain(">oder</div>");
    const it = (await page("/auth/signin", { "accept-language": "it-IT" }, cfg)).body;
    expect(it).toContain('<html lang="it">');
    expect(it).toContain("<h1>Accedi</h1>");
    expect(it).toContain(">or</div>");
  });

  it("error banners are translated; the raw error value is still never shown", async () => {
    const { body } = await page("/auth/signin?error=CredentialsSignin", {
      "accept-language": "fr",
    });
    expect(body).toContain("La connexion a échoué.");
    const refused = await page("/auth/signin?error=EmailSignin&code=address-one-at", {
      "accept-language": "es",
    });
    expect(refused.body).toContain(
      "No se aceptó esa dirección de correo. Una dirección de correo tiene exactamente una @.",
    );
    const hostile = await page("/auth/signin?error=%3Cscript%3E", { "accept-language": "ja" });
    expect(hostile.body).not.toContain("<script>");
    expect(hostile.body).toContain("ログインできません。");
  });

  it("the passkey script's error texts come in the page's language, the script (and its hash) unchanged", () => {
    const passkey: InternalProvider = {
      id: "passkey",
      name: "Passkey",
      type: "webauthn",
      signinUrl: "https://app.example.com/auth/signin/passkey",
      callbackUrl: "https://app.example.com/auth/callback/passkey",
    } as InternalProvider;
    const render = (locale: string) =>
      renderSignInPage({
        url: new URL("https://app.example.com/auth"),
        theme: {},
        providers: [passkey],
        callbackUrl: "/",
        csrfToken: "x",
        webauthnScript: webauthnScriptElement(),
        t: createTranslator(coreMessages, locale),
      }).body ?? "";
    const messagesOf = (body: string) =>
      JSON.parse(
        (/data-webauthn-messages="([^"]*)"/.exec(body)?.[1] ?? "{}").replace(/&quot;/g, '"'),
      ) as Record<string, string>;
    expect(messagesOf(render("ja")).unsupported).toBe("このブラウザはパスキーに対応していません。");
    expect(messagesOf(render("en")).closed).toBe(
      "The passkey prompt was closed or timed out. Try again.",
    );
    const script = (body: string) => /<script[^>]*>([\s\S]*?)<\/script>/.exec(body)?.[1];
    expect(script(render("ar"))).toBe(script(render("en")));
  });

  it("the error page keeps its status in every language", async () => {
    const { status, body } = await page("/auth/error?error=AccessDenied", {
      "accept-language": "zh-CN",
    });
    expect(status).toBe(403);
    expect(body).toContain("<h1>拒绝访问</h1>");
  });
});

describe("the pages of e-mail code sign-in, change of address and invitations", () => {
  it("the verify-request page's code form and its refusals are in the page's language", async () => {
    const form = {
      url: new URL("https://app.example.com/auth/verify-request"),
      theme: {},
      provider: { id: "email", name: "Email" },
      codeForm: { csrfToken: "token" },
    };
    const german = verifyRequestPage({ ...form, t: createTranslator(coreMessages, "de") }).body;
    expect(german).toContain("Oder geben Sie den 6-stelligen Code aus der E-Mail ein");
    const arabic = verifyRequestPage({
      ...form,
      error: "CodeExpired",
      t: createTranslator(coreMessages, "ar"),
    }).body;
    expect(arabic).toContain('<html lang="ar" dir="rtl">');
    expect(arabic).toContain("لم يعد بالإمكان استخدام هذا الرمز");
    // No English left on the page: neither the form nor its refusal.
    expect(arabic).not.toContain("6-digit code");
    expect(arabic).not.toContain("can no longer be used");
  });

  it("the password change-e-mail and confirm-e-mail pages follow Accept-Language", async () => {
    const cfg = config({ experimental: { extensions: [password({ breachedPasswords: false })] } });
    const change = await page("/auth/password/change-email", { "accept-language": "ja" }, cfg);
    expect(change.body).toContain('<html lang="ja">');
    expect(change.body).toContain("<h1>メールアドレスの変更</h1>");
    expect(change.body).toContain(">新しいメールアドレス</label>");
    const confirm = await page(
      "/auth/password/confirm-email?email=new%40example.com",
      { "accept-language": "fr" },
      cfg,
    );
    expect(confirm.body).toContain("<h1>Confirmez votre nouvelle adresse</h1>");
    expect(confirm.body).not.toContain("Confirm your new address");
  });

  it("the invitation page is right to left in Arabic, and organizations({ messages }) overrides it", async () => {
    const arabic = await page(
      "/auth/organizations/join?invitationId=unknown",
      { "accept-language": "ar" },
      config({ experimental: { extensions: [organizations()] } }),
    );
    expect(arabic.body).toContain('<html lang="ar" dir="rtl">');
    expect(arabic.body).toContain("<h1>لقد تمت دعوتك</h1>");
    const overridden = await page(
      "/auth/organizations/join?invitationId=unknown",
      { "accept-language": "de" },
      config({
        experimental: {
          extensions: [
            organizations({
              messages: { de: { "organizations.invitation.heading": "Willkommen an Bord" } },
            }),
          ],
        },
      }),
    );
    expect(overridden.body).toContain("<h1>Willkommen an Bord</h1>");
    // The rest of the page keeps the shipped German.
    expect(overridden.body).toContain(">Anmelden</a>");
  });
});

describe("the default e-mail in the request's language", () => {
  const expires = new Date(Date.now() + 24 * 3600_000);
  const url = "https://app.example.com/auth/callback/email?token=abc";

  it("English stays as it was", () => {
    const { subject, text } = renderVerificationEmail({ url, expires });
    expect(subject).toBe("Sign in to app.example.com");
    expect(text).toContain("The link expires in 24 hours and can be used only once.");
  });

  it("German, with the lifetime in German plurals", () => {
    const { subject, html, text } = renderVerificationEmail({
      url,
      expires,
      locale: "de",
      code: "123456",
    });
    expect(subject).toBe("Bei app.example.com anmelden");
    expect(html).toContain('<html lang="de">');
    expect(text).toContain("Der Link läuft in 24 Stunden ab");
    expect(text).toContain("Oder geben Sie diesen Code ein: 123456");
  });

  it("Arabic is right to left, and the app's texts apply", () => {
    const { html, subject } = renderVerificationEmail({
      url,
      expires,
      locale: "ar",
      messages: { ar: { "email.button": "ادخل الآن" } },
    });
    expect(html).toContain('<html lang="ar" dir="rtl">');
    expect(html).toContain("ادخل الآن");
    expect(subject).toBe("تسجيل الدخول إلى app.example.com");
  });

  it("the e-mail provider is handed the request's locale", async () => {
    const sent: { locale?: string }[] = [];
    const cfg = config({
      providers: [Email({ sendVerificationRequest: (params) => void sent.push(params) })],
    });
    const csrf = await Auth(new Request("https://app.example.com/auth/csrf"), cfg);
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const cookie = csrf.headers
      .getSetCookie()
      .map((header) => header.split(";")[0])
      .join("; ");
    await Auth(
      new Request("https://app.example.com/auth/signin/email", {
        method: "POST",
        headers: {
          cookie,
          "accept-language": "pt-BR",
          "content-type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams({ csrfToken, email: "ada@example.com" }),
      }),
      cfg,
    );
    expect(sent.map((params) => params.locale)).toEqual(["pt-BR"]);
  });
});

describe("extension dictionaries", () => {
  it("an app without the extensions never loads their texts; each extension's entry does", async () => {
    const bundle = async (entry: string) => {
      const { metafile } = await build({
        entryPoints: [new URL(`../src/${entry}`, import.meta.url).pathname],
        bundle: true,
        write: false,
        metafile: true,
        format: "esm",
        platform: "node",
        outdir: "/tmp/unused",
        packages: "external",
        logLevel: "silent",
      });
      return Object.keys(metafile.inputs);
    };
    expect((await bundle("i18n.ts")).some((path) => path.includes("lib/i18n/core/ar.ts"))).toBe(
      true,
    );
    const core = await bundle("index.ts");
    expect(core.some((path) => path.includes("lib/i18n/core/ar.ts"))).toBe(true);
    expect(core.filter((path) => path.includes("/messages/"))).toEqual([]);
    expect(
      (await bundle("extensions/two-factor/index.ts")).some((path) =>
        path.includes("two-factor/messages/translations.ts"),
      ),
    ).toBe(true);
    expect(
      (await bundle("extensions/password/index.ts")).some((path) =>
        path.includes("password/messages/translations.ts"),
      ),
    ).toBe(true);
    expect(
      (await bundle("extensions/organizations/index.ts")).some((path) =>
        path.includes("organizations/messages/translations.ts"),
      ),
    ).toBe(true);
  });
});
