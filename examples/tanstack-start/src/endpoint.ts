import type { AuthEndpoint } from "@tessera/core/client";

/** Where the auth route answers, for the browser client: this site, under /api/auth. */
export const authEndpoint: AuthEndpoint = { baseUrl: "", basePath: "/api/auth" };
