import { handlers } from "@/auth";

// Sign-in, callbacks and sign-out run on Node, where the adapter stores users and accounts.
export const { GET, POST } = handlers;
