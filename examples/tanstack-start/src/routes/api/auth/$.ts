// Every auth action under /api/auth (the default base path): sign-in, callbacks, session,
// sign-out.
import { createFileRoute } from "@tanstack/react-router";
import { handlers } from "../../../auth";

export const Route = createFileRoute("/api/auth/$")({ server: { handlers } });
