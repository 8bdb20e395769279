/**
 * The shared part of the HTTP-API e-mail providers (Resend, SendGrid, Postmark, Mailgun, Loops,
 * Forward Email): the sender's address, the endpoint URL (overridable), the request with a
 * timeout, and an error that names the service, the status and the service's own message —
 * never the API key.
 */
import type { EmailConfig, SendVerificationRequestParams } from "../provider-types.js";
import { customFetch } from "../symbols.js";
import { type Mailbox, parseMailbox } from "./address.js";
import type { VerificationEmail } from "./template.js";

/** How long a provider's API may take before the sign-in gives up. */
const REQUEST_TIMEOUT_MS = 15_000;
/** Error bodies are read up to this size: enough for any message, bounded against abuse. */
const MAX_ERROR_BODY = 4096;

/** The message to send: recipient, sender, and the default e-mail's subject, HTML and text. */
export interface OutgoingEmail extends VerificationEmail {
  to: string;
  from: Mailbox;
  /** `from` as one header value (`Name <addr>` or `addr`). */
  fromHeader: string;
}

/**
 * The sender of `provider`: its `from`, else `no-reply@<host of the link>`.
 *
 * @example
 * ```ts
 * senderOf({ from: "Acme <no-reply@acme.test>" }, "https://acme.test/auth/…").address
 * ```
 */
export function senderOf(provider: Pick<EmailConfig, "from">, url: string): Mailbox {
  if (provider.from) return parseMailbox(provider.from);
  return { address: `no-reply@${new URL(url).hostname}` };
}

/**
 * Renders the default e-mail for a verification request. The template (with every language's
 * texts) loads with the first e-mail that needs it, not with the provider's module, so that an
 * app with an e-mail provider does not load it before its first request.
 */
export async function composeEmail(params: SendVerificationRequestParams): Promise<OutgoingEmail> {
  const from = senderOf(params.provider, params.url);
  const rendered =
    params.message ??
    (await import("./template.js")).renderVerificationEmail({
      url: params.url,
      expires: params.expires,
      theme: params.theme,
      ...(params.locale !== undefined && { locale: params.locale }),
      ...(params.messages !== undefined && { messages: params.messages }),
      // The sign-in code, or a short numeric token, which is a code to type (password accounts,
      // two-factor); a link token is long and stays out of sight.
      ...(params.code
        ? { code: params.code }
        : /^\d{6}$/.test(params.token) && { code: params.token }),
    });
  const fromHeader = from.name
    ? `"${from.name.replace(/["\\]/g, "\\$&")}" <${from.address}>`
    : from.address;
  return { ...rendered, to: params.identifier, from, fromHeader };
}

/** The API key of `provider`, or an error naming the variable to set. */
export function requireApiKey(provider: EmailConfig): string {
  if (provider.apiKey) return provider.apiKey;
  const variable = `AUTH_${provider.id.toUpperCase().replace(/-/g, "_")}_KEY`;
  throw new TypeError(
    `The ${provider.name} provider "${provider.id}" has no API key: set ${variable} or pass \`apiKey\`.`,
  );
}

/** `path` on the provider's `apiUrl` when set (tests, proxies, regions), else on `defaultBase`. */
export function apiEndpoint(provider: EmailConfig, defaultBase: string, path: string): string {
  const base = (provider.apiUrl ?? defaultBase).replace(/\/+$/, "");
  return `${base}${path}`;
}

/** The `Authorization` value of HTTP Basic authentication (RFC 7617 §2). */
export function basicAuthorization(user: string, password: string): string {
  const bytes = new TextEncoder().encode(`${user}:${password}`);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `Basic ${btoa(binary)}`;
}

function messageFrom(body: unknown): string | undefined {
  if (typeof body === "string") return body || undefined;
  if (!body || typeof body !== "object") return undefined;
  const record = body as Record<string, unknown>;
  for (const key of ["message", "Message", "error_description", "detail"]) {
    if (typeof record[key] === "string" && record[key]) return record[key] as string;
  }
  // SendGrid: { errors: [{ message, field }] }
  if (Array.isArray(record.errors)) {
    const messages = record.errors
      .map((e) => (typeof e === "string" ? e : messageFrom(e)))
      .filter((m): m is string => Boolean(m));
    if (messages.length) return messages.join("; ");
  }
  if (record.error !== undefined) return messageFrom(record.error);
  return undefined;
}

