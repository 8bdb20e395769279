// A server component reading the session, and server actions signing in and out.
import { AuthError } from "@tessera/next";
import { auth, signIn, signOut, unstable_update } from "./auth.js";

export default async function Page() {
  const session = await auth();
  if (!session?.user) return <p>Signed out</p>;
  return <p>{session.user.name}</p>;
}

export async function signInWithGitHub() {
  "use server";
  await signIn("github", { redirectTo: "/dashboard" });
}

export async function signInWithPassword(formData: FormData) {
  "use server";
  try {
    await signIn("credentials", formData);
  } catch (error) {
    if (error instanceof AuthError) return error.type;
    throw error;
  }
  return undefined;
}

export async function signOutHere() {
  "use server";
  await signOut({ redirectTo: "/" });
}

export async function rename(name: string) {
  "use server";
  await unstable_update({ user: { name } });
}
