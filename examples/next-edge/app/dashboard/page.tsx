import { auth } from "@/auth";

// Reached only through the edge middleware, which let a signed-in visitor in.
export default async function Dashboard() {
  const session = await auth();
  return (
    <main>
      <h1>Dashboard</h1>
      <p data-testid="dashboard-user">{session?.user?.name}</p>
    </main>
  );
}
