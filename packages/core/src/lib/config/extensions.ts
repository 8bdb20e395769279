/**
 * The action rows and sign-in steps of `experimental.extensions`, checked once per config: a row
 * must not take a name the core or another extension serves, a step's name must be unique (a
 * paused sign-in records it), and every entry must come from `defineExtension`. Steps run by
 * phase: every gate before every challenge.
 */
import { InvalidExtension } from "../../errors.js";
import type { AuthConfig } from "../../types.js";
import { CORE_ACTION_ROUTES, SERVER_ACTION_ROUTES } from "../actions/routes.js";
import { type ExtensionParts, extensionParts } from "../extension.js";
import { EXTENSION_PARTS } from "../extension-handle.js";
import type {
  AccountSection,
  ActionRow,
  SessionFields,
  SignedOutElsewhere,
  SignInStep,
  SignInStepPhase,
} from "./internal.js";

/**
 * The rank of each sign-in step phase, in the order the phases run. A `Record` of the phase type,
 * so that a phase added to `SignInStepPhase` does not compile until it has its place here.
 */
const PHASE_RANK: Readonly<Record<SignInStepPhase, number>> = { gate: 0, challenge: 1 };
const PHASES = Object.keys(PHASE_RANK) as SignInStepPhase[];

/** What the extensions of a config add. */
export interface ResolvedExtensions {
  actions: readonly ActionRow[];
  signInSteps: readonly SignInStep[];
  sessionFields: readonly SessionFields[];
  keptClaims: readonly string[];
  signedOutElsewhere: readonly SignedOutElsewhere[];
  accountSections: readonly AccountSection[];
  /** Why the extensions cannot be used; they then add nothing. */
  error?: Error;
}

const NONE: ResolvedExtensions = {
  actions: [],
  signInSteps: [],
  sessionFields: [],
  keptClaims: [],
  signedOutElsewhere: [],
  accountSections: [],
};

/**
 * The rows and steps of `config.experimental.extensions`, or the configuration error that stops
 * them (then none are added).
 *
 * @example
 * ```ts
 * const { actions, signInSteps } = resolveExtensions({ experimental: { extensions: [hello] } })
 * ```
 */
export function resolveExtensions(config: AuthConfig): ResolvedExtensions {
  const extensions = config.experimental?.extensions;
  if (!extensions || extensions.length === 0) return NONE;
  const names = new Set<string>([
    ...Object.keys(CORE_ACTION_ROUTES),
    ...Object.keys(SERVER_ACTION_ROUTES),
  ]);
  const stepNames = new Set<string>();
  const actions: ActionRow[] = [];
  const signInSteps: SignInStep[] = [];
  const sessionFields: SessionFields[] = [];
  const keptClaims: string[] = [];
  const signedOutElsewhere: SignedOutElsewhere[] = [];
  const accountSections: AccountSection[] = [];
  for (const extension of extensions) {
    if (typeof extension !== "object" || extension === null || !(EXTENSION_PARTS in extension))
      return refuse("An entry of experimental.extensions was not made by defineExtension.");
    const parts = extensionParts(extension);
    const missing = missingRequirement(parts, config);
    if (missing) return refuse(missing);
    for (const row of parts.actions ?? []) {
      if (names.has(row.name))
        return refuse(
          `The extension "${parts.name}" adds an action named "${row.name}", which is taken: give it a name of its own.`,
        );
      names.add(row.name);
      actions.push(row);
    }
    for (const step of parts.signInSteps ?? []) {
      if (stepNames.has(step.name))
        return refuse(
          `Two sign-in steps are named "${step.name}" (extension "${parts.name}"): give each step a name of its own.`,
        );
      if (step.phase !== undefined && !Object.hasOwn(PHASE_RANK, step.phase))
        return refuse(
          `The sign-in step "${step.name}" (extension "${parts.name}") has the phase "${String(step.phase)}": use one of ${PHASES.map((phase) => `"${phase}"`).join(", ")}.`,
        );
      stepNames.add(step.name);
      signInSteps.push(step);
    }
    if (parts.sessionFields) sessionFields.push(parts.sessionFields);
    keptClaims.push(...(parts.keptClaims ?? []));
    if (parts.signedOutElsewhere) signedOutElsewhere.push(parts.signedOutElsewhere);
    if (parts.accountSection) accountSections.push(parts.accountSection);
  }
  return {
    actions,
    signInSteps: inPhaseOrder(signInSteps),
    sessionFields,
    keptClaims,
    signedOutElsewhere,
    accountSections,
  };
}

/**
 * The steps with every gate before every challenge, each phase in the order given: a user a gate
 * refuses (a banned account) is never asked for a second factor first, whichever extension is
 * listed first.
 */
function inPhaseOrder(steps: readonly SignInStep[]): SignInStep[] {
  // A stable sort: steps of one phase keep their order.
  const rank = (step: SignInStep) => PHASE_RANK[step.phase ?? "challenge"];
  return [...steps].sort((a, b) => rank(a) - rank(b));
}

/**
 * Why `config` cannot serve the extension of `parts`, or undefined when it has every method the
 * extension requires. Checked once per config, so a missing method stops the app at start-up
 * (`assertStartupConfig`) instead of failing the first user who enrols.
 */
function missingRequirement(parts: ExtensionParts, config: AuthConfig): string | undefined {
  for (const requirement of parts.requires ?? []) {
    const adapter = config.adapter as Record<string, unknown> | undefined;
    if (!adapter)
      return `The extension "${parts.name}" stores its data through the adapter, and the config has none: set \`adapter\` to one that implements ${requirement.methods.join(", ")} (${requirement.implementedBy}).`;
    for (const method of requirement.methods)
      if (typeof adapter[method] !== "function")
        return `The extension "${parts.name}" needs the adapter method ${method}, which the configured adapter lacks: use an adapter that has it (${requirement.implementedBy}), or add it to yours.`;
  }
  return undefined;
}

function refuse(message: string): ResolvedExtensions {
  return { ...NONE, error: new InvalidExtension(message) };
}
