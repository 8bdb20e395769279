import { defineConfig } from "@solidjs/start/config";

// `vinxi build` writes a Node server to .output/server/index.mjs (HOST and PORT choose where it
// listens).
export default defineConfig({ server: { preset: "node-server" } });
