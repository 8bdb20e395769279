/**
 * Calls to an adapter across a process boundary, for running the adapter conformance suite in
 * Node against an adapter that runs inside workerd: `{ method, args }` in, `{ value }` or
 * `{ error }` out, as JSON in which a `Date` travels as `{ "$date": <ms> }` (the suite checks
 * dates to the millisecond and their type) and an `undefined` result as an absent `value`.
 */
import type { Adapter } from "@tessera/core/adapters";

type AdapterMethod = keyof Adapter & string;

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

/** Answers one call (a `POST` of `{ method, args }`) with `adapter`, in the Worker. */
export async function answerAdapterCall(request: Request, adapter: Adapter): Promise<Response> {
  const { method, args } = parse(await request.text()) as {
    method: AdapterMethod;
    args: unknown[];
  };
  const target = adapter[method];
  if (typeof target !== "function")
    return new Response(stringify({ error: `no method ${method}` }), { status: 404 });
  try {
    const value = await (target as (...args: unknown[]) => unknown).apply(adapter, args);
    return new Response(stringify({ value }));
  } catch (error) {
    return new Response(stringify({ error: String((error as Error)?.message ?? error) }), {
      status: 500,
    });
  }
}

/**
 * An adapter whose every method is the Worker's at `url`: the call is posted, the answer decoded,
 * a thrown error rethrown with the Worker's message. `methods` are the methods the remote adapter
 * has (the suite checks which exist).
 */
export function remoteAdapter(url: string, methods: readonly string[]): Adapter {
  const adapter: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const method of methods) {
    adapter[method] = async (...args) => {
      const response = await fetch(url, { method: "POST", body: stringify({ method, args }) });
      const answer = parse(await response.text()) as { value?: unknown; error?: string };
      if (answer.error !== undefined) throw new Error(`${method} in the Worker: ${answer.error}`);
      return answer.value;
    };
  }
  return adapter as Adapter;
}
