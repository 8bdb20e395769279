/**
 * `SignIn` and `SignOut`, Svelte components posting to the app's `signIn`/`signOut` form actions
 * (`@tessera/sveltekit/components`, as `@auth/sveltekit/components`).
 *
 * @example
 * ```svelte
 * <script>
 *   import { SignIn, SignOut } from "@tessera/sveltekit/components"
 *   let { data } = $props()
 * </script>
 * {#if data.session}<SignOut />{:else}<SignIn provider="github" />{/if}
 * ```
 */
export { default as SignIn } from "./SignIn.svelte";
export { default as SignOut } from "./SignOut.svelte";
export type { SignInFormOptions, SignInProps, SignOutProps } from "./types.js";
