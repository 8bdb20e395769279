// Starts the example on HOST:PORT (default 127.0.0.1:3000).
import { createApp } from "./app.js";

const app = await createApp();
const address = await app.listen({
  host: process.env.HOST ?? "127.0.0.1",
  port: Number(process.env.PORT ?? 3000),
});
console.log(`Listening on ${address}`);
