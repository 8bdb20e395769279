// Server output with the Node adapter: the auth routes and getSession run on every request.
import node from "@astrojs/node";
import auth from "@tessera/astro";
import { defineConfig } from "astro/config";

export default defineConfig({
  output: "server",
  adapter: node({ mode: "standalone" }),
  // Astro 5 reads the Host header only for the domains listed here; for any other it reports
  // the request as http://localhost/. List the site's public host name (or set AUTH_URL).
  security: { allowedDomains: [{ hostname: process.env.PUBLIC_HOSTNAME ?? "localhost" }] },
  integrations: [auth()],
});
