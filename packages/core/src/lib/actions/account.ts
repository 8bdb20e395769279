/**
 * `GET <basePath>/account`: the signed-in user's account page, or its data (`AccountOverview`)
 * for a request that does not ask for HTML and for server code. `POST <basePath>/account/profile`
 * (`csrfToken`, `name`) saves the user's name; `POST <basePath>/account/unlink` (`csrfToken`,
 * `provider`, `providerAccountId`) unlinks one of the user's OAuth/OpenID accounts, after a recent
 * authentication (step-up) and never the last way in. Tessera extension.
 *
 * A browser (`Accept: text/html`) is redirected: signed out to the sign-in page with a callback
 * URL back here, after a change back to the page with a `notice` or `error` key. Other clients
 * get JSON: 200 with the overview or the change, 401 signed out, 403 without a valid CSRF token
 * (`MissingCSRF`) or without a recent authentication (`StepUpRequired`, with the `url` that
 * re-authenticates), 400 for a malformed body, 404 when the user has no such account or the
 * adapter cannot list accounts (`NotLinked`), 409 for the last sign-in method
 * (`LastSignInMethod`).
 */
import type { AdapterUser } from "../../adapters.js";
import { AdapterError } from "../../errors.js";
import type { ResponseInternal } from "../../types.js";
import { isLastWayIn, readAccountOverview, userAccounts } from "../account/overview.js";
import type { AuthContext, InternalProvider } from "../config/internal.js";
import { json, NO_CACHE_HEADERS } from "../http/response.js";
import { accountQueryText, accountTranslator } from "../i18n/account/index.js";
import { renderAccountPage } from "../pages/account.js";
import { cspOrigin } from "../pages/security.js";
import { currentSessionUser } from "../session/signed-in.js";
import { accountPageUrl as accountUrl, pageUrl, signInPageUrl as signInUrl } from "./page-url.js";
import { requiredStepUp } from "./step-up-url.js";

/** Longest name kept: it is shown on pages and in e-mails, and storage is not free. */
export const MAX_ACCOUNT_NAME_LENGTH = 100;

/** Longest provider id or provider account id accepted in a body. */
const MAX_ID_LENGTH = 255;

type Refusal =
  | "MissingCSRF"
  | "NotSignedIn"
  | "NameInvalid"
  | "BadRequest"
  | "NotLinked"
  | "StepUpRequired"
  | "LastSignInMethod"
  | "Failed";

const STATUS: Record<Refusal, number> = {
  MissingCSRF: 403,
  NotSignedIn: 401,
  NameInvalid: 400,
  BadRequest: 400,
  NotLinked: 404,
  StepUpRequired: 403,
  LastSignInMethod: 409,
  Failed: 500,
};

function wantsPage(ctx: AuthContext): boolean {
  if (ctx.request.inProcess) return false;
  return (ctx.request.headers.get("accept") ?? "").includes("text/html");
}

function refuse(ctx: AuthContext, refusal: Refusal, extra: Record<string, string> = {}) {
  if (wantsPage(ctx)) {
    if (refusal === "NotSignedIn") return { redirect: signInUrl(ctx, accountUrl(ctx)) };
    if (refusal === "StepUpRequired" && extra.url) return { redirect: extra.url };
    return { redirect: `${accountUrl(ctx)}?${new URLSearchParams({ error: refusal })}` };
  }
  return json({ error: refusal, ...extra }, STATUS[refusal], NO_CACHE_HEADERS);
}

function done(ctx: AuthContext, notice: string, body: Record<string, unknown>): ResponseInternal {
  if (wantsPage(ctx)) return { redirect: `${accountUrl(ctx)}?${new URLSearchParams({ notice })}` };
  return json(body, 200, NO_CACHE_HEADERS);
}

/** A name as stored: control characters out, trimmed; null when empty; undefined when invalid. */
function cleanName(value: unknown): string | null | undefined {
  if (typeof value !== "string") return undefined;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed.
  const name = value.replace(/[\u0000-\u001f\u007f]/g, "").trim();
  if (name.length > MAX_ACCOUNT_NAME_LENGTH) return undefined;
  return name === "" ? null : name;
}

function boundedText(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" && value.length <= MAX_ID_LENGTH
    ? value
    : undefined;
}

/** Origins the page's link forms may redirect to: any https: target and the known endpoints. */
function linkFormTargets(providers: readonly InternalProvider[]): string[] {
  const targets: string[] = [];
  for (const provider of providers) {
    if (provider.type !== "oauth" && provider.type !== "oidc") continue;
    // An OAuth sign-in POST redirects to the identity provider, which may redirect further.
    targets.push("https:");
    for (const endpoint of [provider.authorization?.url?.href, provider.issuer]) {
      const origin = typeof endpoint === "string" ? cspOrigin(endpoint) : undefined;
      if (origin) targets.push(origin);
    }
  }
  return [...new Set(targets)];
}

