/**
 * Repairs of token responses that break RFC 6749 §5.1 in ways the provider documents, for a
 * provider's `token.conform`: a missing `token_type` (the token is a bearer token), a `null`
 * scope, or an `expires_in` of `0` meaning "never expires".
 */

/** A JSON object of a token response. */
export type TokenResponseBody = Record<string, unknown>;

function isObject(value: unknown): value is TokenResponseBody {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * A `token.conform` that rewrites a successful JSON token response: `reshape` first (to unwrap a
 * provider's envelope), then `token_type: "bearer"` where it is missing, a `null` scope dropped,
 * and an `expires_in` of `0` or `null` dropped (a token that never expires has no expiry rather
 * than expiring at once). Error responses and bodies that are not JSON objects pass unchanged.
 *
 * @example
 * ```ts
 * const token = { url: "https://login.mailchimp.com/oauth2/token", conform: bearerTokenResponse() }
 * // {"access_token":"t","expires_in":0,"scope":null} → {"access_token":"t","token_type":"bearer"}
 * ```
 */
export function bearerTokenResponse(
  reshape: (body: TokenResponseBody) => TokenResponseBody = (body) => body,
): (response: Response) => Promise<Response | undefined> {
  return async (response) => {
    if (!response.ok) return undefined;
    let parsed: unknown;
    try {
      parsed = await response.json();
    } catch {
      return undefined;
    }
    if (!isObject(parsed)) return undefined;
    const body: TokenResponseBody = { ...reshape(parsed) };
    if (body.token_type === undefined || body.token_type === null) body.token_type = "bearer";
    if (body.scope === null) delete body.scope;
    if (body.expires_in === 0 || body.expires_in === "0" || body.expires_in === null)
      delete body.expires_in;
    return Response.json(body, { status: response.status });
  };
}
