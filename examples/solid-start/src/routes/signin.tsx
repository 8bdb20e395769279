import { useSearchParams } from "@solidjs/router";
import { signIn } from "@tessera/solid-start/client";
import { createSignal, onMount, Show } from "solid-js";

export default function SignIn() {
  const [params] = useSearchParams();
  const [error, setError] = createSignal<string>();
  // Marks the page interactive: before hydration, the form would submit without JavaScript.
  const [ready, setReady] = createSignal(false);
  onMount(() => setReady(true));
  const redirectTo = () => {
    const callbackUrl = params.callbackUrl;
    return typeof callbackUrl === "string" ? callbackUrl : "/";
  };

  async function submit(event: SubmitEvent) {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const result = await signIn("credentials", {
      email: String(form.get("email") ?? ""),
      password: String(form.get("password") ?? ""),
      redirect: false,
    });
    if (result.error) {
      setError(result.error);
      return;
    }
    window.location.href = redirectTo();
  }

  return (
    <main data-ready={ready() ? "" : undefined}>
      <h1>Sign in</h1>
      <form onSubmit={submit}>
        <label>
          E-mail <input name="email" type="email" autocomplete="username" />
        </label>
        <label>
          Password <input name="password" type="password" autocomplete="current-password" />
        </label>
        <button type="submit">Sign in</button>
      </form>
      <Show when={error()}>{(type) => <p data-testid="error">Sign-in refused: {type()}</p>}</Show>
      <button type="button" onClick={() => signIn("op", { redirectTo: redirectTo() })}>
        Sign in with the OpenID Provider
      </button>
    </main>
  );
}