async function show(ctx: AuthContext, user: AdapterUser): Promise<ResponseInternal> {
  const overview = await readAccountOverview(ctx, user);
  if (!wantsPage(ctx)) return json(overview, 200, NO_CACHE_HEADERS);
  const query = ctx.request.query;
  const t = accountTranslator(ctx);
  const notice = accountQueryText(t, "notice", query.notice);
  const error = accountQueryText(t, "error", query.error);
  const webauthn = ctx.providers.find((provider) => provider.type === "webauthn");
  return renderAccountPage({
    url: ctx.url,
    theme: ctx.config.theme,
    t,
    csrfToken: ctx.csrfToken ?? "",
    overview,
    ...(webauthn &&
      overview.passkeys && {
        passkeyProvider: { id: webauthn.id, callbackUrl: webauthn.callbackUrl },
      }),
    formTargets: linkFormTargets(
      ctx.providers.filter((provider) =>
        overview.linkableProviders.some((linkable) => linkable.id === provider.id),
      ),
    ),
    ...(notice !== undefined && { notice }),
    ...(error !== undefined && { error }),
    signalDetails: query.notice === "name-saved",
  });
}

async function saveName(ctx: AuthContext, user: AdapterUser): Promise<ResponseInternal> {
  const name = cleanName(ctx.request.body?.name);
  if (name === undefined) return refuse(ctx, "NameInvalid");
  const adapter = ctx.config.adapter;
  if (!adapter) return refuse(ctx, "BadRequest");
  const updated = await adapter.updateUser({ id: user.id, name });
  await ctx.config.events.updateUser?.({ user: updated });
  return done(ctx, "name-saved", { profile: { id: updated.id, name: updated.name ?? null } });
}

async function unlink(ctx: AuthContext, user: AdapterUser): Promise<ResponseInternal> {
  const body = ctx.request.body;
  const provider = boundedText(body?.provider);
  const providerAccountId = boundedText(body?.providerAccountId);
  if (!provider || !providerAccountId) return refuse(ctx, "BadRequest");
  const accounts = await userAccounts(ctx, user.id);
  if (!accounts) return refuse(ctx, "NotLinked");
  // Step-up: an open or stolen session must not be enough to remove a way in.
  const stepUp = await requiredStepUp(ctx, user.id);
  if (stepUp) return refuse(ctx, "StepUpRequired", { url: stepUp });
  // IDOR: only an account of the signed-in user is found here; another user's ids reach nothing.
  const target = accounts.find(
    (account) =>
      account.provider === provider &&
      account.providerAccountId === providerAccountId &&
      (account.type === "oauth" || account.type === "oidc"),
  );
  if (!target) return refuse(ctx, "NotLinked");
  // Lock-out: the last way in is never removed.
  if (await isLastWayIn(ctx, user, accounts)) return refuse(ctx, "LastSignInMethod");
  await ctx.config.adapter?.unlinkAccount({ provider, providerAccountId });
  return done(ctx, "unlinked", { unlinked: { provider, providerAccountId } });
}

/** Handles `GET /account`, `POST /account/profile` and `POST /account/unlink`. */
export async function account(ctx: AuthContext): Promise<ResponseInternal> {
  const { config, request } = ctx;
  const isPost = request.method === "POST";
  // POST /account and GET /account/unlink name no operation.
  if (isPost === (request.subAction === undefined)) return refuse(ctx, "BadRequest");
  if (!isPost && config.pages.account && wantsPage(ctx))
    return { redirect: pageUrl(ctx, config.pages.account, {}) };
  if (!config.adapter) {
    ctx.logger.debug("The account action reads the user through the adapter: configure one.");
    return json({ error: "NotAvailable" }, 404, NO_CACHE_HEADERS);
  }
  // CSRF: a foreign page must not be able to rename the user or unlink their accounts.
  if (isPost && !ctx.csrfTokenVerified) return refuse(ctx, "MissingCSRF");
  try {
    const user = await currentSessionUser(ctx);
    if (!user) return refuse(ctx, "NotSignedIn");
    if (!isPost) return await show(ctx, user);
    return request.subAction === "profile" ? await saveName(ctx, user) : await unlink(ctx, user);
  } catch (error) {
    ctx.logger.error(error instanceof AdapterError ? error : new AdapterError(error as Error));
    return refuse(ctx, "Failed");
  }
}