async function readErrorMessage(response: Response): Promise<string | undefined> {
  let text: string;
  try {
    text = (await response.text()).slice(0, MAX_ERROR_BODY);
  } catch {
    return undefined;
  }
  try {
    return messageFrom(JSON.parse(text));
  } catch {
    return text.trim() || undefined;
  }
}

/** One request to an e-mail API: the endpoint's path on the API base, headers and body. */
export interface EmailApiRequest {
  /** Path on the provider's `apiUrl`, else on the service's default base. */
  path: string;
  headers: Record<string, string>;
  body: BodyInit;
}

/** The service an e-mail API provider talks to. */
export interface EmailApiService {
  id: string;
  /** Shown in errors and on the sign-in page. */
  name: string;
  /** The API's base URL, used unless the provider sets `apiUrl` (tests, proxies, regions). */
  defaultBase: string | ((provider: EmailConfig) => string);
}

/**
 * An e-mail provider that sends the sign-in link through an HTTP API: the API key check, the
 * POST with its timeout and error handling are shared; each service only says what to send.
 * Links are valid for 24 hours, as with every built-in e-mail provider.
 *
 * @example
 * ```ts
 * export default function Acme(config: EmailUserConfig = {}): EmailConfig {
 *   return emailApiProvider({ id: "acme", name: "Acme", defaultBase: "https://api.acme.test" },
 *     config, (_provider, params, apiKey) => ({
 *       path: "/send",
 *       headers: { Authorization: `Bearer ${apiKey}` },
 *       body: JSON.stringify({ to: params.identifier, link: params.url }),
 *     }))
 * }
 * ```
 */
export function emailApiProvider<C extends EmailConfig>(
  service: EmailApiService,
  options: C["options"],
  buildRequest: (
    provider: C,
    params: SendVerificationRequestParams,
    apiKey: string,
  ) => EmailApiRequest | Promise<EmailApiRequest>,
): C {
  const provider: EmailConfig = {
    id: service.id,
    type: "email",
    name: service.name,
    maxAge: 24 * 60 * 60,
    options,
    async sendVerificationRequest(params) {
      // `params.provider` is this object merged with the user's options (config/providers.ts).
      const resolved = params.provider as C;
      const apiKey = requireApiKey(resolved);
      const request = await buildRequest(resolved, params, apiKey);
      const base =
        typeof service.defaultBase === "string"
          ? service.defaultBase
          : service.defaultBase(resolved);
      await postToEmailApi(
        resolved,
        service.name,
        apiEndpoint(resolved, base, request.path),
        request,
      );
    },
  };
  // C only adds optional, service-specific settings to EmailConfig; they arrive through `options`.
  return provider as C;
}

/**
 * POSTs to an e-mail API and throws when it does not answer 2xx. The error names the service,
 * the HTTP status and the service's message; the API key is removed from it, in case a service
 * echoes it back.
 *
 * @example
 * ```ts
 * await postToEmailApi(provider, "Resend", "https://api.resend.com/emails", {
 *   headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
 *   body: JSON.stringify(payload),
 * })
 * ```
 */
export async function postToEmailApi(
  provider: EmailConfig,
  service: string,
  url: string,
  init: { headers: Record<string, string>; body: BodyInit },
): Promise<void> {
  const fetchImpl = provider[customFetch] ?? fetch;
  const redact = (text: string) =>
    provider.apiKey ? text.split(provider.apiKey).join("[redacted]") : text;
  let response: Response;
  try {
    response = await fetchImpl(url, {
      method: "POST",
      headers: { Accept: "application/json", ...init.headers },
      body: init.body,
      redirect: "error",
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(redact(`${service} could not be reached at ${url}: ${reason}`));
  }
  if (response.ok) {
    // Drain the body so the connection can be reused.
    await response.arrayBuffer().catch(() => undefined);
    return;
  }
  const message = await readErrorMessage(response);
  throw new Error(
    redact(
      `${service} refused to send the e-mail (HTTP ${response.status})${message ? `: ${message}` : "."}`,
    ),
  );
}
