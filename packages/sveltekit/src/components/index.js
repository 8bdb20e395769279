// `SignIn` and `SignOut` (`@tessera/sveltekit/components`); types in index.d.ts.
export { default as SignIn } from "./SignIn.svelte";
export { default as SignOut } from "./SignOut.svelte";
