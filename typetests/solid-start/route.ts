// src/routes/api/auth/[...solidauth].ts and the session helpers of the @auth/solid-start guide,
// with Tessera's imports.

import type { APIEvent } from "@solidjs/start/server";
import GitHub from "@tessera/core/providers/github";
import {
  AuthError,
  CredentialsSignin,
  type GetSessionResult,
  getSession,
  type Session,
  SolidAuth,
  type SolidAuthConfig,
} from "@tessera/solid-start";
import type { Adapter } from "@tessera/solid-start/adapters";
import { getRequestEvent } from "solid-js/web";

export const authOpts: SolidAuthConfig = {
  providers: [
    GitHub({
      clientId: process.env.GITHUB_ID,
      clientSecret: process.env.GITHUB_SECRET,
    }),
  ],
  debug: false,
};

export const { GET, POST } = SolidAuth(authOpts);

/** The handlers take @solidjs/start 1.x's APIEvent… */
export async function currentShape(event: APIEvent): Promise<Response | undefined> {
  return event.request.method === "POST" ? POST(event) : GET(event);
}

/** …and solid-start 0.2's, which carries the request, env and the client's address. */
export async function legacyShape(event: {
  request: Request;
  env: Record<string, unknown>;
  clientAddress: string;
  locals: Record<string, unknown>;
  params: Record<string, string>;
}): Promise<Response | undefined> {
  return GET(event);
}

export const withPrefix = SolidAuth({ ...authOpts, prefix: "/auth" });

/** A "use server" function reading the session. */
export async function getUser(): Promise<Session["user"] | null> {
  const event = getRequestEvent();
  if (!event) return null;
  const session = await getSession(event.request, authOpts);
  return session?.user ?? null;
}

export const pending: GetSessionResult = getSession(new Request("http://localhost/"), authOpts);

export function describeError(error: unknown): string {
  if (error instanceof CredentialsSignin) return `credentials: ${error.code}`;
  if (error instanceof AuthError) return error.type;
  return "unknown";
}

export const adapter: Adapter = {};

// @ts-expect-error: a Request is not an event; the handlers take `{ request }`
void GET(new Request("http://localhost/api/auth/session"));
// @ts-expect-error: getSession needs the config
void getSession(new Request("http://localhost/"));
