/**
 * `startDemo()`: the whole demo in one process — the SQLite database (migrated, demo user
 * created), the SMTP mail catcher, the local OpenID Provider and the Express app. `npm start`
 * and the end-to-end test both run it.
 *
 * @example
 * ```ts
 * const demo = await startDemo({ port: 0, dataDir: null, secret: "…at least 32 characters…" })
 * console.log(demo.url) // http://localhost:54321
 * await demo.close()
 * ```
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { ExpressAuthConfig } from "@tessera/express";
import { createApp } from "./app.js";
import { createAuthConfig, IDP_PROVIDER_ID, type SessionStrategy } from "./auth-config.js";
import { DEMO_USER, type DemoDatabase, openDemoDatabase } from "./database.js";
import { oauthProvidersFromEnv } from "./env-providers.js";
import { type RunningIdp, startIdp } from "./idp.js";
import { IDP_ACCOUNT } from "./idp-account.js";
import { type Mailbox, startMailbox } from "./mailbox.js";
import type { DemoFacts, MethodInfo } from "./pages/home.js";
import { startupGate } from "./readiness.js";

/** Options of {@link startDemo}. */
export interface DemoOptions {
  /** Port of the demo (default 3000; 0 picks a free one). */
  port?: number;
  /** Address to listen on (default 127.0.0.1: the demo's mailbox is for this machine only). */
  host?: string;
  /** Port of the OpenID Provider on 127.0.0.1 (default 0, a free one). */
  idpPort?: number;
  /** Folder of `demo.sqlite`; `null` keeps the database in memory. */
  dataDir: string | null;
  /** `AUTH_SECRET`: at least 32 characters of randomness. */
  secret: string;
  /** Seconds the OpenID Provider's access tokens live (default 60). */
  idpAccessTokenTtl?: number;
  /** Default `database`. */
  strategy?: SessionStrategy;
  /** Where `AUTH_GITHUB_ID`, `AUTH_GOOGLE_ID` and their secrets are read (default: none). */
  env?: Record<string, string | undefined>;
  /** Errors the demo's own pages hit (default: `console.error`). */
  onError?: (error: unknown) => void;
}

/** A running demo. */
export interface RunningDemo {
  /** `http://localhost:<port>`: passkeys need a host name, not an IP address. */
  url: string;
  port: number;
  idpIssuer: string;
  mailbox: Mailbox;
  database: DemoDatabase;
  authConfig: ExpressAuthConfig;
  facts: DemoFacts;
  close(): Promise<void>;
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

/** Starts everything; on failure, stops what already started and rethrows. */
export async function startDemo(options: DemoOptions): Promise<RunningDemo> {
  const strategy = options.strategy ?? "database";
  const cleanups: (() => Promise<void>)[] = [];
  const close = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
  };
  // Requests accepted before the app is attached wait for it (or get a 503 if the start fails).
  const gate = startupGate();
  try {
    const database = await openDemoDatabase(options.dataDir);
    cleanups.push(() => database.close());

    const mailbox = await startMailbox();
    cleanups.push(() => mailbox.close());

    // The server listens first: the OpenID Provider must know the demo's port for its redirect URIs.
    const server = createServer(gate.handle);
    const port = await listen(server, options.port ?? 3000, options.host ?? "127.0.0.1");
    cleanups.push(() => closeServer(server));
    const url = `http://localhost:${port}`;

    const redirectPath = `/auth/callback/${IDP_PROVIDER_ID}`;
    const origins = [url, `http://127.0.0.1:${port}`];
    const idp: RunningIdp = await startIdp({
      port: options.idpPort ?? 0,
      redirectUris: origins.map((origin) => `${origin}${redirectPath}`),
      // Signing out sends the browser back to the page it asked for: the home page.
      postLogoutRedirectUris: origins.flatMap((origin) => [origin, `${origin}/`]),
      // The provider posts to the demo's own address (the server listens on 127.0.0.1).
      backchannelLogoutUri: `http://127.0.0.1:${port}/auth/backchannel-logout/${IDP_PROVIDER_ID}`,
      ...(options.idpAccessTokenTtl !== undefined && {
        accessTokenTtl: options.idpAccessTokenTtl,
      }),
    });
    cleanups.push(() => idp.close());

    const oauth = oauthProvidersFromEnv(options.env ?? {});
    const authConfig = createAuthConfig({
      secret: options.secret,
      strategy,
      database,
      smtpUrl: mailbox.url,
      idp,
      extraProviders: oauth.providers,
    });
    const methods: MethodInfo[] = [
      { id: "password", name: "Password", kind: "password" },
      { id: "email", name: "Email link", kind: "email" },
      { id: IDP_PROVIDER_ID, name: "Demo IdP (OpenID Connect)", kind: "oauth" },
      ...oauth.enabled.map((entry) => ({ id: entry.id, name: entry.name, kind: "oauth" as const })),
      { id: "passkey", name: "Passkey", kind: "passkey" },
    ];
    const facts: DemoFacts = {
      strategy,
      database: options.dataDir === null ? "in memory" : database.filename,
      demoUser: { email: DEMO_USER.email, password: DEMO_USER.password },
      idp: { issuer: idp.issuer, username: IDP_ACCOUNT.username, password: IDP_ACCOUNT.password },
      methods,
      missingOAuth: oauth.missing,
    };
    const app = createApp({
      authConfig,
      database,
      mailbox,
      facts,
      onError: options.onError ?? ((error) => console.error(error)),
    });
    gate.open(app);

    return {
      url,
      port,
      idpIssuer: idp.issuer,
      mailbox,
      database,
      authConfig,
      facts,
      close,
    };
  } catch (error) {
    gate.fail();
    await close();
    throw error;
  }
}
