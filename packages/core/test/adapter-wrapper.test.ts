/**
 * The adapter Tessera hands to actions is a wrapper (a Proxy) that turns failures into
 * `AdapterError`s. It must still behave like a plain object where JavaScript probes it.
 */
import type { Adapter } from "@tessera/core/adapters";
import { MemoryAdapter } from "@tessera/memory";
import { describe, expect, it } from "vitest";
import { resolveConfig } from "../src/lib/config/resolve.js";
import { recordingLogger, SECRET } from "./helpers.js";

function wrapped(adapter: Adapter) {
  const resolved = resolveConfig({
    secret: SECRET,
    providers: [],
    adapter,
    logger: recordingLogger().logger,
  });
  if (!resolved.adapter) throw new Error("the config has an adapter");
  return resolved.adapter;
}

/** Resolves with `"pending"` if `promise` has not settled after `ms`. */
function settles<T>(promise: Promise<T>, ms = 200): Promise<T | "pending"> {
  return Promise.race([
    promise,
    new Promise<"pending">((resolve) => setTimeout(() => resolve("pending"), ms)),
  ]);
}

describe("the wrapped adapter", () => {
  it("is not a thenable: awaiting it settles with the adapter (promise hang)", async () => {
    const adapter = wrapped(MemoryAdapter());
    const awaited = await settles((async () => ({ value: await adapter }))());
    expect(awaited).not.toBe("pending");
    expect(awaited).toEqual({ value: adapter });
    expect(Reflect.get(adapter, "then")).toBeUndefined();
  });

  it("passes symbol keys through instead of answering a stub method", () => {
    const adapter = wrapped(MemoryAdapter());
    expect(Reflect.get(adapter, Symbol.iterator)).toBeUndefined();
    expect(Reflect.get(adapter, Symbol.toPrimitive)).toBeUndefined();
  });

  it("still wraps methods: a failure becomes an AdapterError naming the method", async () => {
    const adapter = wrapped({
      ...MemoryAdapter(),
      getUser: () => Promise.reject(new Error("connection refused")),
    });
    await expect(adapter.getUser("1")).rejects.toMatchObject({
      type: "AdapterError",
      message: expect.stringContaining('"getUser" failed: connection refused'),
    });
  });

  it("still answers a missing method with a MissingAdapterMethods error", async () => {
    const { getUserByAccount: _, ...partial } = MemoryAdapter();
    const adapter = wrapped(partial);
    await expect(
      adapter.getUserByAccount({ provider: "x", providerAccountId: "1" }),
    ).rejects.toMatchObject({
      type: "MissingAdapterMethods",
    });
  });
});
