import { sveltekit } from "@sveltejs/kit/vite";
import { defaultClientConditions, defaultServerConditions, defineConfig } from "vite";

// "tessera-source" lets Vite compile the workspace packages from their TypeScript sources, so the
// example runs without building them first. Apps using the published packages need none of this.
export default defineConfig({
  plugins: [sveltekit()],
  resolve: { conditions: ["tessera-source", ...defaultClientConditions] },
  ssr: {
    noExternal: [/^@tessera\//],
    resolve: {
      conditions: ["tessera-source", ...defaultServerConditions],
      externalConditions: ["tessera-source"],
    },
  },
  // Kit writes outside this directory (see svelte.config.js); those folders are its own.
  build: { emptyOutDir: true },
  // Each test run of `vite dev` pre-bundles into a directory of its own.
  ...(process.env.TESSERA_KIT_VITE_CACHE && { cacheDir: process.env.TESSERA_KIT_VITE_CACHE }),
  logLevel: "warn",
});
