/** What Tessera reads from SvelteKit's own modules (`$env/dynamic/private`, `$app/*`). */

/**
 * SvelteKit's view of the running app. `index.ts` fills it from `$env/dynamic/private`,
 * `$app/environment` and `$app/paths`; everything else takes it as a parameter, so it runs (and
 * is tested) outside a SvelteKit build too.
 */
export interface KitEnvironment {
  /**
   * The private environment (`env` of `$env/dynamic/private`): `.env` files under `vite dev` and
   * `vite preview`, the platform's variables on edge adapters, `process.env` on adapter-node.
   * Read once per config: when `SvelteKitAuth` gets a fixed config (SvelteKit sets it before it
   * loads the hooks), else at the first request.
   */
  env(): Record<string, string | undefined>;
  /** `base` of `$app/paths`: `""` or a path such as `/app`, without a trailing slash. */
  base: string;
  /** `building` of `$app/environment`: true while `vite build` analyses and prerenders the app. */
  building: boolean;
  /** `dev` of `$app/environment`: true under `vite dev`. */
  dev: boolean;
}
