import type { Actions } from "@sveltejs/kit";
import { signOut } from "../../auth.js";

export const actions: Actions = { default: signOut };
