/**
 * A NestJS app on its Fastify adapter, as the getting-started page shows it: TesseraAuth
 * registered on the adapter's instance, and a guard that reads the session with getSession. Real
 * Nest and real Fastify, driven through Fastify's in-process HTTP (`inject`).
 *
 * The decorators are applied as plain calls: the workspace compiles TypeScript without
 * `experimentalDecorators`, and what Nest sees is the same metadata.
 */
import {
  type CanActivate,
  Controller,
  type ExecutionContext,
  Get,
  Module,
  Req,
  UnauthorizedException,
  UseGuards,
} from "@nestjs/common";
import { NestFactory } from "@nestjs/core";
import { FastifyAdapter, type NestFastifyApplication } from "@nestjs/platform-fastify";
import Credentials from "@tessera/core/providers/credentials";
import type { FastifyRequest } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getSession, TesseraAuth } from "../src/index.js";

/** The guard of the docs: signed-out requests are refused with 401. */
class SessionGuard implements CanActivate {
  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (await getSession(request)) return true;
    throw new UnauthorizedException("Sign in first.");
  }
}

class ProfileController {
  async me(request: FastifyRequest) {
    const session = await request.auth;
    return { user: session?.user };
  }
}
Controller("profile")(ProfileController);
const me = Object.getOwnPropertyDescriptor(ProfileController.prototype, "me");
if (!me) throw new Error("ProfileController.me is missing");
Get()(ProfileController.prototype, "me", me);
UseGuards(SessionGuard)(ProfileController.prototype, "me", me);
Req()(ProfileController.prototype, "me", 0);

class AppModule {}
Module({ controllers: [ProfileController] })(AppModule);

let app: NestFastifyApplication;

beforeAll(async () => {
  app = await NestFactory.create<NestFastifyApplication>(AppModule, new FastifyAdapter(), {
    logger: false,
  });
  await app.register(TesseraAuth, {
    prefix: "/auth",
    secret: "nest-fastify-secret-of-at-least-32-chars",
    trustHost: true,
    providers: [
      Credentials({
        credentials: { username: {}, password: {} },
        authorize: ({ username, password }) =>
          username === "ada" && password === "lovelace"
            ? { id: "1", name: "Ada Lovelace", email: "ada@example.com" }
            : null,
      }),
    ],
  });
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
});

afterAll(async () => {
  await app?.close();
});

function pairs(header: string | string[] | number | undefined): string {
  const lines = header === undefined ? [] : Array.isArray(header) ? header : [String(header)];
  return lines.map((line) => line.slice(0, line.indexOf(";"))).join("; ");
}

describe("a NestJS guard over the Fastify adapter", () => {
  it("refuses the guarded route while signed out and lets the signed-in user through", async () => {
    const refused = await app.inject({ url: "/profile" });
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ message: "Sign in first." });

    const csrf = await app.inject({ url: "/auth/csrf" });
    const { csrfToken } = csrf.json() as { csrfToken: string };
    const signIn = await app.inject({
      method: "POST",
      url: "/auth/callback/credentials",
      headers: {
        cookie: pairs(csrf.headers["set-cookie"]),
        "content-type": "application/x-www-form-urlencoded",
      },
      payload: new URLSearchParams({ csrfToken, username: "ada", password: "lovelace" }).toString(),
    });
    expect(signIn.statusCode).toBe(302);
    const cookie = pairs(signIn.headers["set-cookie"]);
    expect(cookie).toContain("authjs.session-token=");

    const profile = await app.inject({ url: "/profile", headers: { cookie } });
    expect(profile.statusCode).toBe(200);
    expect(profile.json()).toEqual({ user: { name: "Ada Lovelace", email: "ada@example.com" } });
  });
});
