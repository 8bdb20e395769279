import { createFileRoute } from "@tanstack/react-router";
import { signIn } from "@tessera/core/client";
import { type FormEvent, useEffect, useState } from "react";
import { authEndpoint } from "../endpoint";

export const Route = createFileRoute("/signin")({
  validateSearch: (search: Record<string, unknown>): { callbackUrl?: string } =>
    typeof search.callbackUrl === "string" ? { callbackUrl: search.callbackUrl } : {},
  component: SignIn,
});

function SignIn() {
  const { callbackUrl = "/" } = Route.useSearch();
  const [error, setError] = useState<string>();
  // Marks the page interactive: before hydration, the form would submit without JavaScript.
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const result = await signIn(authEndpoint, "credentials", {
      email: String(form.get("email") ?? ""),
      password: String(form.get("password") ?? ""),
      redirect: false,
    });
    if (result?.error) {
      setError(result.error);
      return;
    }
    window.location.href = callbackUrl;
  }

  return (
    <main data-ready={ready ? "" : undefined}>
      <h1>Sign in</h1>
      <form onSubmit={submit}>
        <label>
          E-mail <input name="email" type="email" autoComplete="username" />
        </label>
        <label>
          Password <input name="password" type="password" autoComplete="current-password" />
        </label>
        <button type="submit">Sign in</button>
      </form>
      {error ? <p data-testid="error">Sign-in refused: {error}</p> : null}
      <button type="button" onClick={() => signIn(authEndpoint, "op", { redirectTo: callbackUrl })}>
        Sign in with the OpenID Provider
      </button>
    </main>
  );
}
