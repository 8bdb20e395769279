/**
 * `passkeys(event)` of `createSvelteKitAuth` in load functions and form actions: it lists,
 * renames and deletes the signed-in user's passkeys and refuses another user's (IDOR). As in
 * sessions.test.ts, the request event is a stand-in around a real `Request` (SvelteKit itself
 * runs in app.test.ts); the memory adapter holds the passkeys.
 */
import type { RequestEvent } from "@sveltejs/kit";
import { describe, it } from "vitest";
import { expectOwnPasskeysOnly, passkeyFixture } from "../../core/test/fixtures/passkeys.js";
import { createSvelteKitAuth } from "../src/server.js";

const fixture = passkeyFixture();
const auth = createSvelteKitAuth(fixture.config, {
  env: () => ({ AUTH_TRUST_HOST: "true" }),
  base: "",
  building: false,
  dev: false,
});

/** The event of a request to the app's account page, with `cookie`. */
function accountEvent(cookie: string | undefined): RequestEvent {
  const url = new URL("http://localhost:5173/account");
  return {
    url,
    request: new Request(url, { headers: cookie ? { cookie } : {} }),
    locals: {} as App.Locals,
    getClientAddress: () => "203.0.113.7",
    cookies: { set() {}, get: () => undefined, getAll: () => [], delete() {}, serialize: () => "" },
  } as unknown as RequestEvent;
}

describe("passkeys(event)", () => {
  it("manages the signed-in user's passkeys and refuses another user's (IDOR)", async () => {
    await expectOwnPasskeysOnly(fixture, (cookie) => auth.passkeys(accountEvent(cookie)));
  });
});
