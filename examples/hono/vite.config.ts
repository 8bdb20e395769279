import { defineConfig } from "vite";

// One config, two builds (`npm run build`): the React page for the browser (dist/client), then
// the Hono server for Node (`vite build --ssr src/server.ts`, dist/server), which serves that page.
export default defineConfig(({ isSsrBuild }) => ({
  oxc: { jsx: { runtime: "automatic" } },
  logLevel: "warn",
  build: {
    outDir: isSsrBuild ? "dist/server" : "dist/client",
    emptyOutDir: true,
    rolldownOptions: {
      onwarn(warning, warn) {
        // Next.js's "use client" marker in the shared React client means nothing to Vite.
        if (warning.code !== "MODULE_LEVEL_DIRECTIVE") warn(warning);
      },
    },
  },
}));
