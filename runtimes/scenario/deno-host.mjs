// Deno: serves the bundled scenario worker (copied beside this file) with Deno.env as its environment.
import worker from "./worker.mjs";

const env = Deno.env.toObject();
Deno.serve(
  {
    hostname: "127.0.0.1",
    port: Number(env.PORT),
    onListen: ({ port }) => console.log(`listening on ${port}`),
  },
  (request) => worker.fetch(request, env),
);
