// The client of the @auth/solid-start guide (`@auth/solid-start/client`), with Tessera's imports.

import { type SignInResponse, signIn, signOut } from "@tessera/solid-start/client";

export async function signInWithGitHub(): Promise<void> {
  await signIn("github");
  await signIn("github", { redirectTo: "/dashboard" }, { prompt: "login" });
  await signIn();
}

export async function signInWithPassword(email: string, password: string): Promise<string> {
  const result: SignInResponse = await signIn("credentials", { email, password, redirect: false });
  if (result.error) return result.code ?? result.error;
  return result.url ?? "/";
}

export async function leave(): Promise<string> {
  await signOut();
  await signOut({ callbackUrl: "/" });
  const { url } = await signOut({ redirect: false, redirectTo: "/bye" });
  return url;
}

// Tessera extension: another prefix than /api/auth.
export const elsewhere = () => signIn("github", { basePath: "/auth" });

// @ts-expect-error: the provider id is a string
void signIn(42);
