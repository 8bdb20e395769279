/**
 * GitHub and Google sign-in, enabled when their OAuth credentials are in the environment
 * (`AUTH_GITHUB_ID` + `AUTH_GITHUB_SECRET`, `AUTH_GOOGLE_ID` + `AUTH_GOOGLE_SECRET`, the names
 * Auth.js uses). They are the only parts of the demo that need the network.
 */
import type { Provider } from "@tessera/core/providers";
import GitHub from "@tessera/core/providers/github";
import Google from "@tessera/core/providers/google";

/** Which providers the environment enables, and which it could. */
export interface EnvProviders {
  providers: Provider[];
  enabled: { id: string; name: string }[];
  missing: { name: string; variable: string }[];
}

const CANDIDATES = [
  {
    id: "github",
    name: "GitHub",
    variable: "AUTH_GITHUB",
    create: (clientId: string, clientSecret: string) => GitHub({ clientId, clientSecret }),
  },
  {
    id: "google",
    name: "Google",
    variable: "AUTH_GOOGLE",
    create: (clientId: string, clientSecret: string) => Google({ clientId, clientSecret }),
  },
] as const;

/**
 * Reads the environment.
 *
 * @example
 * ```ts
 * const { providers } = oauthProvidersFromEnv(process.env)
 * ```
 */
export function oauthProvidersFromEnv(env: Record<string, string | undefined>): EnvProviders {
  const result: EnvProviders = { providers: [], enabled: [], missing: [] };
  for (const candidate of CANDIDATES) {
    const clientId = env[`${candidate.variable}_ID`];
    const clientSecret = env[`${candidate.variable}_SECRET`];
    if (!clientId || !clientSecret) {
      result.missing.push({ name: candidate.name, variable: candidate.variable });
      continue;
    }
    result.providers.push(candidate.create(clientId, clientSecret));
    result.enabled.push({ id: candidate.id, name: candidate.name });
  }
  return result;
}
