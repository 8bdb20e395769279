// The example app of @tessera/sveltekit. The tests build it into a directory of their own
// (TESSERA_KIT_OUT, TESSERA_KIT_BUILD) so that parallel runs never share output, and point
// SvelteKit's `.env` lookup at a directory of their own (TESSERA_KIT_ENV_DIR).
import adapter from "@sveltejs/adapter-node";

/** @type {import("@sveltejs/kit").Config} */
export default {
  kit: {
    adapter: adapter({ out: process.env.TESSERA_KIT_BUILD ?? "../../.svelte-kit/build" }),
    // Outside test/: the generated files are not part of the repository's typecheck.
    outDir: process.env.TESSERA_KIT_OUT ?? "../../.svelte-kit",
    // The app lives under a base path: Tessera's routes are then at /base/auth/*.
    paths: { base: "/base" },
    env: { dir: process.env.TESSERA_KIT_ENV_DIR ?? "." },
  },
};
