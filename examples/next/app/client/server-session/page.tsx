import { SessionProvider } from "@tessera/next/react";
import { Suspense } from "react";
import { auth } from "@/auth";
import { SessionPanel } from "../session-panel";

// The provider starts from the server's session: no loading state, no fetch on the first render.
export default function ServerSessionPage() {
  return (
    <Suspense fallback={<p>Loading…</p>}>
      <ProviderWithServerSession />
    </Suspense>
  );
}

async function ProviderWithServerSession() {
  return (
    <SessionProvider session={await auth()}>
      <SessionPanel />
    </SessionProvider>
  );
}
