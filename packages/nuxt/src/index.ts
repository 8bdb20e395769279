/**
 * Tessera for Nuxt 4, as a Nuxt module: add `"@tessera/nuxt"` to `modules` and it serves every
 * action under `/api/auth`, gives server code `getServerSession(event)` and pages the
 * `useSession()` composable (with `signIn`/`signOut`), and registers the `auth` route middleware
 * that sends signed-out visitors to the sign-in page. The providers and callbacks live in
 * `server/auth.config.ts` (server-only: it never reaches the browser bundle); the secret and the
 * site URL come from the environment (`AUTH_SECRET`, `AUTH_URL`) or `runtimeConfig`.
 *
 * @example
 * ```ts
 * // nuxt.config.ts
 * export default defineNuxtConfig({
 *   modules: ["@tessera/nuxt"],
 *   tessera: { signInPage: "/signin" },
 * })
 * ```
 */
import { existsSync } from "node:fs";
import {
  addImports,
  addPlugin,
  addRouteMiddleware,
  addServerHandler,
  addServerImports,
  addServerPlugin,
  createResolver,
  defineNuxtModule,
  resolvePath,
} from "nuxt/kit";
import type { Nuxt, NuxtModule } from "nuxt/schema";

/** The options of the module, under `tessera` in `nuxt.config.ts`. */
export interface ModuleOptions {
  /** Where the actions are served (the core's `basePath`). Default `/api/auth`. */
  basePath: string;
  /**
   * The server-only file whose default export is the auth configuration (providers, callbacks,
   * adapter), as `defineAuthConfig` from `@tessera/nuxt/config` types it. Default
   * `~~/server/auth.config` (`.ts` or `.js`).
   */
  configFile: string;
  /**
   * Where the `auth` route middleware sends signed-out visitors, with `?callbackUrl=` the page
   * they asked for. Default: the built-in sign-in page, `<basePath>/signin`.
   */
  signInPage?: string;
}

/** The part of the module's options pages read, in `runtimeConfig.public.tessera`. */
export interface PublicTesseraConfig {
  basePath: string;
  signInPage: string;
}

/** The server-only part, in `runtimeConfig.tessera` (`NUXT_TESSERA_SECRET` sets the secret). */
export interface PrivateTesseraConfig {
  /** The secret, when not in `AUTH_SECRET`. */
  secret: string;
}

// The `tessera` key of nuxt.config.ts, typed before Nuxt generates the app's own schema types.
declare module "nuxt/schema" {
  interface NuxtConfig {
    tessera?: Partial<ModuleOptions>;
  }
  interface NuxtOptions {
    tessera: ModuleOptions;
  }
  interface PublicRuntimeConfig {
    tessera: PublicTesseraConfig;
  }
  interface RuntimeConfig {
    tessera: PrivateTesseraConfig;
  }
}

/** `/api/auth/` and `api/auth` as `/api/auth`. */
function normalise(path: string): string {
  const trimmed = path.replace(/^\/+|\/+$/g, "");
  return `/${trimmed}`;
}

/**
 * The Nuxt module. Nuxt module authors keep server configuration in a file the module points
 * Nitro at (as `app.config.ts` or i18n's config file): the auth config holds functions
 * (`authorize`, callbacks) and adapters, which `runtimeConfig` (serialisable values only) cannot
 * carry, and a file imported only by the server route keeps it out of the browser bundle.
 *
 * @example
 * ```ts
 * export default defineNuxtConfig({ modules: ["@tessera/nuxt"], tessera: { basePath: "/auth" } })
 * ```
 */
const module: NuxtModule<ModuleOptions> = defineNuxtModule<ModuleOptions>({
  meta: { name: "@tessera/nuxt", configKey: "tessera", compatibility: { nuxt: ">=4.0.0" } },
  defaults: { basePath: "/api/auth", configFile: "~~/server/auth.config" },
  async setup(options: ModuleOptions, nuxt: Nuxt) {
    const resolver = createResolver(import.meta.url);
    const basePath = normalise(options.basePath);
    const configFile = await resolvePath(options.configFile, {
      extensions: [".ts", ".mts", ".js", ".mjs"],
    });
    if (!existsSync(configFile))
      throw new Error(
        `@tessera/nuxt found no auth configuration at ${options.configFile}. Create server/auth.config.ts exporting \`defineAuthConfig({ providers: [...] })\` as its default, or set \`tessera.configFile\` in nuxt.config.ts.`,
      );

    const runtimeConfig = nuxt.options.runtimeConfig as Record<string, unknown> & {
      public: Record<string, unknown>;
    };
    const publicConfig: PublicTesseraConfig = {
      basePath,
      signInPage: options.signInPage ?? `${basePath}/signin`,
    };
    runtimeConfig.public.tessera = {
      ...publicConfig,
      ...(runtimeConfig.public.tessera as Partial<PublicTesseraConfig> | undefined),
    };
    const privateConfig: PrivateTesseraConfig = { secret: "" };
    runtimeConfig.tessera = {
      ...privateConfig,
      ...(runtimeConfig.tessera as Partial<PrivateTesseraConfig> | undefined),
    };

    // Only Nitro resolves the config file: the app (and so the browser) never imports it.
    // `nitro` is typed by Nuxt's Nitro builder, which augments the schema in apps only.
    const { nitro } = nuxt.options as unknown as { nitro: { alias?: Record<string, string> } };
    nitro.alias = { ...nitro.alias, "#tessera/config": configFile };

    addServerHandler({
      route: `${basePath}/**`,
      handler: resolver.resolve("./runtime/server/handler"),
    });
    addServerPlugin(resolver.resolve("./runtime/server/plugin"));
    const serverFunctions = resolver.resolve("./runtime/server/session");
    addServerImports(
      ["getServerSession", "serverPasskeys", "serverActionRunner"].map((name) => ({
        name,
        from: serverFunctions,
      })),
    );
    addImports([{ name: "useSession", from: resolver.resolve("./runtime/composables") }]);
    addPlugin(resolver.resolve("./runtime/plugin"));
    addRouteMiddleware({ name: "auth", path: resolver.resolve("./runtime/middleware") });
  },
});

export default module;
