/**
 * Shared pieces of the tests that send the same input through `@auth/core` and Tessera
 * (authjs-suite*.test.ts): the two handlers of a case, and their answers in one comparable shape.
 */
import { ORIGIN, SECRET } from "./helpers.js";

export type Side = "authjs" | "tessera";
export type Handler = (request: Request) => Promise<Response>;

export interface Answer {
  status: number;
  location: string | null;
  body: unknown;
}

export async function answerOf(response: Response): Promise<Answer> {
  const text = await response.text();
  const isJson = response.headers.get("content-type")?.startsWith("application/json");
  return {
    status: response.status,
    location: response.headers.get("location"),
    body: isJson ? JSON.parse(text) : text === "" ? "" : "(html)",
  };
}

/** The same request (built afresh: a body is read once) to both sides. */
export async function both(
  sides: Record<Side, Handler>,
  path: string,
  init: RequestInit = {},
): Promise<Record<Side, Answer>> {
  const send = (side: Side) => sides[side](new Request(new URL(path, ORIGIN), init));
  return {
    authjs: await answerOf(await send("authjs")),
    tessera: await answerOf(await send("tessera")),
  };
}

export const CONFIGURATION_ERROR = {
  message:
    "There was a problem with the server configuration. Check the server logs for more information.",
};
export const quiet = { error() {}, warn() {}, debug() {} };
export const common = { secret: SECRET, trustHost: true, basePath: "/auth", logger: quiet };
