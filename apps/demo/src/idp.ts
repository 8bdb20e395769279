/**
 * The demo's own OpenID Provider: `oidc-provider` (an OpenID-certified implementation) on
 * 127.0.0.1, with one client (the demo), one account (demo / demo), a login page, and consent
 * granted automatically (the demo is a first-party client), short-lived access tokens with
 * rotating refresh tokens, RP-initiated and back-channel logout. Tessera signs in against it with its
 * generic OIDC provider configuration, exactly as it would against Keycloak or Auth0.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { exportJWK, generateKeyPair } from "jose";
import type { KoaContextWithOIDC } from "oidc-provider";
import { IDP_ACCOUNT } from "./idp-account.js";
import { loadOidcProvider, memoryStorage } from "./oidc-provider-runtime.js";
import {
  renderIdpError,
  renderIdpLogin,
  renderIdpLogout,
  renderIdpSignedOut,
} from "./pages/idp-login.js";

/** The demo's client registration at the provider. */
export interface IdpClient {
  clientId: string;
  clientSecret: string;
}

/** A running provider. */
export interface RunningIdp extends IdpClient {
  /** `http://127.0.0.1:<port>`: issuer and discovery base. */
  issuer: string;
  close(): Promise<void>;
}

/** Options of {@link startIdp}. */
export interface IdpOptions {
  /** Port on 127.0.0.1; 0 picks a free one. */
  port: number;
  /** Where the provider may send the browser back (the demo's callback URLs). */
  redirectUris: string[];
  /** Where the provider may send the browser after signing out (RP-Initiated Logout 1.0 §3). */
  postLogoutRedirectUris?: string[];
  /** Where the provider posts logout tokens when a session ends (Back-Channel Logout 1.0 §2.2). */
  backchannelLogoutUri?: string;
  /** Seconds an access token lives (default 60, so that the demo shows refreshes). */
  accessTokenTtl?: number;
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  // Timing attack defence, even on a demo: the comparison does not stop at the first difference.
  return a.length === b.length && timingSafeEqual(a, b);
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      server.off("error", reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/**
 * Starts the provider on 127.0.0.1.
 *
 * @example
 * ```ts
 * const idp = await startIdp({ port: 3001, redirectUris: ["http://localhost:3000/auth/callback/demo-idp"] })
 * const provider = { id: "demo-idp", name: "Demo IdP", type: "oidc", issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret }
 * ```
 */
export async function startIdp(options: IdpOptions): Promise<RunningIdp> {
  const server = createServer();
  const port = await listen(server, options.port);
  const issuer = `http://127.0.0.1:${port}`;
  const client: IdpClient = {
    clientId: "tessera-demo",
    clientSecret: randomBytes(24).toString("base64url"),
  };
  const returnOrigins = [...new Set(options.redirectUris.map((uri) => new URL(uri).origin))];

  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const Provider = await loadOidcProvider();
  const provider = new Provider(issuer, {
    adapter: memoryStorage(),
    clients: [
      {
        client_id: client.clientId,
        client_secret: client.clientSecret,
        client_name: "Tessera demo",
        redirect_uris: options.redirectUris,
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        post_logout_redirect_uris: options.postLogoutRedirectUris ?? [],
        ...(options.backchannelLogoutUri && {
          backchannel_logout_uri: options.backchannelLogoutUri,
          backchannel_logout_session_required: true,
        }),
      },
    ],
    jwks: {
      keys: [{ ...(await exportJWK(privateKey)), kid: "demo-idp-1", alg: "RS256", use: "sig" }],
    },
    cookies: { keys: [randomBytes(32).toString("base64url")] },
    claims: {
      openid: ["sub"],
      email: ["email", "email_verified"],
      profile: ["name"],
    },
    // The claims of the granted scopes go into the ID token too (as with Google or Keycloak).
    conformIdTokenClaims: false,
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: {
        enabled: true,
        async logoutSource(ctx, form) {
          const page = renderIdpLogout(form, returnOrigins);
          ctx.status = page.status;
          ctx.set(page.headers);
          ctx.body = page.body;
        },
        async postLogoutSuccessSource(ctx) {
          const page = renderIdpSignedOut();
          ctx.status = page.status;
          ctx.set(page.headers);
          ctx.body = page.body;
        },
      },
      backchannelLogout: { enabled: true },
    },
    // oidc-provider refuses outgoing requests to loopback addresses (its SSRF defence), and the
    // demo, which receives the back-channel logout tokens, lives on this machine.
    fetch: (url, init) => fetch(url, { ...init, dispatcher: undefined } as RequestInit),
    // A refresh token for the demo whenever its client may use the grant: oidc-provider's default
    // asks for the offline_access scope and an explicit consent, which a first-party client
    // granted automatically does not need. Rotated at each use; a replayed one revokes the grant.
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed("refresh_token"),
    rotateRefreshToken: true,
    ttl: {
      AccessToken: options.accessTokenTtl ?? 60,
      RefreshToken: 86400,
      AuthorizationCode: 60,
      IdToken: 600,
      Interaction: 600,
      Session: 3600,
      Grant: 3600,
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    async findAccount(_ctx, sub) {
      if (sub !== IDP_ACCOUNT.claims.sub) return undefined;
      return { accountId: sub, claims: () => ({ ...IDP_ACCOUNT.claims }) };
    },
    // A first-party client: consent is granted to whatever it asks for, so no consent screen.
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const accountId = ctx.oidc.session?.accountId;
      const clientId = ctx.oidc.client?.clientId;
      if (!accountId || !clientId) return undefined;
      const grantId = ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session?.grantIdFor(clientId);
      const grant =
        (grantId ? await ctx.oidc.provider.Grant.find(grantId) : undefined) ??
        new ctx.oidc.provider.Grant({ accountId, clientId });
      grant.addOIDCScope(String(ctx.oidc.params?.scope ?? "openid"));
      await grant.save();
      return grant;
    },
    renderError(ctx, out) {
      const page = renderIdpError(String(out.error_description ?? out.error ?? "Unknown error"));
      ctx.status = page.status;
      ctx.set(page.headers);
      ctx.body = page.body;
    },
  });

  const app = express();
  app.disable("x-powered-by");
  const form = express.urlencoded({ extended: false, limit: "8kb" });

  app.get("/interaction/:uid", async (req, res, next) => {
    try {
      const details = await provider.interactionDetails(req, res);
      if (details.prompt.name === "login") {
        const page = renderIdpLogin({ uid: details.uid, returnOrigins });
        res.status(page.status).set(page.headers).send(page.body);
        return;
      }
      // Consent is not asked for (see loadExistingGrant); finish any other prompt as approved.
      const grant = details.grantId
        ? await provider.Grant.find(details.grantId)
        : new provider.Grant({
            accountId: details.session?.accountId,
            clientId: String(details.params.client_id),
          });
      if (!grant) throw new Error("The interaction's grant expired.");
      grant.addOIDCScope(String(details.params.scope ?? "openid"));
      const grantId = await grant.save();
      await provider.interactionFinished(
        req,
        res,
        { consent: { grantId } },
        { mergeWithLastSubmission: true },
      );
    } catch (error) {
      next(error);
    }
  });

  app.post("/interaction/:uid/login", form, async (req, res, next) => {
    try {
      const details = await provider.interactionDetails(req, res);
      const body = (req.body ?? {}) as Record<string, unknown>;
      const username = typeof body.username === "string" ? body.username.trim() : "";
      const password = typeof body.password === "string" ? body.password : "";
      const valid =
        sameSecret(username, IDP_ACCOUNT.username) && sameSecret(password, IDP_ACCOUNT.password);
      if (!valid) {
        const page = renderIdpLogin({ uid: details.uid, returnOrigins, username, failed: true });
        res.status(page.status).set(page.headers).send(page.body);
        return;
      }
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: IDP_ACCOUNT.claims.sub } },
        { mergeWithLastSubmission: false },
      );
    } catch (error) {
      next(error);
    }
  });

  app.post("/interaction/:uid/abort", async (req, res, next) => {
    try {
      await provider.interactionFinished(
        req,
        res,
        { error: "access_denied", error_description: "The user cancelled the sign-in." },
        { mergeWithLastSubmission: false },
      );
    } catch (error) {
      next(error);
    }
  });

  app.use(provider.callback());
  // An expired or replayed interaction: a readable page instead of a stack trace.
  app.use(
    (error: Error, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      const page = renderIdpError(
        error.name === "SessionNotFound"
          ? "This sign-in attempt expired. Go back to the demo and start again."
          : "The sign-in could not be completed. Go back to the demo and start again.",
      );
      res.status(page.status).set(page.headers).send(page.body);
    },
  );

  server.on("request", app);
  return {
    issuer,
    ...client,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
