/**
 * `toNodeHandler` on a `node:http` server, for the runtimes that implement Node's HTTP server
 * (Bun, Deno): bundled for their Node compatibility (runtimes/bundle.ts) and started as
 * `node-host.mjs`. Its configuration comes from `process.env`, which both runtimes fill from
 * their environment: AUTH_SECRET, AUTH_TRUST_HOST, SCENARIO_PASSWORD and PORT.
 */
import { createServer } from "node:http";
import { type AuthConfig, setEnvDefaults } from "@tessera/core";
import { toNodeHandler } from "@tessera/core/node";
import Credentials from "@tessera/core/providers/credentials";
import { nodeCrypto } from "../../packages/core/src/lib/crypto/encoding.js";

const env = process.env;
const config: AuthConfig = {
  providers: [
    Credentials({
      credentials: { username: {}, password: {} },
      authorize: (input) =>
        input.username === "ada" && input.password === env.SCENARIO_PASSWORD
          ? { id: "ada", name: "Ada Lovelace", email: "ada@example.com" }
          : null,
    }),
  ],
};
setEnvDefaults(env, config);
const handle = toNodeHandler(config);

const server = createServer((req, res) => {
  if (req.url === "/runtime") {
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ nodeCrypto: nodeCrypto !== undefined, nodeHttp: true }));
    return;
  }
  handle(req, res);
});
server.listen(Number(env.PORT), "127.0.0.1", () => console.log(`listening on ${env.PORT}`));
