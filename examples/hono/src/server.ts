// Serves the app on Node: `npm run build && npm start` (HOST and PORT say where).
import { fileURLToPath } from "node:url";
import { serve } from "@hono/node-server";
import { createApp } from "./app.js";

const clientDir = fileURLToPath(new URL("../client", import.meta.url));
const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST ?? "127.0.0.1";

serve({ fetch: createApp(clientDir).fetch, port, hostname }, (info) => {
  console.log(`Listening on http://${hostname}:${info.port}`);
});
