// The module serves /api/auth and reads server/auth.config.ts; pages use useSession() and the
// `auth` route middleware. AUTH_SECRET (and AUTH_URL behind a proxy) come from the environment.
export default defineNuxtConfig({
  compatibilityDate: "2025-07-15",
  modules: ["@tessera/nuxt"],
  tessera: { signInPage: "/signin" },
  devtools: { enabled: false },
  telemetry: false,
});
