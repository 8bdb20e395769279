/**
 * The server route under the base path (`/api/auth/**`): h3's event becomes the `Request` the
 * core's HTTP path takes, with the socket's address as the client IP (never a forwarded header,
 * which any client can write), and the core's `Response` goes back as it is.
 */
import { Auth } from "@tessera/core";
import { defineEventHandler, getRequestIP, toWebRequest } from "h3";
import { preparedConfig } from "./config.js";

export default defineEventHandler(async (event) => {
  const { config } = preparedConfig();
  const clientIp = getRequestIP(event);
  return Auth(toWebRequest(event), config, clientIp ? { clientIp } : {});
});
