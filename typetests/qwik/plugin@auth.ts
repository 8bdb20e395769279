// src/routes/plugin@auth.ts of the @auth/qwik guide, with Tessera's imports. (In the workspace,
// Qwik is installed under packages/qwik only: tsconfig.json points the compiler there.)

import type { RequestEventCommon } from "@builder.io/qwik-city";
import Credentials from "@tessera/core/providers/credentials";
import GitHub from "@tessera/core/providers/github";
import { QwikAuth$, type QwikAuthConfig } from "@tessera/qwik";

export const { onRequest, useSession, useSignIn, useSignOut } = QwikAuth$(() => ({
  providers: [GitHub],
}));

/** The config read from the request event: the platform's variables, a secret of its own. */
export const lazy = QwikAuth$(
  (event: RequestEventCommon): QwikAuthConfig => ({
    providers: [
      GitHub({
        clientId: event.env.get("GITHUB_ID"),
        clientSecret: event.env.get("GITHUB_SECRET"),
      }),
      Credentials({
        credentials: { email: {}, password: {} },
        authorize: async ({ email }) => (typeof email === "string" ? { id: "1", email } : null),
      }),
    ],
    secret: event.env.get("AUTH_SECRET"),
    trustHost: true,
    callbacks: {
      session: ({ session }) => session,
    },
  }),
);

// @ts-expect-error: the config is a function of the request event, not an object
QwikAuth$({ providers: [GitHub] });
