import { component$, Slot } from "@builder.io/qwik";
import type { RequestHandler } from "@builder.io/qwik-city";
import type { Session } from "@tessera/qwik";

// The route guard of Qwik City: the auth plugin put the session into `sharedMap` before this ran.
export const onRequest: RequestHandler = (event) => {
  const session = event.sharedMap.get("session") as Session | null;
  if (!session || new Date(session.expires) < new Date()) {
    throw event.redirect(302, `/auth/signin?callbackUrl=${encodeURIComponent(event.url.pathname)}`);
  }
};

export default component$(() => <Slot />);
