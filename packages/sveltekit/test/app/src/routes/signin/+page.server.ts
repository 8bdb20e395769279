import type { Actions } from "@sveltejs/kit";
import { signInOrFail } from "../../auth.js";

export const actions: Actions = { default: signInOrFail };
