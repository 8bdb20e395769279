// What `svelte-kit sync` generates into an app's .svelte-kit/ambient.d.ts, reduced to the module
// @tessera/sveltekit reads.
declare module "$env/dynamic/private" {
  export const env: Record<string, string | undefined>;
}
