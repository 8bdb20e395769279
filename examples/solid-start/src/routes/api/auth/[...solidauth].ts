// Every auth action under /api/auth (the default prefix): sign-in, callbacks, session, sign-out.
import { SolidAuth } from "@tessera/solid-start";
import { authOptions } from "~/auth";

export const { GET, POST } = SolidAuth(authOptions);
