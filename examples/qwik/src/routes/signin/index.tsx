import { component$ } from "@builder.io/qwik";
import { Form, useLocation } from "@builder.io/qwik-city";
import { useSignIn } from "../plugin@auth";

/** What the sign-in page says for an `?error=` Tessera redirected here with. */
const MESSAGES: Record<string, string> = {
  CredentialsSignin: "Wrong e-mail or password.",
};

export default component$(() => {
  const signIn = useSignIn();
  const { url } = useLocation();
  const error = url.searchParams.get("error");
  const redirectTo = url.searchParams.get("callbackUrl") ?? "/";
  return (
    <main>
      <h1>Sign in</h1>
      {error && (
        <p data-testid="error" data-error={error}>
          {MESSAGES[error] ?? "Sign-in failed."}
        </p>
      )}
      <Form action={signIn}>
        <input type="hidden" name="providerId" value="credentials" />
        <input type="hidden" name="options.redirectTo" value={redirectTo} />
        <label>
          E-mail <input name="options.email" type="email" />
        </label>
        <label>
          Password <input name="options.password" type="password" />
        </label>
        <button type="submit">Sign in</button>
      </Form>
      <Form action={signIn}>
        <input type="hidden" name="providerId" value="fixture-op" />
        <input type="hidden" name="options.redirectTo" value={redirectTo} />
        <button type="submit">Sign in with Test OP</button>
      </Form>
    </main>
  );
});
