/**
 * OAuth 1.0a request signing (RFC 5849) against the RFC's own examples: the signature base string
 * of §3.4.1.1, and the HMAC-SHA1 signature of the §1.2 walkthrough, which the RFC gives in full.
 */
import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  authorizationHeader,
  hmacSha1Signature,
  percentEncode,
  signatureBaseString,
} from "../src/lib/oauth/oauth1.js";

describe("RFC 5849 signatures", () => {
  it("builds §3.4.1.1's signature base string (query, form body and oauth_* parameters)", () => {
    const url = new URL("http://example.com/request?b5=%3D%253D&a3=a&c%40=&a2=r%20b");
    const body = [...new URLSearchParams("c2&a3=2+q")];
    const oauth: [string, string][] = [
      ["oauth_consumer_key", "9djdj82h48djs9d2"],
      ["oauth_token", "kkk9d7dh3k39sjv7"],
      ["oauth_signature_method", "HMAC-SHA1"],
      ["oauth_timestamp", "137131201"],
      ["oauth_nonce", "7d8f3e4a"],
      // Left out of the base string (§3.4.1.3.1).
      ["oauth_signature", "bYT5CMsGcbgUdFHObYMEfcx6bsw="],
    ];
    expect(signatureBaseString("POST", url, [...oauth, ...body])).toBe(
      "POST&http%3A%2F%2Fexample.com%2Frequest&a2%3Dr%2520b%26a3%3D2%2520q" +
        "%26a3%3Da%26b5%3D%253D%25253D%26c%2540%3D%26c2%3D%26oauth_consumer_" +
        "key%3D9djdj82h48djs9d2%26oauth_nonce%3D7d8f3e4a%26oauth_signature_m" +
        "ethod%3DHMAC-SHA1%26oauth_timestamp%3D137131201%26oauth_token%3Dkkk" +
        "9d7dh3k39sjv7",
    );
  });

  it("signs §1.2's photo request to the signature the RFC prints", async () => {
    const header = await authorizationHeader(
      "GET",
      new URL("http://photos.example.net/photos?file=vacation.jpg&size=original"),
      {
        consumerKey: "dpf43f3p2l4k3l03",
        consumerSecret: "kd94hf93k423kf44",
        token: "nnch734d00sl2jdk",
        tokenSecret: "pfkkdhi9sl3r4s00",
      },
      {},
      [],
      { timestamp: "137131202", nonce: "chapoH" },
    );
    // §1.2 signs without oauth_version (it is optional, §3.1); the header here carries it, so
    // the walkthrough's base string is signed directly as well.
    const base = signatureBaseString(
      "GET",
      new URL("http://photos.example.net/photos?file=vacation.jpg&size=original"),
      [
        ["oauth_consumer_key", "dpf43f3p2l4k3l03"],
        ["oauth_token", "nnch734d00sl2jdk"],
        ["oauth_signature_method", "HMAC-SHA1"],
        ["oauth_timestamp", "137131202"],
        ["oauth_nonce", "chapoH"],
      ],
    );
    expect(await hmacSha1Signature(base, "kd94hf93k423kf44", "pfkkdhi9sl3r4s00")).toBe(
      "MdpQcU8iPSUjWoN/UDMsK2sui9I=",
    );
    expect(header).toMatch(/^OAuth oauth_consumer_key="dpf43f3p2l4k3l03", /);
    expect(header).toContain('oauth_version="1.0"');
    expect(header).toContain('oauth_token="nnch734d00sl2jdk"');
    // The header's signature is HMAC-SHA1 over its own parameters, as Node's crypto computes it.
    const signed = decodeURIComponent(/oauth_signature="([^"]+)"/.exec(header)?.[1] ?? "");
    const withVersion = signatureBaseString(
      "GET",
      new URL("http://photos.example.net/photos?file=vacation.jpg&size=original"),
      [
        ["oauth_consumer_key", "dpf43f3p2l4k3l03"],
        ["oauth_token", "nnch734d00sl2jdk"],
        ["oauth_signature_method", "HMAC-SHA1"],
        ["oauth_timestamp", "137131202"],
        ["oauth_nonce", "chapoH"],
        ["oauth_version", "1.0"],
      ],
    );
    expect(signed).toBe(
      createHmac("sha1", "kd94hf93k423kf44&pfkkdhi9sl3r4s00").update(withVersion).digest("base64"),
    );
  });

  it("percent-encodes every reserved character, in upper-case hex (§3.6)", () => {
    expect(percentEncode("Ladies + Gentlemen")).toBe("Ladies%20%2B%20Gentlemen");
    expect(percentEncode("An encoded string!")).toBe("An%20encoded%20string%21");
    expect(percentEncode("Dogs, Cats & Mice")).toBe("Dogs%2C%20Cats%20%26%20Mice");
    expect(percentEncode("☃")).toBe("%E2%98%83");
    expect(percentEncode("*'()-._~")).toBe("%2A%27%28%29-._~");
  });
});
