/**
 * Next.js's bundlers swap `next/navigation` and `next/headers` for per-layer builds only when they
 * are imported by these bare names (Turbopack does not alias `next/navigation.js` in route
 * handlers). The bare names do not resolve under NodeNext, so they are declared here as the
 * fully specified modules they stand for.
 */
declare module "next/navigation" {
  export * from "next/navigation.js";
}
declare module "next/headers" {
  export * from "next/headers.js";
}
