/**
 * Address normalisation of e-mail sign-in and the stored token format, as pure functions.
 */
import { createHash } from "node:crypto";
import { EmailSignInError, Verification } from "@tessera/core/errors";
import { describe, expect, it } from "vitest";
import {
  normalizeEmailAddress,
  normalizeProviderIdentifier,
  parseMailbox,
} from "../src/lib/email/address.js";
import {
  createVerificationToken,
  hashVerificationToken,
  verificationSecrets,
} from "../src/lib/email/token.js";

describe("normalizeEmailAddress", () => {
  it.each([
    [" Ada@Example.COM ", "ada@example.com"],
    ["ada@example.com", "ada@example.com"],
    ["\tada.lovelace+auth@mail.example.co.uk\n", "ada.lovelace+auth@mail.example.co.uk"],
    // NFKC folds compatibility forms: fullwidth letters, ligatures.
    ["ＡＤＡ@example.com", "ada@example.com"],
    ["ﬁona@example.com", "fiona@example.com"],
    // Internationalised addresses (RFC 6531) keep their letters, lower-cased.
    ["Jürgen@Bücher.de", "jürgen@bücher.de"],
    ["o'brien@example.com", "o'brien@example.com"],
  ])("normalises %j to %j", (input, expected) => {
    expect(normalizeEmailAddress(input)).toBe(expected);
  });

  it.each([
    ["several @", "a@b@c"],
    ["several @ with a valid tail", "a@b@example.com"],
    ["a quoted local part", '"a"@b.c'],
    ["a quoted local part hiding an @", '"ada@evil.test"@example.com'],
    ["a fullwidth ＠ (NFKC would fold it into @)", "ada＠example.com"],
    ["a small commercial at ﹫", "ada﹫example.com"],
    ["a recipient list", "ada@example.com,eve@evil.test"],
    ["a display name", "Ada <ada@example.com>"],
    ["inner whitespace", "ada lovelace@example.com"],
    ["a CRLF header injection", "ada@example.com\r\nBcc: eve@evil.test"],
    ["a NUL byte", "ada\u0000@example.com"],
    ["an IP literal", "ada@[127.0.0.1]"],
    ["a single-label domain", "ada@localhost"],
    ["an empty local part", "@example.com"],
    ["a leading dot", ".ada@example.com"],
    ["consecutive dots", "ada..lovelace@example.com"],
    ["a trailing dot in the domain", "ada@example.com."],
    ["a hyphen-edged label", "ada@-example.com"],
    ["a 65-character local part", `${"a".repeat(65)}@example.com`],
    ["a 255-character address", `${"a".repeat(60)}@${"b".repeat(190)}.com`],
    ["no @", "ada.example.com"],
    ["an empty string", "   "],
  ])("refuses %s", (_name, input) => {
    expect(() => normalizeEmailAddress(input)).toThrow(EmailSignInError);
  });

  it("refuses values that are not strings", () => {
    for (const value of [undefined, null, 42, ["ada@example.com"], { email: "ada@example.com" }])
      expect(() => normalizeEmailAddress(value)).toThrow(EmailSignInError);
  });
});

describe("normalizeProviderIdentifier", () => {
  it("throws the error type of the step (Verification when a link is followed)", () => {
    expect(() => normalizeProviderIdentifier({ id: "email" }, "a@b@c", Verification)).toThrow(
      Verification,
    );
  });

  it("runs a custom normaliser and wraps what it throws", () => {
    const provider = {
      id: "email",
      normalizeIdentifier: (value: string) => {
        if (!value.endsWith("@corp.test")) throw new Error("only corp addresses");
        return value.toLowerCase();
      },
    };
    expect(normalizeProviderIdentifier(provider, "Ada@corp.test", EmailSignInError)).toBe(
      "ada@corp.test",
    );
    expect(() => normalizeProviderIdentifier(provider, "ada@else.test", EmailSignInError)).toThrow(
      /only corp addresses/,
    );
    expect(() => normalizeProviderIdentifier(provider, 7, EmailSignInError)).toThrow(
      EmailSignInError,
    );
  });
});

describe("parseMailbox", () => {
  it.each([
    ["no-reply@acme.test", { address: "no-reply@acme.test" }],
    ["Acme <no-reply@acme.test>", { name: "Acme", address: "no-reply@acme.test" }],
    ['"Acme, Inc." <no-reply@acme.test>', { name: "Acme, Inc.", address: "no-reply@acme.test" }],
    ["<no-reply@acme.test>", { address: "no-reply@acme.test" }],
  ])("parses %j", (input, expected) => {
    expect(parseMailbox(input)).toEqual(expected);
  });
});

describe("verification tokens", () => {
  it("stores sha256hex(token + secret), the Auth.js format", async () => {
    const expected = createHash("sha256").update("tokensecret").digest("hex");
    expect(await hashVerificationToken("token", "secret")).toBe(expected);
  });

  it("creates 256-bit random hex tokens, or uses the provider's generator", async () => {
    const a = await createVerificationToken({});
    const b = await createVerificationToken({});
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(a).not.toBe(b);
    expect(await createVerificationToken({ generateVerificationToken: () => "123456" })).toBe(
      "123456",
    );
    await expect(createVerificationToken({ generateVerificationToken: () => "" })).rejects.toThrow(
      TypeError,
    );
  });

  it("tries every configured secret newest first, unless the provider has its own", () => {
    expect(verificationSecrets({}, ["new", "old", "new"])).toEqual(["new", "old"]);
    expect(verificationSecrets({ secret: "own" }, ["new", "old"])).toEqual(["own"]);
  });
});
