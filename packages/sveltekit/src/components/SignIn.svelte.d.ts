import type { Component } from "svelte";
import type { SignInProps } from "./types.js";

/**
 * A sign-in form posting to the app's sign-in form action. Slots or snippets: `credentials`,
 * `email`, `submitButton`.
 *
 * @example
 * ```svelte
 * <SignIn provider="github" options={{ redirectTo: "/dashboard" }} />
 * ```
 */
declare const SignIn: Component<SignInProps>;
export default SignIn;
