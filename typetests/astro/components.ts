// auth-astro/components: the same three components.
import { Auth, SignIn, SignOut } from "@tessera/astro/components";
import type { AstroComponentFactory } from "astro/runtime/server/index.js";

export const components: AstroComponentFactory[] = [Auth, SignIn, SignOut];
