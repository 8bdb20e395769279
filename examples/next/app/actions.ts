"use server";

import { AuthError } from "@tessera/next";
import { redirect } from "next/navigation";
import { signIn, signOut, unstable_update } from "@/auth";

export async function signInWithPassword(formData: FormData) {
  try {
    await signIn("credentials", formData);
  } catch (error) {
    // A refused sign-in is an AuthError; anything else, Next.js's redirect included, goes on.
    if (error instanceof AuthError) redirect(`/?error=${error.type}`);
    throw error;
  }
}

export async function signOutAndGoHome() {
  await signOut({ redirectTo: "/" });
}

export async function rename(formData: FormData) {
  await unstable_update({ user: { name: String(formData.get("name") ?? "") } });
  redirect("/protected");
}
