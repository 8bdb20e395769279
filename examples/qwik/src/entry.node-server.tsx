// The production server: Qwik City's Node middleware on node:http (`npm run serve`).
import { createServer } from "node:http";
import { createQwikCity } from "@builder.io/qwik-city/middleware/node";
import qwikCityPlan from "@qwik-city-plan";
import render from "./entry.ssr";

const { router, notFound, staticFile } = createQwikCity({
  render,
  qwikCityPlan,
  static: { cacheControl: "public, max-age=31536000, immutable" },
});

const server = createServer((req, res) => {
  staticFile(req, res, () => {
    router(req, res, () => {
      notFound(req, res, () => {});
    });
  });
});

const port = Number(process.env.PORT ?? 3004);
const host = process.env.HOST ?? "127.0.0.1";
server.listen(port, host, () => {
  console.log(`Node server listening on http://${host}:${port}`);
});
