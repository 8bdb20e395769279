import type { Actions } from "@sveltejs/kit";
import { signInOrFail } from "../../auth.js";

// The page's own sign-in action (SignIn's `signInPage`): a refusal stays on this page.
export const actions: Actions = { default: signInOrFail };
