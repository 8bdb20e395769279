/**
 * The server functions of `@tessera/astro/server` (`passkeys(Astro)`, `actionRunner(Astro)`),
 * through `contextActionRunner`, which they wrap with the `auth:config` default: passkey
 * management for the signed-in user only (IDOR refused), and an action's cookies set through
 * `context.cookies`. Astro keeps its `AstroCookies` class out of its public exports, so the
 * cookies here are a recording stand-in with its `set` signature; the built app (app.test.ts)
 * runs Astro's own. The memory adapter holds the passkeys.
 */
import { passkeysApi } from "@tessera/core";
import { describe, expect, it } from "vitest";
import { expectOwnPasskeysOnly, passkeyFixture } from "../../core/test/fixtures/passkeys.js";
import { defineConfig } from "../src/config.js";
import { type AuthServerContext, contextActionRunner } from "../src/handlers.js";

const fixture = passkeyFixture();
const config = defineConfig({ ...fixture.config });

/** What `context.cookies.set` was called with. */
type CookieSet = [name: string, value: string, options: Record<string, unknown>];

function context(cookie?: string, set: CookieSet[] = []): AuthServerContext {
  const request = new Request("http://127.0.0.1:4321/account", {
    headers: cookie ? { cookie } : {},
  });
  const cookies = {
    set: (name: string, value: string, options: Record<string, unknown>) => {
      set.push([name, value, options]);
    },
  } as unknown as AuthServerContext["cookies"];
  return { request, clientAddress: "203.0.113.7", cookies };
}

describe("server functions with Astro's context", () => {
  it("passkeys manage the signed-in user's passkeys and refuse another user's (IDOR)", async () => {
    await expectOwnPasskeysOnly(fixture, (cookie) =>
      passkeysApi(contextActionRunner(context(cookie), config)),
    );
  });

  it("actionRunner sets the cookies an action answers through context.cookies", async () => {
    const set: CookieSet[] = [];
    const answer = await contextActionRunner(context(undefined, set), config)({ action: "csrf" });
    const { csrfToken } = answer.body as { csrfToken: string };
    expect(csrfToken).toMatch(/^[0-9a-f]{64}$/);
    expect(set).toEqual([
      [
        "authjs.csrf-token",
        expect.stringContaining("|"),
        expect.objectContaining({ path: "/", httpOnly: true, sameSite: "lax", encode: String }),
      ],
    ]);
  });
});
