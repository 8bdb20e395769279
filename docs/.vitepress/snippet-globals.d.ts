// Stand-ins for an application's own code, which documentation snippets call without defining
// (scripts/docs/snippets.mjs compiles every snippet with this file). Keep them few and plain.

/** A user row of the application's own database. */
interface AppUser {
  id: string;
  name: string | null;
  email: string;
  image: string | null;
  passwordHash: string;
}

/** The application's database access. */
declare const db: {
  users: { findByEmail(email: string): Promise<AppUser | null> };
  findUserByEmail(email: string): Promise<AppUser | null>;
};

/** The application's password check for a user. */
declare function verifyPassword(user: AppUser, password: string): Promise<boolean>;

/** The application's check of a username and password: the user, or null. */
declare function checkUser(username: unknown, password: unknown): Promise<AppUser | null>;

/** HTML-escapes text. */
declare function escapeHtml(text: string): string;

// What `svelte-kit sync` declares in an app, for the SvelteKit snippets.
declare module "$env/dynamic/private" {
  export const env: Record<string, string | undefined>;
}
