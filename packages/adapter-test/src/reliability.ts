/**
 * Helpers for an adapter's reliability tests: a database that hangs, and how long a call took to
 * settle. They let a test prove that calls fail within a bounded time instead of queueing forever.
 */
import { createServer, type Socket } from "node:net";

/**
 * A TCP server on 127.0.0.1 that accepts connections and never answers: a database that hangs.
 *
 * @example
 * ```ts
 * const hung = await silentServer()
 * const adapter = MyAdapter(connect(`db://127.0.0.1:${hung.port}`))
 * await hung.close()
 * ```
 */
export async function silentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("the silent server has no port");
  return {
    port: address.port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * Milliseconds `run` took to settle, and the error if it rejected.
 *
 * @example
 * ```ts
 * const { ms, error } = await timed(() => adapter.getUser("1"))
 * expect(error).toBeInstanceOf(Error)
 * ```
 */
export async function timed(run: () => unknown): Promise<{ ms: number; error: unknown }> {
  const started = performance.now();
  try {
    await run();
    return { ms: performance.now() - started, error: undefined };
  } catch (error) {
    return { ms: performance.now() - started, error };
  }
}
