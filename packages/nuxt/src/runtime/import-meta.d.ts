/** Nuxt's build-time flags, which the bundler replaces with `true`/`false`. */
interface ImportMeta {
  readonly server: boolean;
  readonly client: boolean;
}
