// Pages of the @auth/qwik guide (sign in and out by form and by code, the session, a route
// guard through sharedMap), with Tessera's imports.

import { component$ } from "@builder.io/qwik";
import { Form, type RequestHandler } from "@builder.io/qwik-city";
import type { Session } from "@tessera/qwik";
import { useSession, useSignIn, useSignOut } from "./plugin@auth";

export const SignInForm = component$(() => {
  const signIn = useSignIn();
  return (
    <Form action={signIn}>
      <input type="hidden" name="providerId" value="github" />
      <input type="hidden" name="options.redirectTo" value="/dashboard" />
      <button type="submit">Sign In</button>
    </Form>
  );
});

export const SignInByCode = component$(() => {
  const signIn = useSignIn();
  return (
    <button
      type="button"
      onClick$={() =>
        signIn.submit({
          providerId: "credentials",
          options: { redirectTo: "/dashboard", email: "ada@example.com", password: "pw" },
          authorizationParams: { prompt: "login" },
        })
      }
    >
      {signIn.isRunning ? "…" : "Sign In"}
      {signIn.value?.failed && signIn.value.fieldErrors.providerId?.join(", ")}
    </button>
  );
});

export const SignOut = component$(() => {
  const signOut = useSignOut();
  // @ts-expect-error: redirectTo is a string
  const wrong = () => signOut.submit({ redirectTo: 1 });
  void wrong;
  return (
    <>
      <Form action={signOut}>
        <input type="hidden" name="redirectTo" value="/signedout" />
        <button type="submit">Sign Out</button>
      </Form>
      <button type="button" onClick$={() => signOut.submit({ redirectTo: "/signedout" })}>
        Sign Out
      </button>
    </>
  );
});

export const Profile = component$(() => {
  const session = useSession();
  const user: Session["user"] | undefined = session.value?.user;
  const expires: string | undefined = session.value?.expires;
  return (
    <p>
      {user?.email} {expires}
    </p>
  );
});

export const onRequest: RequestHandler = (event) => {
  const session = event.sharedMap.get("session") as Session | null;
  if (!session || new Date(session.expires) < new Date()) {
    throw event.redirect(302, `/auth/signin?redirectTo=${event.url.pathname}`);
  }
};
