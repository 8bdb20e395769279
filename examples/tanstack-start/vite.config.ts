import { tanstackStart } from "@tanstack/react-start/plugin/vite";
import { defineConfig } from "vite";

// `vite build` writes the browser assets to dist/client and a fetch handler to
// dist/server/server.js, which `srvx --prod -s ../client dist/server/server.js` serves on Node.
export default defineConfig({
  plugins: [tanstackStart()],
});
