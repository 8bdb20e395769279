import { getToken } from "@tessera/next-auth/jwt";
import type { NextApiRequest, NextApiResponse } from "next";

export default async function handler(req: NextApiRequest, res: NextApiResponse) {
  const token = await getToken({ req });
  if (!token) return res.status(401).json({ error: "Sign in first." });
  res.json({ sub: token.sub, email: token.email, role: token.role });
}
