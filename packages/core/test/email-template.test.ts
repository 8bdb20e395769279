/**
 * The default sign-in e-mail: content, theme, escaping of hostile values, and the plain-text part.
 */
import { describe, expect, it } from "vitest";
import { describeLifetime, renderVerificationEmail } from "../src/lib/email/template.js";

const URL_ = "https://app.example.com/auth/callback/email?callbackUrl=%2F&token=abc&email=a%40b.co";
const in24h = () => new Date(Date.now() + 86_400_000);

describe("renderVerificationEmail", () => {
  it("has a subject naming the host, a button, and a text part with the link", () => {
    const mail = renderVerificationEmail({ url: URL_, expires: in24h() });
    expect(mail.subject).toBe("Sign in to app.example.com");
    expect(mail.html).toContain(`href="${URL_.replace(/&/g, "&amp;")}"`);
    expect(mail.html).toContain(">Sign in</a>");
    expect(mail.html).toContain("expires in 24 hours and can be used only once");
    expect(mail.text).toContain(`\n${URL_}\n`);
    expect(mail.text).toContain("expires in 24 hours and can be used only once");
  });

  it("loads nothing remote: no images, no stylesheets, no scripts", () => {
    const mail = renderVerificationEmail({
      url: URL_,
      expires: in24h(),
      theme: { logo: "https://tracker.example/pixel.png" },
    });
    expect(mail.html).not.toMatch(/<img|<link|<script|url\(/i);
    expect(mail.html).not.toContain("tracker.example");
  });

  it("keeps the host from being auto-linked in the HTML heading", () => {
    const mail = renderVerificationEmail({ url: URL_, expires: in24h() });
    expect(mail.html).toContain("Sign in to app&#8203;.example&#8203;.com</h1>");
  });

  it("paints the button in the brand colour with readable text", () => {
    const light = renderVerificationEmail({
      url: URL_,
      expires: in24h(),
      theme: { brandColor: "#fde047" },
    });
    expect(light.html).toContain('bgcolor="#fde047"');
    expect(light.html).toMatch(/color:#0a0a0a;text-decoration:none/);
    const dark = renderVerificationEmail({
      url: URL_,
      expires: in24h(),
      theme: { brandColor: "#1e3a8a", buttonText: "#fafafa", colorScheme: "dark" },
    });
    expect(dark.html).toMatch(/color:#fafafa;text-decoration:none/);
    expect(dark.html).toContain('content="dark"');
    expect(dark.html).toContain("background:#09090b");
  });

  it("drops a brand colour that would inject CSS or markup", () => {
    for (const brandColor of [
      'red;background:url("https://evil.test/x")',
      '#fff" onclick="alert(1)',
      "</style><script>alert(1)</script>",
    ]) {
      const mail = renderVerificationEmail({ url: URL_, expires: in24h(), theme: { brandColor } });
      expect(mail.html).not.toContain("evil.test");
      expect(mail.html).not.toContain("onclick");
      expect(mail.html).not.toContain("<script");
      expect(mail.html).toContain('bgcolor="#18181b"');
    }
  });

  it("escapes hostile characters of the link", () => {
    const hostile =
      'https://app.example.com/auth/callback/email?callbackUrl="><script>alert(1)</script>&token=a&email=x%40y.z';
    const mail = renderVerificationEmail({ url: hostile, expires: in24h() });
    expect(mail.html).not.toContain("<script>");
    expect(mail.html).not.toMatch(/href="[^"]*"[^>]*"><script/);
  });

  it("refuses a link that is not http(s)", () => {
    expect(() =>
      renderVerificationEmail({ url: "javascript:alert(1)//", expires: in24h() }),
    ).toThrow(TypeError);
  });
});

describe("describeLifetime", () => {
  const now = Date.UTC(2030, 0, 1);
  it.each([
    [30, "1 minute"],
    [600, "10 minutes"],
    [3600, "1 hour"],
    [86_400, "24 hours"],
    [86_399.5, "24 hours"],
    [3 * 86_400, "3 days"],
  ])("describes %s seconds as %j", (seconds, text) => {
    expect(describeLifetime(new Date(now + seconds * 1000), now)).toBe(text);
  });
});

describe("the e-mailed code", () => {
  it("shows a 6-digit code under the button and in the text, and nothing else as a code", () => {
    const expires = new Date(Date.now() + 15 * 60_000);
    const url = "https://app.test/auth/password/verify?code=123456";
    const withCode = renderVerificationEmail({ url, expires, code: "123456" });
    expect(withCode.text).toContain("Or enter this code: 123456");
    expect(withCode.html).toContain(">123456</p>");
    // Markup in a "code" is not a code: it is never rendered.
    const hostile = renderVerificationEmail({ url, expires, code: "<b>1</b>" });
    expect(hostile.html).not.toContain("Or enter this code");
    expect(hostile.text).not.toContain("Or enter this code");
  });
});
