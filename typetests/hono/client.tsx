// The @hono/auth-js README's React client, with Tessera's imports.
import {
  authConfigManager,
  getCsrfToken,
  getProviders,
  getSession,
  SessionProvider,
  signIn,
  signOut,
  useSession,
} from "@tessera/hono/react";

authConfigManager.setConfig({ basePath: "/custom" });

export default function App() {
  return (
    <SessionProvider refetchInterval={60} refetchOnWindowFocus>
      <Children />
    </SessionProvider>
  );
}

function Children() {
  const { data: session, status, update } = useSession();
  if (status === "loading") return <p>…</p>;
  if (!session)
    return (
      <button type="button" onClick={() => signIn("github", { callbackUrl: "/" })}>
        Sign in
      </button>
    );
  return (
    <>
      <div>I am {session.user?.name}</div>
      <button type="button" onClick={() => update({ name: "Ada" })}>
        Rename
      </button>
      <button type="button" onClick={() => signOut({ callbackUrl: "/", redirect: true })}>
        Sign out
      </button>
    </>
  );
}

export async function credentials(username: string, password: string) {
  const result = await signIn("credentials", { username, password, redirect: false });
  const error: string | undefined = result?.error;
  const token: string = await getCsrfToken();
  const providers = await getProviders();
  const session = await getSession();
  return { error, token, providers, session };
}

export function Required() {
  const { data } = useSession({ required: true, onUnauthenticated: () => undefined });
  // @ts-expect-error with required: true, data is a Session or null while loading, never a string
  const wrong: string = data;
  return <p>{String(wrong)}</p>;
}
