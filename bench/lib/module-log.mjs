// @ts-check
/**
 * `node --import ./module-log.mjs …`: writes the URL of every module Node loads to stderr, one a
 * line, as it loads it (bench/lib/cold-start-installed.mjs, `loadedModules`). The hook runs on
 * Node's loader thread; it writes to the file descriptor directly, so its lines and the main
 * thread's markers reach stderr in the order they happened.
 */
import { register } from "node:module";

const hooks = `import { writeSync } from "node:fs";
export async function load(url, context, next) {
  writeSync(2, url + "\\n");
  return next(url, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
process.env.COLD_START_MODULE_LOG = "1";
