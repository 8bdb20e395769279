// Bun: serves the bundled scenario worker (copied beside this file) with Bun.env as its environment.
import worker from "./worker.mjs";

const server = Bun.serve({
  hostname: "127.0.0.1",
  port: Number(Bun.env.PORT),
  fetch: (request) => worker.fetch(request, Bun.env),
});
console.log(`listening on ${server.port}`);
