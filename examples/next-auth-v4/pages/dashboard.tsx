import { useSession } from "@tessera/next-auth/react";

// Protected by middleware.ts: signed-out visitors never reach this page.
export default function Dashboard() {
  const { data: session } = useSession();
  return <p data-testid="dashboard-user">{session?.user?.name ?? "…"}</p>;
}
