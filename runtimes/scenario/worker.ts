/**
 * The app every runtime of the runtime job serves, bundled once (runtimes/bundle.ts) as a
 * Workers module: `export default { fetch(request, env) }`. Its whole configuration comes from
 * the platform's environment through `setEnvDefaults`: the secret (`AUTH_SECRET`), the trusted
 * host (`AUTH_TRUST_HOST`), the OpenID Provider (`AUTH_OP_ISSUER`, `AUTH_OP_ID`, `AUTH_OP_SECRET`)
 * and the credentials password (`SCENARIO_PASSWORD`). The hosts pass Workers' `env` binding,
 * `Deno.env`, `Bun.env` or the Edge Runtime's `process.env`.
 */
import { Auth, type AuthConfig, setEnvDefaults } from "@tessera/core";
import Credentials from "@tessera/core/providers/credentials";
import { nodeCrypto } from "../../packages/core/src/lib/crypto/encoding.js";

type Env = Record<string, string | undefined>;

/** The config built from `env`, once per environment object (Workers pass the same one). */
const configs = new WeakMap<Env, AuthConfig>();

function configFor(env: Env): AuthConfig {
  let config = configs.get(env);
  if (config) return config;
  config = {
    providers: [
      Credentials({
        credentials: { username: {}, password: {} },
        authorize: (input) =>
          input.username === "ada" && input.password === env.SCENARIO_PASSWORD
            ? { id: "ada", name: "Ada Lovelace", email: "ada@example.com" }
            : null,
      }),
      { id: "op", name: "Local OP", type: "oidc", checks: ["pkce", "state", "nonce"] },
    ],
  };
  setEnvDefaults(env, config);
  configs.set(env, config);
  return config;
}

export default {
  fetch(request: Request, env: Env): Promise<Response> | Response {
    // Which crypto path this runtime takes: node:crypto through process.getBuiltinModule, or WebCrypto.
    if (new URL(request.url).pathname === "/runtime")
      return Response.json({ nodeCrypto: nodeCrypto() !== undefined });
    return Auth(request, configFor(env));
  },
};
