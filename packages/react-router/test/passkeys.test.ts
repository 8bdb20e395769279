/**
 * `passkeys(request)` and `actionRunner(request, headers)` of `ReactRouterAuth`, called as
 * loaders and actions call them (with the incoming `Request`): passkey management for the
 * signed-in user only (IDOR refused), and the cookies an action answers appended to the headers
 * the loader sends. The memory adapter holds the passkeys; the built app is in app.test.ts.
 */
import { describe, expect, it } from "vitest";
import { expectOwnPasskeysOnly, passkeyFixture } from "../../core/test/fixtures/passkeys.js";
import { ReactRouterAuth } from "../src/index.js";

const fixture = passkeyFixture();
const auth = ReactRouterAuth({ ...fixture.config, trustHost: true });

function request(cookie?: string): Request {
  return new Request("http://127.0.0.1:5173/account", { headers: cookie ? { cookie } : {} });
}

describe("server functions in loaders and actions", () => {
  it("passkeys(request) manages the signed-in user's passkeys and refuses another user's (IDOR)", async () => {
    await expectOwnPasskeysOnly(fixture, (cookie) => auth.passkeys(request(cookie)));
  });

  it("actionRunner(request, headers) appends the cookies an action answers to headers", async () => {
    const headers = new Headers();
    const answer = await auth.actionRunner(request(), headers)({ action: "csrf" });
    expect(answer.body).toEqual({ csrfToken: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(headers.getSetCookie()).toEqual([expect.stringMatching(/^authjs\.csrf-token=/)]);
  });
});
