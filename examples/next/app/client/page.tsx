import { SessionProvider } from "@tessera/next/react";
import { SessionPanel } from "./session-panel";

export default function ClientPage() {
  // Without a `session` prop the provider fetches /api/auth/session in the browser.
  return (
    <SessionProvider>
      <SessionPanel />
    </SessionProvider>
  );
}
