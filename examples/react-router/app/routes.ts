import { index, type RouteConfig, route } from "@react-router/dev/routes";

export default [
  index("routes/home.tsx"),
  route("signin", "routes/signin.tsx"),
  route("protected", "routes/protected.tsx"),
  // The resource route serving every auth action under /auth (the core's default base path).
  route("auth/*", "routes/auth.$.ts"),
] satisfies RouteConfig;
