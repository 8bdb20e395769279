import type { Config } from "@react-router/dev/config";

export default {
  // Server-side rendering: loaders run on the server, where the session is read.
  ssr: true,
} satisfies Config;
