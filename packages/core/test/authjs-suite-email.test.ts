/**
 * Auth.js v5's authorize.test.ts (next-auth@5.0.0-beta.32) checked against Tessera: an e-mail
 * provider with an adapter of only the methods e-mail sign-in calls, through `@auth/core` (the
 * devDependency) and Tessera alike. In a file of its own because @auth/core remembers in module
 * state that an e-mail provider was configured once (its assert.ts `hasEmail`), and then refuses
 * every later configuration without an adapter in the same process.
 */
import { Auth as AuthJs, skipCSRFCheck as authjsSkipCSRFCheck } from "@auth/core";
import type { Adapter as AuthJsAdapter } from "@auth/core/adapters";
import AuthJsSendGrid from "@auth/core/providers/sendgrid";
import { Auth, skipCSRFCheck } from "@tessera/core";
import type { Adapter } from "@tessera/core/adapters";
import SendGrid from "@tessera/core/providers/sendgrid";
import { describe, expect, it } from "vitest";
import {
  answerOf,
  both,
  CONFIGURATION_ERROR,
  common,
  type Handler,
  type Side,
} from "./authjs-suite-helpers.js";
import { ORIGIN, recordingLogger } from "./helpers.js";

/** An adapter of exactly the three methods Auth.js requires for e-mail sign-in; nobody exists. */
function emailOnlyAdapter() {
  return {
    createVerificationToken: async (token: { identifier: string }) => token,
    useVerificationToken: async () => null,
    getUserByEmail: async () => null,
  };
}

function emailSignIn(init: { signIn: () => boolean | string; strategy?: "jwt" }) {
  const session = init.strategy ? { session: { strategy: init.strategy } } : {};
  const sides: Record<Side, Handler> = {
    authjs: (request) =>
      AuthJs(request, {
        ...common,
        ...session,
        skipCSRFCheck: authjsSkipCSRFCheck,
        adapter: emailOnlyAdapter() as unknown as AuthJsAdapter,
        providers: [AuthJsSendGrid],
        callbacks: { signIn: init.signIn },
      }),
    tessera: (request) =>
      Auth(request, {
        ...common,
        ...session,
        skipCSRFCheck,
        adapter: emailOnlyAdapter() as unknown as Adapter,
        providers: [SendGrid],
        callbacks: { signIn: init.signIn },
      }),
  };
  return both(sides, "/auth/signin/sendgrid", {
    method: "POST",
    body: new URLSearchParams({ email: "ada@example.com" }),
  });
}

describe("adapters need only the methods the configured flows call (authorize.test.ts)", () => {
  const refuse = (): boolean => false;
  const toPath = (): string => "/wrong";
  const offSite = (): string => "http://b/wrong";
  it.each([
    ["the signIn callback refuses", refuse, `${ORIGIN}/auth/error?error=AccessDenied`],
    ["the signIn callback redirects to a path", toPath, `${ORIGIN}/wrong`],
    ["the signIn callback redirects off the site", offSite, ORIGIN],
  ] as const)(
    "e-mail sign-in with a three-method adapter and JWT sessions: %s, as in Auth.js",
    async (_, signIn, expected) => {
      const { authjs, tessera } = await emailSignIn({ signIn, strategy: "jwt" });
      expect(authjs).toEqual({ status: 302, location: expected, body: "" });
      expect(tessera).toEqual(authjs);
    },
  );

  it("e-mail sign-in with a three-method adapter and JWT sessions: session reads answer null, as in Auth.js", async () => {
    const sides: Record<Side, Handler> = {
      authjs: (request) =>
        AuthJs(request, {
          ...common,
          session: { strategy: "jwt" },
          adapter: emailOnlyAdapter() as unknown as AuthJsAdapter,
          providers: [AuthJsSendGrid],
        }),
      tessera: (request) =>
        Auth(request, {
          ...common,
          session: { strategy: "jwt" },
          adapter: emailOnlyAdapter() as unknown as Adapter,
          providers: [SendGrid],
        }),
    };
    const { authjs, tessera } = await both(sides, "/auth/session");
    expect(authjs).toEqual({ status: 200, location: null, body: null });
    expect(tessera).toEqual(authjs);
  });

  it("the same adapter with database sessions (the default with an adapter) is refused at once, naming what the sessions need (compatibility.md)", async () => {
    const log = recordingLogger();
    const { authjs } = await emailSignIn({ signIn: () => false });
    expect(authjs.location).toBe(`${ORIGIN}/auth/error?error=AccessDenied`);
    const response = await Auth(
      new Request(`${ORIGIN}/auth/signin/sendgrid`, {
        method: "POST",
        body: new URLSearchParams({ email: "ada@example.com" }),
      }),
      {
        ...common,
        logger: log.logger,
        skipCSRFCheck,
        adapter: emailOnlyAdapter() as unknown as Adapter,
        providers: [SendGrid],
      },
    );
    expect(await answerOf(response)).toEqual({
      status: 500,
      location: null,
      body: CONFIGURATION_ERROR,
    });
    const [error] = log.errors;
    expect(error?.name).toBe("MissingAdapterMethods");
    expect(error?.message).toContain(
      "the database session strategy needs `createSession`, `getSessionAndUser`, `updateSession`, `deleteSession`",
    );
    expect(error?.message).not.toContain('e-mail sign-in ("sendgrid")');
  });

  it("names each flow with the methods it needs when the adapter lacks them", async () => {
    const log = recordingLogger();
    await Auth(new Request(`${ORIGIN}/auth/session`), {
      ...common,
      logger: log.logger,
      session: { strategy: "jwt" },
      adapter: { getUserByEmail: async () => null } as unknown as Adapter,
      providers: [SendGrid],
    });
    expect(log.errors[0]?.message).toContain(
      'e-mail sign-in ("sendgrid") needs `createVerificationToken`, `useVerificationToken`.',
    );
  });

  it("warns that new users cannot sign in when only their first sign-in's methods are missing", async () => {
    const log = recordingLogger();
    await Auth(new Request(`${ORIGIN}/auth/session`), {
      ...common,
      // An app of its own: warnings are logged once per app (per secret) in a process.
      secret: "warned-app-secret-with-at-least-32-characters",
      logger: log.logger,
      session: { strategy: "jwt" },
      adapter: emailOnlyAdapter() as unknown as Adapter,
      providers: [SendGrid],
    });
    expect(log.errors).toEqual([]);
    expect(log.warnings).toContain("adapter-lacks-sign-up-methods");
  });
});

describe("adapter-lacks-sign-up-methods with a lazy configuration", () => {
  it("is logged once per app, not on every request that resolves the config again", async () => {
    const log = recordingLogger();
    const adapter = emailOnlyAdapter() as unknown as Adapter;
    const lazy = () => ({
      ...common,
      secret: "one-app-secret-with-at-least-32-characters",
      logger: log.logger,
      session: { strategy: "jwt" as const },
      adapter,
      providers: [SendGrid],
    });
    for (let i = 0; i < 3; i++) await Auth(new Request(`${ORIGIN}/auth/session`), lazy);
    expect(log.warnings.filter((code) => code === "adapter-lacks-sign-up-methods")).toHaveLength(1);
  });
});
