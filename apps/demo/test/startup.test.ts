/**
 * Requests that reach the demo while it starts: the server listens before the app is attached
 * (the OpenID Provider needs the demo's port first), and a request accepted in that window used to
 * get no answer at all. Every request is fired on loopback with a bound on how long it may wait.
 */
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../../../packages/core/test/fixtures/ports.js";
import { type RunningDemo, startDemo } from "../src/demo.js";
import { startupGate } from "../src/readiness.js";

const SECRET = "demo-startup-test-secret-with-more-than-32-chars";
const running: RunningDemo[] = [];
const servers: Server[] = [];
afterAll(async () => {
  for (const demo of running) await demo.close();
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/**
 * How long a probe waits for an answer before it counts as never answered: far longer than the
 * held requests need once the demo is up, even on a busy machine, and still bounded.
 */
const ANSWER_BOUND_MS = 15_000;
/** Probes start every 10 ms: dozens land in the start-up window without flooding the app. */
const PROBE_INTERVAL_MS = 10;

interface Probe {
  /** The HTTP status, "refused" (nothing listening yet) or "no answer" (hung). */
  outcome: number | "refused" | "no answer" | "error";
  /** Whether the connection was accepted before `startDemo` resolved. */
  acceptedWhileStarting: boolean;
  retryAfter?: string;
}

function probe(port: number, starting: () => boolean): Promise<Probe> {
  return new Promise((resolve) => {
    let acceptedWhileStarting = false;
    const req = request({ host: "127.0.0.1", port, path: "/", agent: false }, (res) => {
      res.resume();
      res.on("end", () =>
        resolve({
          outcome: res.statusCode ?? 0,
          acceptedWhileStarting,
          ...(res.headers["retry-after"] !== undefined && {
            retryAfter: res.headers["retry-after"],
          }),
        }),
      );
    });
    req.on("socket", (socket) =>
      socket.once("connect", () => {
        acceptedWhileStarting = starting();
      }),
    );
    req.setTimeout(ANSWER_BOUND_MS, () => {
      resolve({ outcome: "no answer", acceptedWhileStarting });
      req.destroy();
    });
    req.on("error", (error: NodeJS.ErrnoException) =>
      resolve({
        outcome: error.code === "ECONNREFUSED" ? "refused" : "error",
        acceptedWhileStarting,
      }),
    );
    req.end();
  });
}

describe("requests while the demo starts", () => {
  it("answers every request accepted before the app is ready, instead of leaving it hanging", async () => {
    const port = await freePort();
    let starting = true;
    const demo = startDemo({ port, dataDir: null, secret: SECRET }).finally(() => {
      starting = false;
    });
    const probes: Promise<Probe>[] = [];
    while (starting) {
      probes.push(probe(port, () => starting));
      await sleep(PROBE_INTERVAL_MS);
    }
    running.push(await demo);
    const results = await Promise.all(probes);

    const accepted = results.filter((result) => result.acceptedWhileStarting);
    // The window exists (the OpenID Provider starts after the demo listens): some probes hit it.
    expect(accepted.length).toBeGreaterThan(0);
    expect(accepted.map((result) => result.outcome)).toEqual(accepted.map(() => 200));
    expect(results.filter((result) => result.outcome === "no answer")).toEqual([]);
  }, 60_000);
});

describe("startupGate", () => {
  async function gatedServer(maxWaitMs?: number) {
    const gate = startupGate(maxWaitMs === undefined ? {} : { maxWaitMs });
    const server = createServer(gate.handle);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return { gate, port: (server.address() as AddressInfo).port };
  }

  it("answers 503 with Retry-After to waiting and later requests when the start fails", async () => {
    const { gate, port } = await gatedServer();
    const waiting = probe(port, () => true);
    await sleep(50);
    gate.fail();
    expect(await waiting).toMatchObject({ outcome: 503, retryAfter: "1" });
    expect(await probe(port, () => true)).toMatchObject({ outcome: 503, retryAfter: "1" });
  });

  it("answers 503 with Retry-After when the start takes longer than the wait allows", async () => {
    const { port } = await gatedServer(100);
    expect(await probe(port, () => true)).toMatchObject({ outcome: 503, retryAfter: "1" });
  });

  it("hands waiting requests to the app once it is ready", async () => {
    const { gate, port } = await gatedServer();
    const waiting = probe(port, () => true);
    await sleep(50);
    gate.open((_req, res) => res.writeHead(204).end());
    expect(await waiting).toMatchObject({ outcome: 204 });
  });
});
