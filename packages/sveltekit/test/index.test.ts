/**
 * The entry point `@tessera/sveltekit`: `SvelteKitAuth` wired to SvelteKit's modules, and the
 * names it re-exports. `$app/environment`, `$app/paths` and `$env/dynamic/private` exist only
 * inside a SvelteKit build, so this file gives stand-ins for them (app.test.ts runs the real ones
 * in a built app).
 */
import type { RequestEvent } from "@sveltejs/kit";
import * as core from "@tessera/core";
import type { Adapter, AdapterSession, AdapterUser } from "@tessera/core/adapters";
import * as errors from "@tessera/core/errors";
import Credentials from "@tessera/core/providers/credentials";
import type * as KitAdapters from "@tessera/sveltekit/adapters";
import { describe, expect, expectTypeOf, it, vi } from "vitest";

const kitEnv = vi.hoisted(() => ({ env: {} as Record<string, string | undefined> }));
vi.mock("$app/environment", () => ({ browser: false, building: false, dev: false, version: "" }));
vi.mock("$app/paths", () => ({ base: "/base", assets: "" }));
vi.mock("$env/dynamic/private", () => kitEnv);

const { AuthError, CredentialsSignin, customFetch, SvelteKitAuth } = await import(
  "@tessera/sveltekit"
);

describe("@tessera/sveltekit", () => {
  it("re-exports AuthError, CredentialsSignin and customFetch from the core", () => {
    expect(AuthError).toBe(errors.AuthError);
    expect(CredentialsSignin).toBe(errors.CredentialsSignin);
    expect(customFetch).toBe(core.customFetch);
  });

  it("wires SvelteKitAuth to $env/dynamic/private and $app/paths' base", async () => {
    // Filled before SvelteKitAuth() runs, as SvelteKit's Server.init does before loading hooks.
    Object.assign(kitEnv.env, {
      AUTH_SECRET: "index-test-secret-at-least-32-characters",
      AUTH_URL: "https://app.example",
    });
    const { handle } = SvelteKitAuth({ providers: [Credentials({ authorize: () => null })] });
    const url = "http://10.0.0.7:3000/base/auth/providers";
    const event = { url: new URL(url), request: new Request(url), locals: {} } as RequestEvent;
    const response = await handle({ event, resolve: async () => new Response("app page") });
    expect(await response.json()).toMatchObject({
      credentials: { callbackUrl: "https://app.example/base/auth/callback/credentials" },
    });
    expect(event.locals.getSession).toBe(event.locals.auth);
  });

  it("has @tessera/sveltekit/adapters with the core's adapter types", async () => {
    // Types only, as @auth/sveltekit/adapters: the module loads and exports no values.
    expect(Object.keys(await import("@tessera/sveltekit/adapters"))).toEqual([]);
    expectTypeOf<KitAdapters.Adapter>().toEqualTypeOf<Adapter>();
    expectTypeOf<KitAdapters.AdapterUser>().toEqualTypeOf<AdapterUser>();
    expectTypeOf<KitAdapters.AdapterSession>().toEqualTypeOf<AdapterSession>();
  });
});
