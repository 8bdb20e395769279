// auth-astro's auth.config.ts: defineConfig with the core options and the route prefix.
import { defineConfig } from "@tessera/astro";
import Credentials from "@tessera/core/providers/credentials";
import GitHub from "@tessera/core/providers/github";

const config = defineConfig({
  prefix: "/api/auth",
  providers: [
    GitHub({
      clientId: process.env.GITHUB_CLIENT_ID,
      clientSecret: process.env.GITHUB_CLIENT_SECRET,
    }),
    Credentials({
      credentials: { username: {}, password: { type: "password" } },
      authorize: ({ username }) => (username === "ada" ? { id: "1", name: "Ada" } : null),
    }),
  ],
  callbacks: {
    session({ session, token }) {
      if (token.sub) session.user.id = token.sub;
      return session;
    },
  },
});
const prefix: string | undefined = config.prefix;
const basePath: string | undefined = config.basePath;
export default { config, prefix, basePath };

// @ts-expect-error providers is a list
defineConfig({ providers: "github" });
