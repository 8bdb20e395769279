// auth-astro's astro.config pattern, with the import changed.
import auth from "@tessera/astro";
import { defineConfig } from "astro/config";

export default defineConfig({
  output: "server",
  integrations: [
    auth(),
    auth({ prefix: "/auth", configFile: "./src/auth.config", injectEndpoints: false }),
  ],
});

// @ts-expect-error the prefix is a path
auth({ prefix: 1 });
