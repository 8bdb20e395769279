import { auth } from "@/auth";
import { readyAdapter } from "@/db";

// A Node route handler: the session from the JWT cookie, and the user as the database has it.
export async function GET() {
  const session = await auth();
  const email = session?.user?.email;
  if (!email) return Response.json({ message: "Sign in first." }, { status: 401 });
  const adapter = await readyAdapter();
  const stored = await adapter.getUserByEmail(email);
  const accounts = stored ? await adapter.listAccountsByUserId(stored.id) : [];
  return Response.json({
    user: session.user,
    stored: stored && { id: stored.id, email: stored.email, name: stored.name },
    providers: accounts.map((account) => account.provider),
  });
}
