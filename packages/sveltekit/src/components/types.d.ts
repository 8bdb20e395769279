/** Props of the `SignIn` and `SignOut` components (`@tessera/sveltekit/components`). */
import type { Snippet } from "svelte";
import type { HTMLFormAttributes } from "svelte/elements";

/** Attributes passed on to the `<form>` (`id`, `data-*`, `aria-*`, …). */
type FormAttributes = Omit<HTMLFormAttributes, "action" | "method" | "children" | "class"> & {
  /** Classes added to the form's own (`signInButton` or `signOutButton`). */
  class?: string;
};

/** What the sign-in form submits besides the provider: where to land, and whether to redirect. */
export type SignInFormOptions =
  | FormData
  | {
      /** Where the user lands after signing in. Default: the page the form is on. */
      redirectTo?: string;
      /** `false` makes the form action answer with the URL instead of redirecting. */
      redirect?: boolean;
    };

/** Props of `SignIn`: a form posting to the app's sign-in form action. */
export interface SignInProps extends FormAttributes {
  /** The provider id, e.g. `"github"`, `"credentials"`, `"resend"`. Default: none (the sign-in page). */
  provider?: string;
  /**
   * The route of the form action (`src/routes/<signInPage>/+page.server.ts` exporting
   * `actions = { default: signIn }`), under `$app/paths`' `base`. Default `"signin"`.
   */
  signInPage?: string;
  options?: SignInFormOptions;
  /** Extra parameters of the provider's authorization request, e.g. `{ prompt: "login" }`. */
  authorizationParams?: string | string[][] | Record<string, string> | URLSearchParams;
  /** Classes added to the form's `signInButton` class. */
  className?: string;
  /** The form's fields for a credentials provider (slot or snippet `credentials`). */
  credentials?: Snippet;
  /** Replaces the e-mail input shown for e-mail providers (slot or snippet `email`). */
  email?: Snippet;
  /** The button's content (slot or snippet `submitButton`). Default `Sign in with <provider>`. */
  submitButton?: Snippet;
}

/** Props of `SignOut`: a form posting to the app's sign-out form action. */
export interface SignOutProps extends FormAttributes {
  /** The route of the form action, under `$app/paths`' `base`. Default `"signout"`. */
  signOutPage?: string;
  options?: {
    /** Where the user lands after signing out. Default: the page the form is on. */
    redirectTo?: string;
    /** `false` makes the form action answer with the URL instead of redirecting. */
    redirect?: boolean;
  };
  /** Classes added to the form's `signOutButton` class. */
  className?: string;
  /** The button's content (slot or snippet `submitButton`). Default `Sign Out`. */
  submitButton?: Snippet;
}
