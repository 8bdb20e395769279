/**
 * `/.well-known/webauthn` (WebAuthn Level 3 §5.11, related origin requests): the document a
 * browser fetches from `https://<rp id>` before it lets another origin use that RP id. It lists
 * every origin of the WebAuthn providers' relying parties: `relayingParty.origin` and
 * `relayingParty.relatedOrigins`.
 */
import type { AuthConfig } from "../../types.js";
import { resolveConfig } from "../config/resolve.js";
import type { WebAuthnConfig } from "../provider-types.js";

/** The path the browser asks for, at the RP id's origin. */
export const WEBAUTHN_WELL_KNOWN_PATH = "/.well-known/webauthn";

function strings(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).filter(
    (item): item is string => typeof item === "string" && item !== "",
  );
}

/**
 * The `/.well-known/webauthn` answer for `request` under `config`, or null when the request is
 * not for that path or no WebAuthn provider names related origins (the app then answers as it
 * would otherwise, typically 404). Mount it before the app's routes at the RP id's origin.
 *
 * @example
 * ```ts
 * // in a fetch handler or middleware of https://example.com
 * const wellKnown = webauthnWellKnown(request, authConfig)
 * if (wellKnown) return wellKnown
 * ```
 */
export function webauthnWellKnown(request: Request, config: AuthConfig): Response | null {
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return null;
  }
  if (url.pathname !== WEBAUTHN_WELL_KNOWN_PATH || request.method !== "GET") return null;
  const resolved = resolveConfig(config);
  if (resolved.configError) return null;
  const origins = new Set<string>();
  let related = false;
  for (const provider of resolved.providersFor(url.origin)) {
    if (provider.type !== "webauthn") continue;
    const party = (provider as WebAuthnConfig).relayingParty ?? {};
    const extra = strings(party.relatedOrigins);
    if (extra.length === 0) continue;
    related = true;
    for (const origin of [url.origin, ...strings(party.origin), ...extra]) origins.add(origin);
  }
  if (!related) return null;
  return new Response(JSON.stringify({ origins: [...origins] }), {
    headers: {
      "content-type": "application/json",
      // Browsers fetch it without credentials from other origins' pages.
      "access-control-allow-origin": "*",
      "cache-control": "public, max-age=3600",
    },
  });
}
