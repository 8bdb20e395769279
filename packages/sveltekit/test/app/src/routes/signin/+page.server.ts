import { type Actions, fail } from "@sveltejs/kit";
import { CredentialsSignin } from "@tessera/core/errors";
import { signIn } from "../../auth.js";

export const actions: Actions = {
  default: async (event) => {
    try {
      return await signIn(event);
    } catch (error) {
      // Form actions get the error instead of a redirect: answer in the page.
      if (error instanceof CredentialsSignin) return fail(400, { error: error.code });
      throw error;
    }
  },
};
