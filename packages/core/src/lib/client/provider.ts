/**
 * The provider listed under `id` in a `GET <basePath>/providers` answer, or `undefined`.
 * Only own keys count: ids like `"__proto__"`, `"constructor"` or `"toString"` must not resolve
 * to `Object.prototype` members (prototype key confusion).
 *
 * @example
 * ```ts
 * const providers = await (await fetch("/auth/providers")).json()
 * findProvider(providers, "github") // { id: "github", type: "oauth", … }
 * findProvider(providers, "__proto__") // undefined
 * ```
 */
export function findProvider<P>(
  providers: Readonly<Record<string, P>>,
  id: string | undefined,
): P | undefined {
  return id !== undefined && Object.hasOwn(providers, id) ? providers[id] : undefined;
}
