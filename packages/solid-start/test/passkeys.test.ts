/**
 * `passkeys(event, config)` and `actionRunner(event, config)` with SolidStart's request event
 * (`getRequestEvent()` in a server function: the request, the client's address, the response
 * stub whose headers carry cookies), as a stand-in object around a real `Request`: passkey
 * management for the signed-in user only (IDOR refused), and an action's cookies appended to
 * the response headers. The built app is app.test.ts; the memory adapter holds the passkeys.
 */
import { describe, expect, it } from "vitest";
import { expectOwnPasskeysOnly, passkeyFixture } from "../../core/test/fixtures/passkeys.js";
import {
  actionRunner,
  passkeys,
  type SolidAuthConfig,
  type SolidServerEvent,
} from "../src/index.js";

const fixture = passkeyFixture();
const config: SolidAuthConfig = { ...fixture.config, trustHost: true };

function requestEvent(cookie?: string): SolidServerEvent {
  return {
    request: new Request("http://127.0.0.1:3000/account", { headers: cookie ? { cookie } : {} }),
    clientAddress: "203.0.113.7",
    response: { headers: new Headers() },
  };
}

describe("server functions with SolidStart's request event", () => {
  it("passkeys(event, config) manages the signed-in user's passkeys and refuses another user's (IDOR)", async () => {
    await expectOwnPasskeysOnly(fixture, (cookie) => passkeys(requestEvent(cookie), config));
  });

  it("actionRunner(event, config) appends the cookies an action answers to the response", async () => {
    const event = requestEvent();
    const answer = await actionRunner(event, config)({ action: "csrf" });
    expect(answer.body).toEqual({ csrfToken: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(event.response?.headers.getSetCookie()).toEqual([
      expect.stringMatching(/^authjs\.csrf-token=/),
    ]);
  });
});
