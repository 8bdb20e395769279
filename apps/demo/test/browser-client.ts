/**
 * A browser for the demo's tests over real HTTP: a cookie jar, a user agent, manual redirects,
 * and the demo user's password sign-in.
 */
import { DEMO_USER } from "../src/database.js";

/** One browser: keeps its cookies between requests. */
export class Browser {
  readonly cookies = new Map<string, string>();
  constructor(
    readonly origin: string,
    readonly userAgent: string,
  ) {}

  async fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set("user-agent", this.userAgent);
    if (this.cookies.size > 0)
      headers.set("cookie", [...this.cookies].map(([n, v]) => `${n}=${v}`).join("; "));
    const response = await fetch(new URL(path, this.origin), {
      ...init,
      headers,
      redirect: "manual",
    });
    for (const header of response.headers.getSetCookie()) {
      const [pair = ""] = header.split(";");
      const name = pair.slice(0, pair.indexOf("="));
      const value = pair.slice(pair.indexOf("=") + 1);
      if (value === "" || /max-age=0/i.test(header)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  /** Signs the demo user in with their password. */
  async signIn(): Promise<void> {
    const { csrfToken } = (await (await this.fetch("/auth/csrf")).json()) as { csrfToken: string };
    await this.fetch("/auth/callback/password", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken, ...DEMO_USER, callbackUrl: "/" }),
    });
  }

  post(path: string, form: Record<string, string>, origin = this.origin): Promise<Response> {
    return this.fetch(path, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin },
      body: new URLSearchParams(form),
    });
  }

  async signedIn(): Promise<boolean> {
    return (await (await this.fetch("/auth/session")).json()) !== null;
  }
}
