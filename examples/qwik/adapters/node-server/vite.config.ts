import { nodeServerAdapter } from "@builder.io/qwik-city/adapters/node-server/vite";
import { extendConfig } from "@builder.io/qwik-city/vite";
import baseConfig from "../../vite.config";

export default extendConfig(baseConfig, () => ({
  build: {
    ssr: true,
    rollupOptions: { input: ["src/entry.node-server.tsx", "@qwik-city-plan"] },
  },
  // Every page depends on the visitor's session: nothing to generate statically at build time.
  plugins: [nodeServerAdapter({ name: "node-server", ssg: null })],
}));
