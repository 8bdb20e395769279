/**
 * The home page's Devices card (database sessions): every signed-in browser is listed, "Sign out
 * everywhere else" and "Sign out this device" go through the demo's /devices route to
 * revokeOtherSessions / revokeSession, and a cross-origin post is refused.
 */
import { afterAll, describe, expect, it } from "vitest";
import { type RunningDemo, startDemo } from "../src/demo.js";
import { Browser } from "./browser-client.js";

const SECRET = "demo-devices-test-secret-with-more-than-32-chars";
const FIREFOX_ON_LINUX = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";
const SAFARI_ON_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";
const running: RunningDemo[] = [];
afterAll(async () => {
  for (const demo of running) await demo.close();
});

async function start(strategy: "database" | "jwt"): Promise<RunningDemo> {
  const demo = await startDemo({ port: 0, dataDir: null, secret: SECRET, strategy });
  running.push(demo);
  return demo;
}

describe("Devices card", () => {
  it("lists the browsers, signs out everywhere else, then this device", async () => {
    const demo = await start("database");
    const laptop = new Browser(demo.url, FIREFOX_ON_LINUX);
    const phone = new Browser(demo.url, SAFARI_ON_IPHONE);
    await laptop.signIn();
    await phone.signIn();

    const home = await (await laptop.fetch("/")).text();
    expect(home).toContain('data-testid="devices"');
    expect(home.match(/data-testid="device"/g)).toHaveLength(2);
    // Named as people say it; the raw User-Agent is the name's tooltip.
    expect(home).toContain(`<strong title="${FIREFOX_ON_LINUX}">Firefox on Linux</strong>`);
    expect(home).toContain(`<strong title="${SAFARI_ON_IPHONE}">Safari on iPhone</strong>`);
    expect(home).toContain("Sign out everywhere else");

    // Login CSRF: a form from another origin is refused and changes nothing.
    expect((await laptop.post("/devices", { others: "true" }, "https://evil.example")).status).toBe(
      403,
    );
    expect(await phone.signedIn()).toBe(true);

    expect((await laptop.post("/devices", { others: "true" })).status).toBe(303);
    expect(await phone.signedIn()).toBe(false);
    expect(await laptop.signedIn()).toBe(true);

    const id = /name="id" value="([^"]+)"/.exec(await (await laptop.fetch("/")).text())?.[1] ?? "";
    expect((await laptop.post("/devices", { id })).status).toBe(303);
    expect(await laptop.signedIn()).toBe(false);
  });

  it("with JWT sessions, explains why nothing is listed, and signing out kills a copied cookie", async () => {
    const demo = await start("jwt");
    const browser = new Browser(demo.url, "Laptop");
    await browser.signIn();
    expect(await (await browser.fetch("/")).text()).toContain("jwt.revocation");
    const copy = new Browser(demo.url, "Thief");
    copy.cookies.set("authjs.session-token", browser.cookies.get("authjs.session-token") ?? "");
    expect(await copy.signedIn()).toBe(true);
    const { csrfToken } = (await (await browser.fetch("/auth/csrf")).json()) as {
      csrfToken: string;
    };
    await browser.post("/auth/signout", { csrfToken });
    expect(await copy.signedIn()).toBe(false);
  });
});
