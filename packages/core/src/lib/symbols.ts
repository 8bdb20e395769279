/**
 * Symbols that change how `Auth()` behaves. Symbols rather than booleans so that they cannot be
 * set from JSON or environment variables by accident.
 */

/** Disables CSRF checks. Only for frameworks that protect form posts themselves. */
export const skipCSRFCheck: unique symbol = Symbol("skip-csrf-check");

/** Makes `Auth()` return the internal response data instead of a `Response`. */
export const raw: unique symbol = Symbol("return-type-raw");

/**
 * Set on a provider to replace the `fetch` it uses for HTTP requests (proxies, test servers).
 *
 * @example
 * ```ts
 * GitHub({ [customFetch]: (url, init) => fetch(url, { ...init, dispatcher: proxyAgent }) })
 * ```
 */
export const customFetch: unique symbol = Symbol("custom-fetch");

/** @internal Marks a config object as already resolved by `Auth()`. */
export const conformInternal: unique symbol = Symbol("conform-internal");
