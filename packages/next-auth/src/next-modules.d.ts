/**
 * Next.js's bundlers give `next/headers` its per-layer build only when it is imported by this bare
 * name, which does not resolve under NodeNext: it is declared here as the module it stands for.
 */
declare module "next/headers" {
  export * from "next/headers.js";
}
