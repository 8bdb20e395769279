/**
 * The origin check of the form actions, for the requests a browser (or an attacker's page) can
 * send. The function reads only the request's headers and the event's URL, so each case is a real
 * `Request` and `URL` in an object of those two fields; the built app test runs it end to end.
 */
import type { RequestEventCommon } from "@builder.io/qwik-city";
import { describe, expect, it } from "vitest";
import { crossSiteRefusal } from "../src/origin.js";

const SITE = "https://app.example/signin/?qaction=abc";

function post(headers: Record<string, string>, url = SITE): RequestEventCommon {
  const request = new Request(url, { method: "POST", headers, body: "x=1" });
  return { request, url: new URL(url) } as unknown as RequestEventCommon;
}

const FORM = { "content-type": "application/x-www-form-urlencoded" };

describe("crossSiteRefusal", () => {
  it("lets a form posted from the site's own pages through", () => {
    expect(crossSiteRefusal(post({ ...FORM, origin: "https://app.example" }))).toBeUndefined();
  });

  it("login CSRF: refuses a form another site posts", () => {
    const refusal = crossSiteRefusal(post({ ...FORM, origin: "https://attacker.example" }));
    expect(refusal).toContain("https://attacker.example");
    expect(refusal).toContain("https://app.example");
  });

  it("login CSRF: refuses every simple content type a page can post without a preflight", () => {
    for (const type of [
      "multipart/form-data; boundary=x",
      "text/plain",
      "TEXT/PLAIN;charset=utf-8",
    ])
      expect(
        crossSiteRefusal(post({ "content-type": type, origin: "https://attacker.example" })),
      ).toBeDefined();
    expect(crossSiteRefusal(post({ origin: "https://attacker.example" }))).toBeDefined();
  });

  it("login CSRF: refuses a form without an Origin, or with the opaque origin null", () => {
    expect(crossSiteRefusal(post(FORM))).toBeDefined();
    expect(crossSiteRefusal(post({ ...FORM, origin: "null" }))).toBeDefined();
    expect(crossSiteRefusal(post({ ...FORM, origin: "not a url" }))).toBeDefined();
  });

  it("refuses a sibling host and another port of the same host", () => {
    expect(crossSiteRefusal(post({ ...FORM, origin: "https://evil.app.example" }))).toBeDefined();
    expect(crossSiteRefusal(post({ ...FORM, origin: "https://app.example:8443" }))).toBeDefined();
  });

  it("accepts the site's host over http behind a TLS-terminating proxy, as Qwik's lax-proto does", () => {
    expect(
      crossSiteRefusal(post({ ...FORM, origin: "https://app.example" }, "http://app.example/")),
    ).toBeUndefined();
  });

  it("lets a request through that needs a CORS preflight (a cross-site page cannot send it)", () => {
    const json = { "content-type": "application/json", origin: "https://attacker.example" };
    expect(crossSiteRefusal(post(json))).toBeUndefined();
  });
});
