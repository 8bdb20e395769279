// `$env/dynamic/private` exists only inside a SvelteKit build, which generates its type into the
// app's `.svelte-kit/ambient.d.ts`; this is the part of that type Tessera relies on.
declare module "$env/dynamic/private" {
  export const env: Record<string, string | undefined>;
}
