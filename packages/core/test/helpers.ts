/**
 * Test helpers: drive `Auth()` like a browser would, with a cookie jar and manual redirects.
 */
import { Auth, type AuthConfig } from "@tessera/core";
import { EncryptJWT } from "jose";
import { deriveKey } from "../src/lib/crypto/jwe.js";
import { parseSetCookie } from "./set-cookie.js";

export const ORIGIN = "http://localhost:3000";
export const SECRET = "test-secret-with-at-least-32-characters!!";

/** A browser-like client for one config: keeps cookies between requests. */
export class Client {
  readonly jar = new Map<string, string>();
  constructor(
    readonly config: AuthConfig | ((request: Request) => AuthConfig | Promise<AuthConfig>),
    readonly origin = ORIGIN,
  ) {}

  cookieHeader(): string {
    return [...this.jar].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  /** Applies `Set-Cookie` headers to the jar (deletions included). */
  store(response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const cookie = parseSetCookie(header);
      if (cookie.maxAge === 0 || cookie.value === "") this.jar.delete(cookie.name);
      else this.jar.set(cookie.name, cookie.value);
    }
  }

  async request(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.jar.size && !headers.has("cookie")) headers.set("cookie", this.cookieHeader());
    const response = await Auth(
      new Request(new URL(path, this.origin), { ...init, headers }),
      this.config,
    );
    this.store(response);
    return response;
  }

  get(path: string, headers: Record<string, string> = {}): Promise<Response> {
    return this.request(path, { headers });
  }

  /** POSTs a form (URL-encoded), as the built-in pages do. */
  post(path: string, form: Record<string, string>, headers: Record<string, string> = {}) {
    return this.request(path, {
      method: "POST",
      body: new URLSearchParams(form),
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    });
  }

  postJson(path: string, body: unknown, headers: Record<string, string> = {}) {
    return this.request(path, {
      method: "POST",
      body: JSON.stringify(body),
      headers: { "content-type": "application/json", ...headers },
    });
  }

  async csrfToken(): Promise<string> {
    const response = await this.get("/auth/csrf");
    const { csrfToken } = (await response.json()) as { csrfToken: string };
    return csrfToken;
  }

  async session(): Promise<Record<string, unknown> | null> {
    const response = await this.get("/auth/session");
    return (await response.json()) as Record<string, unknown> | null;
  }
}

/** Collects what a logger receives, so tests can assert on logged errors and warnings. */
export function recordingLogger() {
  const errors: Error[] = [];
  const warnings: string[] = [];
  const debug: string[] = [];
  return {
    errors,
    warnings,
    debug,
    logger: {
      error: (e: Error) => void errors.push(e),
      warn: (code: string) => void warnings.push(code),
      debug: (message: string) => void debug.push(message),
    },
  };
}

/**
 * A real session JWE (dir + A256CBC-HS512, the key and `kid` Tessera derives) holding exactly
 * `claims`: unlike `encode`, it adds no `iat`/`exp`/`jti`, so tests can choose them.
 */
export async function sealSessionToken(
  claims: Record<string, unknown>,
  { secret = SECRET, salt = "authjs.session-token" }: { secret?: string; salt?: string } = {},
): Promise<string> {
  const { key, kid } = await deriveKey("A256CBC-HS512", secret, salt);
  return new EncryptJWT(claims)
    .setProtectedHeader({ alg: "dir", enc: "A256CBC-HS512", kid })
    .encrypt(key);
}
