// app/api/auth/[...nextauth]/route.ts, a wrapped route handler, and middleware.
import { NextResponse } from "next/server";
import { auth, handlers } from "./auth.js";

export const { GET, POST } = handlers;

export const getMe = auth((req) => {
  if (!req.auth) return NextResponse.json({ message: "Not authenticated" }, { status: 401 });
  return NextResponse.json({ name: req.auth.user?.name });
});

export const middleware = auth((req) => {
  if (!req.auth && req.nextUrl.pathname !== "/login") {
    return NextResponse.redirect(new URL("/login", req.nextUrl.origin));
  }
});

export { auth as proxy } from "./auth.js";
export const config = { matcher: ["/((?!api|_next/static|_next/image|favicon.ico).*)"] };
