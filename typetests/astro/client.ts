// auth-astro/client's calls, in a page script.
import { signIn, signOut } from "@tessera/astro/client";

export async function run(username: string, password: string): Promise<void> {
  await signIn("github");
  await signIn("github", { callbackUrl: "/dashboard" }, { prompt: "login" });
  await signIn(undefined, { prefix: "/auth" });
  const result = await signIn("credentials", { username, password, redirect: false });
  if (result && !result.ok) console.log(result.status, result.error);
  await signOut();
  await signOut({ callbackUrl: "/", prefix: "/api/auth" });
  // @ts-expect-error redirect is a boolean
  await signOut({ redirect: "no" });
}
