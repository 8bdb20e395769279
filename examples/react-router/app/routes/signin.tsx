import { signIn } from "@tessera/react-router/client";
import { useEffect, useState } from "react";
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
  // Marks the page interactive: the client buttons do nothing before hydration.
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  return (
    <main data-ready={ready ? "" : undefined}>
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
      </form>
      {error ? <p data-testid="error">Sign-in refused: {error}</p> : null}
      <button type="button" onClick={() => signIn("op", { redirectTo: callbackUrl ?? "/" })}>
        Sign in with the OpenID Provider
      </button>
    </main>
  );
}
