/**
 * The relying party (W3C WebAuthn §5.1.2 / §13.4.9): which RP ID and origins a response must be
 * bound to. Defaults come from the request URL, so a site works without configuration; set
 * `relayingParty` when the app runs behind a proxy that changes the host, or serves several
 * origins.
 */
import type { WebAuthnConfig } from "../provider-types.js";

/** The relying party of one request. */
export interface ResolvedRelyingParty {
  /** RP ID put into options (the configured id that fits the request's hostname). */
  id: string;
  name: string;
  /** Every RP ID a response may be bound to. */
  ids: string[];
  /** Every origin a response may come from. */
  origins: string[];
}

function list(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).filter(
    (item): item is string => typeof item === "string" && item !== "",
  );
}

/** An RP ID must equal the origin's host or be a parent domain of it (WebAuthn §5.1.3 step 8). */
function fitsHost(rpId: string, hostname: string): boolean {
  return hostname === rpId || hostname.endsWith(`.${rpId}`);
}

/**
 * Resolves the relying party for a request to `url` (`<origin><basePath>`).
 *
 * @example
 * ```ts
 * relyingPartyFor({ relayingParty: {} }, new URL("https://app.example.com/auth"))
 * // { id: "app.example.com", name: "app.example.com", ids: ["app.example.com"], origins: ["https://app.example.com"] }
 * ```
 */
export function relyingPartyFor(
  provider: Pick<WebAuthnConfig, "relayingParty">,
  url: URL,
): ResolvedRelyingParty {
  const configured = provider.relayingParty ?? {};
  const ids = list(configured.id);
  const origins = list(configured.origin);
  const name = typeof configured.name === "string" && configured.name ? configured.name : url.host;
  if (ids.length === 0) ids.push(url.hostname);
  if (origins.length === 0) origins.push(url.origin);
  // Related origins (WebAuthn L3 §5.11) sign for the configured RP id, never their own host.
  for (const related of list(configured.relatedOrigins))
    if (!origins.includes(related)) origins.push(related);
  const id = ids.find((candidate) => fitsHost(candidate, url.hostname)) ?? (ids[0] as string);
  return { id, name, ids, origins };
}
