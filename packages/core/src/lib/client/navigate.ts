/**
 * Sends the browser to `url`.
 *
 * @example
 * ```ts
 * navigate("/dashboard#settings")
 * ```
 */
export function navigate(url: string): void {
  window.location.href = url;
  // A URL differing only in its fragment does not load a page, so the session would look stale.
  if (url.includes("#")) window.location.reload();
}
