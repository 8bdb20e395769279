/**
 * Three extensions in one config: two-factor and two made by `defineExtension`, their server
 * functions through the runners of three integrations. Types stay shallow: an extension is an
 * opaque handle, so combining them adds no inference (no TS2589, no slower `tsc`).
 */
import { type ActionRow, type AuthConfig, actionRunner, defineExtension } from "@tessera/core";
import Credentials from "@tessera/core/providers/credentials";
import {
  type TwoFactorAdapter,
  type TwoFactorStatus,
  twoFactor,
  twoFactorApi,
} from "@tessera/core/two-factor";
import { actionRunner as expressRunner } from "@tessera/express";
import { MemoryAdapter } from "@tessera/memory";
import type { NextAuthResult } from "@tessera/next";
import type { SvelteKitAuthResult } from "@tessera/sveltekit";
import type { Request as ExpressRequest } from "express";

const ping: ActionRow = {
  name: "ping",
  methods: ["GET"],
  tail: "nothing",
  csrf: "none",
  page: false,
  callbackUrl: false,
  reach: "both",
  handler: () => ({ status: 200, body: "pong" }),
};

const organisations = defineExtension({
  name: "organisations",
  actions: [{ ...ping, name: "organisations", tail: ["list", "create"] }],
  requires: [{ of: "adapter", methods: ["listOrganisations"], implementedBy: "@tessera/sql" }],
});

const accountFlows = defineExtension({
  name: "account-flows",
  actions: [ping],
  signInSteps: [{ name: "verify-email", run: () => ({ continue: true }) }],
});

const adapter = MemoryAdapter();
// The memory adapter carries the two-factor methods in its type.
const storage: TwoFactorAdapter = adapter;

export const config: AuthConfig = {
  adapter,
  providers: [Credentials({ authorize: () => null })],
  experimental: {
    extensions: [twoFactor({ issuer: "Example", required: true }), organisations, accountFlows],
  },
};

export async function everywhere(
  request: Request,
  req: ExpressRequest,
  next: NextAuthResult,
  kit: SvelteKitAuthResult,
  event: Parameters<SvelteKitAuthResult["actionRunner"]>[0],
): Promise<(TwoFactorStatus | null)[]> {
  const runners = [
    actionRunner(request, config),
    expressRunner(req, config),
    await next.actionRunner(),
    await kit.actionRunner(event),
  ];
  const codes: string[] = await twoFactorApi(runners[0] as (typeof runners)[0]).activate("123456");
  void codes;
  void storage;
  return Promise.all(runners.map((run) => twoFactorApi(run).status()));
}

// @ts-expect-error An extension is made by defineExtension, not written as a literal.
export const forged: AuthConfig = { experimental: { extensions: [{ name: "x" }] } };

// @ts-expect-error Options are checked: digits are 6, 7 or 8.
twoFactor({ totp: { digits: 5 } });
