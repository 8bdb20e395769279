import { getServerSession } from "@tessera/next-auth";
import type { GetServerSideProps } from "next";
import { authOptions } from "./api/auth/[...nextauth]";

export const getServerSideProps: GetServerSideProps = async ({ req, res }) => {
  const session = await getServerSession(req, res, authOptions);
  if (!session) return { redirect: { destination: "/api/auth/signin", permanent: false } };
  // `session` also primes _app.tsx's SessionProvider (no loading state on the first render).
  return { props: { session, name: session.user?.name ?? null } };
};

export default function ServerSide({ name }: { name: string | null }) {
  return <p data-testid="ssr-user">{name}</p>;
}
