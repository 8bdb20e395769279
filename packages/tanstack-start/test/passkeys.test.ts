/**
 * `passkeys(request)` and `actionRunner(request)` of `TanStackAuth` with an explicit request,
 * outside a built app: passkey management for the signed-in user only (IDOR refused), and the
 * error that names the fix when no request is given outside TanStack Start's request context.
 * The built app, with that context, is app.test.ts; the memory adapter holds the passkeys.
 */
import { AuthError } from "@tessera/core/errors";
import { describe, expect, it } from "vitest";
import { expectOwnPasskeysOnly, passkeyFixture } from "../../core/test/fixtures/passkeys.js";
import { TanStackAuth } from "../src/index.js";

const fixture = passkeyFixture();
const auth = TanStackAuth({ ...fixture.config, trustHost: true });

describe("server functions with an explicit request", () => {
  it("passkeys(request) manages the signed-in user's passkeys and refuses another user's (IDOR)", async () => {
    await expectOwnPasskeysOnly(fixture, (cookie) =>
      auth.passkeys(
        new Request("http://127.0.0.1:3000/account", { headers: cookie ? { cookie } : {} }),
      ),
    );
  });

  it("names the fix when called without a request outside TanStack Start's request context", () => {
    expect(() => auth.passkeys()).toThrow(AuthError);
    expect(() => auth.actionRunner()).toThrow(/pass the Request: actionRunner\(request\)/);
  });
});
