import { getServerSession } from "@tessera/next-auth";
import { authOptions } from "@/pages/api/auth/[...nextauth]";

// An App Router route handler reading the session, as v4 apps do.
export async function GET() {
  const session = await getServerSession(authOptions);
  return Response.json({ email: session?.user?.email ?? null });
}
