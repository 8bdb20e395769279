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

/** `false` until the first call: loading `node:crypto` is not done at import time. */
let loaded: NodeCrypto | undefined | false = false;

/**
 * `node:crypto`, or `undefined` on runtimes without it (then WebCrypto is used). Loaded on the
 * first call rather than at import, so that an app's start-up does not pay for it (the first
 * session read does, as WebCrypto's first use does for libraries built on it).
 *
 * @example
 * ```ts
 * const crypto = nodeCrypto()
 * if (crypto) crypto.createHash("sha256").update("x").digest("hex")
 * ```
 */
export function nodeCrypto(): NodeCrypto | undefined {
  if (loaded === false) loaded = loadNodeCrypto();
  return loaded;
}

/**
 * Whether this runtime has `node:crypto`, answered without loading it: the runtimes that have it
 * are the ones with `process.getBuiltinModule`.
 */
export function hasNodeCrypto(): boolean {
  const proc = (globalThis as { process?: ProcessWithBuiltins }).process;
  return typeof proc?.getBuiltinModule === "function";
}
