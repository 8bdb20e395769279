/**
 * E-mail sign-in through a [Loops](https://loops.so) transactional e-mail
 * (`POST /api/v1/transactional`, bearer key). The e-mail itself is designed in Loops; Tessera
 * sends its `transactionalId` and the sign-in link as the data variable `url`. The API key is
 * read from `AUTH_LOOPS_KEY` unless `apiKey` is given.
 *
 * @example
 * ```ts
 * import Loops from "@tessera/core/providers/loops"
 * const config = { adapter, providers: [Loops({ transactionalId: "clx1234abc" })] }
 * ```
 */
import { emailApiProvider } from "../lib/email/http-api.js";
import type { EmailUserConfig } from "./email.js";
import type { EmailConfig } from "./index.js";

/** Configuration of the Loops provider. */
export interface LoopsConfig extends EmailConfig {
  /** Id of the published transactional e-mail; it must use the data variable `url`. */
  transactionalId?: string;
  options?: LoopsUserConfig;
}

/** What users pass to {@link Loops}. */
export type LoopsUserConfig = EmailUserConfig & { transactionalId?: string };

/**
 * The Loops e-mail provider.
 *
 * @example
 * ```ts
 * Loops({ apiKey: process.env.LOOPS_KEY, transactionalId: "clx1234abc" })
 * ```
 */
export default function Loops(config: LoopsUserConfig = {}): LoopsConfig {
  const service = { id: "loops", name: "Loops", defaultBase: "https://app.loops.so" };
  // The e-mail is designed in Loops: send its id, and the link as the data variable `url`.
  return emailApiProvider<LoopsConfig>(service, config, (provider, params, apiKey) => {
    if (!provider.transactionalId)
      throw new TypeError(
        `The Loops provider "${provider.id}" needs \`transactionalId\`: the id of a published transactional e-mail that shows the data variable \`url\`.`,
      );
    return {
      path: "/api/v1/transactional",
      headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json" },
      body: JSON.stringify({
        transactionalId: provider.transactionalId,
        email: params.identifier,
        dataVariables: { url: params.url },
      }),
    };
  });
}
