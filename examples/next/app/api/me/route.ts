import { auth } from "@/auth";

// auth(handler): the `authorized` callback answers 401 to visitors; signed-in users get here.
export const GET = auth((request) => Response.json({ user: request.auth?.user ?? null }));
