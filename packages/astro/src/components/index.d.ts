import type { AstroComponentFactory } from "astro/runtime/server/index.js";

/** Renders its default slot as a function of the session (`getSession` with `auth:config`). */
export declare const Auth: AstroComponentFactory;
/** A button signing in with its `provider` (props `provider`, `options`, `authParams`). */
export declare const SignIn: AstroComponentFactory;
/** A button signing out (prop `params`: `callbackUrl`/`redirectTo`, `prefix`). */
export declare const SignOut: AstroComponentFactory;
