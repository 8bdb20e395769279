// Names each module of the API reference after its import specifier: TypeDoc names a module
// by its path (`core/src/jwt`), an application imports `@tessera/core/jwt`.
import { Converter, ReflectionKind } from "typedoc";

/** `core/src/jwt` → `@tessera/core/jwt`; `core/src` → `@tessera/core`. */
export function importSpecifier(modulePath) {
  const match = /^([^/]+)\/src(?:\/(.+))?$/.exec(modulePath);
  if (!match) return modulePath;
  return match[2] ? `@tessera/${match[1]}/${match[2]}` : `@tessera/${match[1]}`;
}

/** @param {import("typedoc").Application} app */
export function load(app) {
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    for (const reflection of context.project.getReflectionsByKind(ReflectionKind.Module)) {
      reflection.name = importSpecifier(reflection.name);
    }
  });
}
