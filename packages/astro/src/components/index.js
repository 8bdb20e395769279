// The Astro components of `@tessera/astro/components`; Astro compiles them in the app's build.
export { default as Auth } from "./Auth.astro";
export { default as SignIn } from "./SignIn.astro";
export { default as SignOut } from "./SignOut.astro";
