/**
 * Access to `node:crypto` without a static import, so that the same module loads on edge
 * runtimes. `process.getBuiltinModule` (Node ≥ 20.16, Deno, Bun) returns it synchronously.
 */
type NodeCrypto = typeof import("node:crypto");

interface ProcessWithBuiltins {
  getBuiltinModule?: (id: string) => unknown;
}

function loadNodeCrypto(): NodeCrypto | undefined {
  const proc = (globalThis as { process?: ProcessWithBuiltins }).process;
  try {
    return proc?.getBuiltinModule?.("node:crypto") as NodeCrypto | undefined;
  } catch {
    return undefined;
  }
}

/** `node:crypto`, or `undefined` on runtimes without it (then WebCrypto is used). */
export const nodeCrypto: NodeCrypto | undefined = loadNodeCrypto();
