/**
 * The code the guides tell readers to copy works when run as printed: the password hashing of
 * the credentials guide, and the Request/Response server of "Plain Node and any Request/Response
 * runtime", which must end with a working sign-in and a page that reads the session.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importSnippet, removeImportedSnippets, snippetCode } from "./snippet-module.js";

interface Passwords {
  hashPassword(password: string): Promise<string>;
  passwordMatches(password: string, stored: string): Promise<boolean>;
}

interface FetchServer {
  default: { fetch(request: Request): Promise<Response> };
}

/** The stand-ins of docs/.vitepress/snippet-globals.d.ts, as an application would define them. */
interface SnippetGlobals {
  db: { users: { findByEmail(email: string): Promise<unknown> } };
  verifyPassword(user: { passwordHash: string }, password: string): Promise<boolean>;
  escapeHtml(text: string): string;
}

let passwords: Passwords;

beforeAll(async () => {
  passwords = await importSnippet<Passwords>("docs/guides/credentials.md", "passwords.ts");
});

afterAll(removeImportedSnippets);

describe("credentials guide: scrypt password hashing", () => {
  it("hashes with a random salt and accepts only the right password", async () => {
    const stored = await passwords.hashPassword("correct horse battery staple");
    expect(stored).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(await passwords.hashPassword("correct horse battery staple")).not.toBe(stored);
    expect(await passwords.passwordMatches("correct horse battery staple", stored)).toBe(true);
    expect(await passwords.passwordMatches("correct horse battery stapler", stored)).toBe(false);
  });

  it("never matches a malformed or tampered hash, nor the dummy hash used for unknown addresses", async () => {
    const stored = await passwords.hashPassword("pw");
    expect(await passwords.passwordMatches("pw", stored.replace(/^scrypt/, "bcrypt"))).toBe(false);
    expect(await passwords.passwordMatches("pw", stored.replace("$32768$", "$0$"))).toBe(false);
    expect(await passwords.passwordMatches("pw", "scrypt$32768$8$1$")).toBe(false);
    const dummy = /DUMMY_HASH =\s*"([^"]+)"/.exec(
      snippetCode("docs/guides/credentials.md", "auth.ts"),
    );
    expect(dummy?.[1]).toBeDefined();
    expect(await passwords.passwordMatches("", dummy?.[1] ?? "")).toBe(false);
  });
});

describe("getting started on Request/Response runtimes", () => {
  let server: FetchServer["default"];

  beforeAll(async () => {
    process.env.AUTH_SECRET ??= "getting-started-test-secret-of-some-length";
    const user = {
      id: "u1",
      name: "Ada",
      email: "ada@example.com",
      image: null,
      passwordHash: await passwords.hashPassword("lovelace"),
    };
    const globals: SnippetGlobals = {
      db: { users: { findByEmail: async (email) => (email === user.email ? user : null) } },
      verifyPassword: (found, password) => passwords.passwordMatches(password, found.passwordHash),
      escapeHtml: (text) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`),
    };
    Object.assign(globalThis, globals);
    server = (await importSnippet<FetchServer>("docs/getting-started/node.md", "server.ts"))
      .default;
  });

  /** Signs in with the built-in flow: CSRF token, then the credentials form post. */
  async function signIn(password: string): Promise<{ location: string | null; cookie: string }> {
    const csrf = await server.fetch(new Request("http://localhost:3000/auth/csrf"));
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const csrfCookie = csrf.headers.getSetCookie().map((line) => line.split(";")[0]);
    const response = await server.fetch(
      new Request("http://localhost:3000/auth/callback/credentials", {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          cookie: csrfCookie.join("; "),
        },
        body: new URLSearchParams({ csrfToken, email: "ada@example.com", password }),
      }),
    );
    const cookie = response.headers
      .getSetCookie()
      .map((line) => line.split(";")[0])
      .find((pair) => pair?.startsWith("authjs.session-token="));
    return { location: response.headers.get("location"), cookie: cookie ?? "" };
  }

  it("signs in with the right password, and the home page reads the session", async () => {
    const before = await server.fetch(new Request("http://localhost:3000/"));
    expect(await before.text()).toContain('href="/auth/signin"');
    const { cookie } = await signIn("lovelace");
    expect(cookie).toMatch(/^authjs\.session-token=.+/);
    const home = await server.fetch(new Request("http://localhost:3000/", { headers: { cookie } }));
    expect(await home.text()).toContain("Signed in as ada@example.com");
  });

  it("refuses a wrong password with CredentialsSignin and no session", async () => {
    const { location, cookie } = await signIn("wrong");
    expect(location).toContain("error=CredentialsSignin");
    expect(cookie).toBe("");
  });
});
