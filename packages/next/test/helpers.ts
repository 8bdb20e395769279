/**
 * Test helpers for the Next.js integration: a browser-like cookie jar and the demo configuration.
 */
import Credentials from "@tessera/core/providers/credentials";
import type { NextAuthConfig } from "@tessera/next";

export const SECRET = "next-integration-test-secret-of-32+-chars";
export const DEMO_USER = { id: "u-1", name: "Ada Lovelace", email: "ada@example.com" };
export const DEMO_PASSWORD = "correct horse battery staple";

/** A credentials-only config whose one user is {@link DEMO_USER}. */
export function demoConfig(overrides: Partial<NextAuthConfig> = {}): NextAuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    providers: [
      Credentials({
        credentials: { email: {}, password: {} },
        authorize: ({ email, password }) =>
          email === DEMO_USER.email && password === DEMO_PASSWORD ? DEMO_USER : null,
      }),
    ],
    ...overrides,
  };
}

/** Keeps cookies between requests as a browser does (deletions included). */
export class CookieJar {
  readonly cookies = new Map<string, string>();

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(";").map((part) => part.trim());
      const separator = pair.indexOf("=");
      const name = pair.slice(0, separator);
      const value = pair.slice(separator + 1);
      const expired = attributes.some((attribute) => {
        const [key = "", val = ""] = attribute.split("=");
        if (key.toLowerCase() === "max-age") return Number(val) <= 0;
        if (key.toLowerCase() === "expires") return Date.parse(val) <= Date.now();
        return false;
      });
      if (expired || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  /** Request headers carrying the jar's cookies. */
  headers(extra: Record<string, string> = {}): Headers {
    const headers = new Headers(extra);
    if (this.cookies.size) headers.set("cookie", this.header());
    return headers;
  }
}
