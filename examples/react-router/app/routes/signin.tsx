import { signIn } from "@tessera/react-router/client";
import { useState } from "react";
import { data } from "react-router";
import { getCsrfToken } from "../auth.server";
import type { Route } from "./+types/signin";

/** A same-site path to come back to; anything else (open redirect) is dropped. */
function localPath(value: string | null): string | null {
  return value?.startsWith("/") && !value.startsWith("//") && !value.startsWith("/\\")
    ? value
    : null;
}

export async function loader({ request }: Route.LoaderArgs) {
  // The plain form posts the token; its double-submit cookie goes out with the page.
  const headers = new Headers();
  const csrfToken = await getCsrfToken(request, headers);
  const url = new URL(request.url);
  return data(
    {
      csrfToken,
      callbackUrl: localPath(url.searchParams.get("callbackUrl")),
      error: url.searchParams.get("error"),
    },
    { headers },
  );
}

export default function SignIn({ loaderData }: Route.ComponentProps) {
  const { csrfToken, callbackUrl, error } = loaderData;
  const [refusal, setRefusal] = useState<string | null>(error);

  // The browser client's way: the same form, checked without leaving the page.
  async function signInHere(form: HTMLFormElement | null) {
    const fields = new FormData(form ?? undefined);
    const result = await signIn("credentials", {
      email: String(fields.get("email") ?? ""),
      password: String(fields.get("password") ?? ""),
      redirect: false,
    });
    if (result?.error) setRefusal(result.error);
    else window.location.assign(callbackUrl ?? "/");
  }

  return (
    <main>
      <h1>Sign in</h1>
      {/* Works without JavaScript: a plain post to the resource route, with the CSRF token. */}
      <form method="post" action="/auth/callback/credentials">
        <input type="hidden" name="csrfToken" value={csrfToken} />
        {/* Without one, the core falls back to the callback-url cookie of an earlier attempt. */}
        {callbackUrl ? <input type="hidden" name="callbackUrl" value={callbackUrl} /> : null}
        <label>
          E-mail <input name="email" type="email" autoComplete="username" />
        </label>
        <label>
          Password <input name="password" type="password" autoComplete="current-password" />
        </label>
        <button type="submit">Sign in</button>
        <button type="button" onClick={(event) => signInHere(event.currentTarget.form)}>
          Sign in without leaving the page
        </button>
      </form>
      {refusal ? <p data-testid="error">Sign-in refused: {refusal}</p> : null}
      <button type="button" onClick={() => signIn("op", { redirectTo: callbackUrl ?? "/" })}>
        Sign in with the OpenID Provider
      </button>
    </main>
  );
}
