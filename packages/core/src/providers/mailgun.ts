/**
 * E-mail sign-in through [Mailgun](https://www.mailgun.com)'s Messages API
 * (`POST /v3/<domain>/messages`, multipart form, Basic authentication `api:<key>`). The key is
 * read from `AUTH_MAILGUN_KEY` unless `apiKey` is given. The sending domain is `domain`, else the
 * domain of `from`.
 *
 * @example
 * ```ts
 * import Mailgun from "@tessera/core/providers/mailgun"
 * const config = { adapter, providers: [Mailgun({ from: "Acme <no-reply@mg.acme.test>", region: "EU" })] }
 * ```
 */
import { basicAuthorization, composeEmail, emailApiProvider } from "../lib/email/http-api.js";
import type { EmailUserConfig } from "./email.js";
import type { EmailConfig } from "./index.js";

/** Mailgun's API regions. */
export type MailgunRegion = "US" | "EU" | "us" | "eu";

/** Configuration of the Mailgun provider. */
export interface MailgunConfig extends EmailConfig {
  /** API region of the Mailgun account. Default `US`. */
  region?: MailgunRegion;
  /** Sending domain. Default: the domain of `from`. */
  domain?: string;
  options?: MailgunUserConfig;
}

/** What users pass to {@link Mailgun}. */
export type MailgunUserConfig = EmailUserConfig & { region?: MailgunRegion; domain?: string };

const API_BASES = {
  US: "https://api.mailgun.net",
  EU: "https://api.eu.mailgun.net",
} as const;

/**
 * The Mailgun e-mail provider.
 *
 * @example
 * ```ts
 * Mailgun({ apiKey: process.env.MAILGUN_KEY, from: "no-reply@mg.acme.test" })
 * ```
 */
export default function Mailgun(config: MailgunUserConfig = {}): MailgunConfig {
  const service = {
    id: "mailgun",
    name: "Mailgun",
    defaultBase: (provider: MailgunConfig) =>
      API_BASES[provider.region?.toUpperCase() === "EU" ? "EU" : "US"],
  };
  // Mailgun's "send an email" endpoint takes a form; the sending domain is part of the path.
  return emailApiProvider<MailgunConfig>(service, config, async (provider, params, apiKey) => {
    const email = await composeEmail(params);
    const domain = provider.domain ?? email.from.address.split("@")[1];
    if (!domain)
      throw new TypeError(
        `The Mailgun provider "${provider.id}" needs a sending domain: set \`domain\` or a \`from\` address on it.`,
      );
    const form = new FormData();
    form.append("from", email.fromHeader);
    form.append("to", email.to);
    form.append("subject", email.subject);
    form.append("text", email.text);
    form.append("html", email.html);
    return {
      path: `/v3/${encodeURIComponent(domain)}/messages`,
      // No Content-Type: fetch writes multipart/form-data with its boundary.
      headers: { Authorization: basicAuthorization("api", apiKey) },
      body: form,
    };
  });
}
