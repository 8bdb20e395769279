/**
 * Calls to an adapter (or a shared store) across a process boundary, for running the conformance
 * suites in Node against code that runs inside workerd: `{ method, args }` in, `{ value }` or
 * `{ error }` out, as JSON in which a `Date` travels as `{ "$date": <ms> }` (the suite checks
 * dates to the millisecond and their type) and an `undefined` result as an absent `value`.
 */
/** An adapter or a store: an object of methods. */
type Callee = object;

function stringify(value: unknown): string {
  return JSON.stringify(value, function (this: Record<string, unknown>, key, encoded) {
    const raw = this[key];
    return raw instanceof Date ? { $date: raw.getTime() } : encoded;
  });
}

function parse(text: string): unknown {
  return JSON.parse(text, (_key, value) =>
    value !== null && typeof value === "object" && "$date" in value
      ? new Date(value.$date as number)
      : value,
  );
}

/** Answers one call (a `POST` of `{ method, args }`) with `callee`, in the Worker. */
export async function answerCall(request: Request, callee: Callee): Promise<Response> {
  const { method, args } = parse(await request.text()) as { method: string; args: unknown[] };
  // Own methods only: a posted "constructor" or "__proto__" names nothing callable here.
  const target = Object.hasOwn(callee, method)
    ? (callee as Record<string, unknown>)[method]
    : undefined;
  if (typeof target !== "function")
    return new Response(stringify({ error: `no method ${method}` }), { status: 404 });
  try {
    const value = await (target as (...args: unknown[]) => unknown).apply(callee, args);
    return new Response(stringify({ value }));
  } catch (error) {
    return new Response(stringify({ error: String((error as Error)?.message ?? error) }), {
      status: 500,
    });
  }
}

/**
 * An object whose every method is the Worker's at `url`: the call is posted, the answer decoded,
 * a thrown error rethrown with the Worker's message. `methods` are the methods the remote object
 * has (the adapter suite checks which exist).
 */
export function remote<T extends Callee>(url: string, methods: readonly string[]): T {
  const callee: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const method of methods) {
    callee[method] = async (...args) => {
      const response = await fetch(url, { method: "POST", body: stringify({ method, args }) });
      const answer = parse(await response.text()) as { value?: unknown; error?: string };
      if (answer.error !== undefined) throw new Error(`${method} in the Worker: ${answer.error}`);
      return answer.value;
    };
  }
  return callee as T;
}
