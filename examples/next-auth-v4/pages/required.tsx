import { useSession } from "@tessera/next-auth/react";

export default function Required() {
  const { data: session, status } = useSession({ required: true });
  if (status === "loading") return <p>Loading…</p>;
  return <p data-testid="required-user">{session.user?.email}</p>;
}
