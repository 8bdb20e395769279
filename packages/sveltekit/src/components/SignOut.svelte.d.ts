import type { Component } from "svelte";
import type { SignOutProps } from "./types.js";

/**
 * A sign-out form posting to the app's sign-out form action. Slot or snippet: `submitButton`.
 *
 * @example
 * ```svelte
 * <SignOut options={{ redirectTo: "/" }} />
 * ```
 */
declare const SignOut: Component<SignOutProps>;
export default SignOut;
