/** The alias the module gives Nitro for the app's `server/auth.config.ts`. */
declare module "#tessera/config" {
  const config: import("../config.js").NuxtAuthConfig;
  export default config;
}
