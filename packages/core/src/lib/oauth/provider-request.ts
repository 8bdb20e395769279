/**
 * Requests that built-in providers make beyond the standard flow (GitHub's e-mail list, VK's and
 * TikTok's profile APIs, Microsoft Graph photos): through the provider's `customFetch`, with the
 * usual timeout, failing as `OAuthCallbackError`.
 */
import { OAuthCallbackError } from "../../errors.js";
import type { InternalOAuthProvider } from "../provider-types.js";
import type { customFetch } from "../symbols.js";
import { providerFetch } from "./client.js";

type RequestingProvider = Pick<InternalOAuthProvider, "id" | typeof customFetch>;

function where(url: string | URL): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
}

/**
 * Sends a request and returns the response when its status is 2xx.
 *
 * @example
 * ```ts
 * const photo = await providerRequest(provider, "https://graph.microsoft.com/v1.0/me/photo/$value", {
 *   headers: { authorization: `Bearer ${tokens.access_token}` },
 * })
 * ```
 */
export async function providerRequest(
  provider: RequestingProvider,
  url: string | URL,
  init: RequestInit = {},
): Promise<Response> {
  const response = await providerFetch(provider, url, init);
  if (!response.ok)
    throw new OAuthCallbackError(
      `Provider "${provider.id}": ${where(url)} answered HTTP ${response.status}.`,
    );
  return response;
}

/**
 * Sends a request and parses its JSON body.
 *
 * @example
 * ```ts
 * const emails = await providerJson(provider, "https://api.github.com/user/emails", {
 *   headers: { authorization: `Bearer ${tokens.access_token}` },
 * })
 * ```
 */
export async function providerJson(
  provider: RequestingProvider,
  url: string | URL,
  init: RequestInit = {},
): Promise<unknown> {
  const headers = new Headers(init.headers);
  if (!headers.has("accept")) headers.set("accept", "application/json");
  const response = await providerRequest(provider, url, { ...init, headers });
  try {
    return await response.json();
  } catch (error) {
    throw new OAuthCallbackError(`Provider "${provider.id}": ${where(url)} did not answer JSON.`, {
      cause: error,
    });
  }
}

/** The `Authorization: Bearer` header for an access token (RFC 6750 §2.1). */
export function bearer(accessToken: unknown): Record<string, string> {
  return { authorization: `Bearer ${String(accessToken)}` };
}
