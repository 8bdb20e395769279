/**
 * Static checks of WebAuthn providers, run once when a configuration is resolved (called from
 * config/assert.ts, which checks the experimental flag and the adapter).
 */
import {
  DuplicateConditionalUI,
  InvalidProvider,
  MissingWebAuthnAutocomplete,
} from "../../errors.js";
import type { CredentialInput, WebAuthnConfig } from "../provider-types.js";
import { missingLibraryMethods } from "./library.js";

function hasWebAuthnAutocomplete(field: CredentialInput): boolean {
  return (
    typeof field.autocomplete === "string" && field.autocomplete.split(/\s+/).includes("webauthn")
  );
}

function invalidOrigin(origin: unknown): boolean {
  if (typeof origin !== "string") return true;
  try {
    return new URL(origin).origin !== origin;
  } catch {
    return true;
  }
}

/**
 * The first problem of the WebAuthn providers among `providers`, or undefined.
 *
 * @example
 * ```ts
 * webauthnConfigProblem([Passkey(), WebAuthn()]) // DuplicateConditionalUI: both offer autofill
 * ```
 */
export function webauthnConfigProblem(
  providers: readonly { type: string; id: string }[],
): Error | undefined {
  const webauthn = providers.filter((p) => p.type === "webauthn") as unknown as WebAuthnConfig[];
  for (const provider of webauthn) {
    const missing = missingLibraryMethods(provider);
    if (missing.length)
      return new InvalidProvider(
        `The WebAuthn provider "${provider.id}" lacks simpleWebAuthn.${missing.join(", simpleWebAuthn.")}. Create it with WebAuthn() or Passkey() from @tessera/core/providers.`,
      );
    const origins = provider.relayingParty?.origin;
    const list = origins === undefined ? [] : Array.isArray(origins) ? origins : [origins];
    const bad = list.find(invalidOrigin);
    if (bad !== undefined)
      return new InvalidProvider(
        `The relayingParty.origin "${String(bad)}" of "${provider.id}" is not an origin. Use scheme://host[:port], without a path.`,
      );
    const related = provider.relayingParty?.relatedOrigins;
    if (related !== undefined) {
      const badRelated = Array.isArray(related) ? related.find(invalidOrigin) : related;
      if (badRelated !== undefined)
        return new InvalidProvider(
          `The relayingParty.relatedOrigins entry "${String(badRelated)}" of "${provider.id}" is not an origin. Give an array of scheme://host[:port], without paths.`,
        );
      // Without a configured id, each related origin would pick its own host as the RP id.
      if (provider.relayingParty?.id === undefined)
        return new InvalidProvider(
          `The WebAuthn provider "${provider.id}" names relatedOrigins without relayingParty.id: set the RP id they share (e.g. "example.com").`,
        );
    }
    const fields = provider.formFields;
    if (
      provider.enableConditionalUI &&
      fields &&
      !Object.values(fields).some(hasWebAuthnAutocomplete)
    )
      return new MissingWebAuthnAutocomplete(
        `The WebAuthn provider "${provider.id}" enables conditional UI, but none of its formFields has "webauthn" in \`autocomplete\`. Add autocomplete: "username webauthn" to one field, or set enableConditionalUI: false.`,
      );
  }
  const conditional = webauthn.filter((p) => p.enableConditionalUI);
  if (conditional.length > 1)
    return new DuplicateConditionalUI(
      `Passkey autofill (enableConditionalUI) is on for ${conditional.map((p) => `"${p.id}"`).join(" and ")}; a page can offer it for one provider only. Set enableConditionalUI: false on the others.`,
    );
  return undefined;
}
