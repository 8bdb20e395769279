/**
 * `passkeys(event)` and `actionRunner(event)` of @tessera/qwik (from its server-functions module:
 * the package's entry imports Qwik's runtime, which runs in the built app only) after the plugin's request
 * handler ran for the event (as `onRequest` of `plugin@auth.ts` does before every loader and
 * action): passkey management for the signed-in user only (IDOR refused), an action's cookies
 * set through `event.cookie`, and the error naming the fix when the plugin did not run. The event
 * is a stand-in around a real `Request` with the fields the plugin reads, as in origin.test.ts;
 * the built app is app.test.ts. The memory adapter holds the passkeys.
 */
import type { RequestEventCommon } from "@builder.io/qwik-city";
import { describe, expect, it } from "vitest";
import { expectOwnPasskeysOnly, passkeyFixture } from "../../core/test/fixtures/passkeys.js";
import { prepareConfig } from "../src/config.js";
import { handleRequest } from "../src/server.js";
import { actionRunner, passkeys } from "../src/server-functions.js";

const fixture = passkeyFixture();
const prepared = prepareConfig({ ...fixture.config, trustHost: true }, { get: () => undefined });

/** An event of a page request with `cookie`, after the plugin handled it. */
async function pageEvent(
  cookie?: string,
  set: [string, string][] = [],
): Promise<RequestEventCommon> {
  const url = new URL("http://127.0.0.1:5173/account/");
  const event = {
    url,
    request: new Request(url, { headers: cookie ? { cookie } : {} }),
    sharedMap: new Map<string, unknown>(),
    clientConn: { ip: "203.0.113.7" },
    cookie: { set: (name: string, value: string) => void set.push([name, value]) },
  } as unknown as RequestEventCommon;
  await handleRequest(event, prepared);
  return event;
}

describe("server functions after the plugin's request handler", () => {
  it("passkeys(event) manages the signed-in user's passkeys and refuses another user's (IDOR)", async () => {
    const events = new Map<string | undefined, RequestEventCommon>();
    for (const cookie of [
      undefined,
      await fixture.sessionCookie("ada"),
      await fixture.sessionCookie("grace"),
    ])
      events.set(cookie, await pageEvent(cookie));
    await expectOwnPasskeysOnly(fixture, (cookie) => {
      const event = events.get(cookie);
      if (!event) throw new Error("no event for this cookie");
      return passkeys(event);
    });
  });

  it("actionRunner(event) sets the cookies an action answers through event.cookie", async () => {
    const set: [string, string][] = [];
    const answer = await actionRunner(await pageEvent(undefined, set))({ action: "csrf" });
    expect(answer.body).toEqual({ csrfToken: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(set).toEqual([["authjs.csrf-token", expect.stringContaining("|")]]);
  });

  it("names the fix when the plugin did not run for the event", () => {
    const event = { sharedMap: new Map() } as unknown as RequestEventCommon;
    expect(() => passkeys(event)).toThrow(/export `onRequest` from QwikAuth\$/);
  });
});
