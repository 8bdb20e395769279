// The modules the integration's Vite plugin serves (see vite.ts). Declared here, in a file the
// published index.d.ts references, so that an app importing `@tessera/astro` can
// `import authConfig from "auth:config"` with its type.
declare module "auth:config" {
  const config: import("./config.js").FullAuthConfig;
  export default config;
}

declare module "tessera:astro/setup" {
  const setup: import("./vite.js").AstroSetup;
  export default setup;
}
