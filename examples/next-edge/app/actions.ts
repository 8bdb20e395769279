"use server";

import { signIn, signOut } from "@/auth";

export async function signInWithOidc() {
  await signIn("oidc", { redirectTo: "/dashboard" });
}

export async function signOutAndGoHome() {
  await signOut({ redirectTo: "/" });
}
