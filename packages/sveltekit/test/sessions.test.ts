/**
 * Session listing and revocation through `createSvelteKitAuth`: the sessions actions answered by
 * `handle`, the client IP taken from `event.getClientAddress()`, and the server functions
 * `listSessions`, `revokeSession`, `revokeOtherSessions`. As in sveltekit.test.ts, the request
 * event is a stand-in around a real `Request` (SvelteKit itself runs in app.test.ts).
 */
import type { RequestEvent } from "@sveltejs/kit";
import Credentials from "@tessera/core/providers/credentials";
import { createMemoryStore, MemoryAdapter } from "@tessera/memory";
import { describe, expect, it } from "vitest";
import { createSvelteKitAuth } from "../src/server.js";

const ORIGIN = "http://localhost:5173";
const auth = createSvelteKitAuth(
  {
    adapter: MemoryAdapter(createMemoryStore()),
    providers: [
      Credentials({
        credentials: { username: {}, password: {} },
        authorize: ({ username, password }) =>
          password === "pw"
            ? { id: `u-${String(username)}`, email: `${String(username)}@example.com` }
            : null,
      }),
    ],
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
  },
  {
    env: () => ({
      AUTH_SECRET: "sveltekit-sessions-secret-at-least-32-chars",
      AUTH_TRUST_HOST: "true",
    }),
    base: "",
    building: false,
    dev: false,
  },
);

/** A browser: cookies kept between events, a fixed client address and User-Agent. */
class Browser {
  readonly jar = new Map<string, string>();
  constructor(
    readonly address: string,
    readonly userAgent: string,
  ) {}

  event(path: string, init: RequestInit = {}): RequestEvent {
    const headers = new Headers(init.headers);
    headers.set("user-agent", this.userAgent);
    if (this.jar.size) headers.set("cookie", [...this.jar].map(([n, v]) => `${n}=${v}`).join("; "));
    const jar = this.jar;
    return {
      url: new URL(path, ORIGIN),
      request: new Request(new URL(path, ORIGIN), { ...init, headers }),
      locals: {} as App.Locals,
      getClientAddress: () => this.address,
      cookies: {
        set: (name: string, value: string) => (value ? jar.set(name, value) : jar.delete(name)),
        get: (name: string) => jar.get(name),
        getAll: () => [],
        delete: (name: string) => void jar.delete(name),
        serialize: () => "",
      },
    } as unknown as RequestEvent;
  }

  async fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const response = await auth.handle({
      event: this.event(path, init),
      resolve: async () => new Response("app page"),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const [name = "", value = ""] = pair.split("=");
      if (value && !/max-age=0/i.test(line)) this.jar.set(name, value);
      else this.jar.delete(name);
    }
    return response;
  }

  async signIn(username: string): Promise<void> {
    const { csrfToken } = (await (await this.fetch("/auth/csrf")).json()) as { csrfToken: string };
    const response = await this.fetch("/auth/callback/credentials", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken, username, password: "pw" }),
    });
    expect(response.status).toBe(302);
  }
}

describe("sessions in SvelteKit", () => {
  it("records the address SvelteKit reports and lists, revokes one and revokes the others", async () => {
    const first = new Browser("198.51.100.1", "First");
    const second = new Browser("198.51.100.2", "Second");
    const third = new Browser("198.51.100.3", "Third");
    for (const browser of [first, second, third]) await browser.signIn("ada");

    const listed = await auth.listSessions(first.event("/account"));
    expect(listed?.[0]).toMatchObject({ current: true, ip: "198.51.100.1", userAgent: "First" });
    expect(
      listed
        ?.slice(1)
        .map((s) => [s.current, s.ip, s.userAgent])
        .sort(),
    ).toEqual([
      [false, "198.51.100.2", "Second"],
      [false, "198.51.100.3", "Third"],
    ]);
    const viaHttp = await (await first.fetch("/auth/sessions")).json();
    expect(viaHttp).toEqual(listed);

    const secondId = listed?.find((s) => s.userAgent === "Second")?.id ?? "";
    expect(await auth.revokeSession(first.event("/account"), secondId)).toBe(1);
    expect(await (await second.fetch("/auth/session")).json()).toBeNull();
    expect(await auth.revokeOtherSessions(first.event("/account"))).toBe(1);
    expect(await (await third.fetch("/auth/session")).json()).toBeNull();
    expect(await auth.listSessions(first.event("/account"))).toHaveLength(1);
  });
});
