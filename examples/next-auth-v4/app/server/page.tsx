import { getServerSession } from "@tessera/next-auth/next";
import { authOptions } from "@/pages/api/auth/[...nextauth]";

export const dynamic = "force-dynamic";

// An App Router server component reading the session, as v4 apps do.
export default async function ServerPage() {
  const session = await getServerSession(authOptions);
  return <p data-testid="server-user">{session?.user?.name ?? "Not signed in"}</p>;
}
