// v4's module augmentation, under the new module names.
import type { DefaultSession } from "@tessera/next-auth";

declare module "@tessera/next-auth" {
  interface Session {
    user: { role?: string } & DefaultSession["user"];
  }
}

declare module "@tessera/next-auth/jwt" {
  interface JWT {
    role?: string;
  }
}
