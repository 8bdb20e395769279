/**
 * The sliding-window counter every Tessera store uses for rate limits: two fixed windows, the
 * previous one weighted by how much of it still overlaps the sliding window ending now. It needs
 * three numbers per key instead of one timestamp per attempt, and it is exact enough for limits
 * (the estimate assumes the previous window's attempts were spread evenly).
 *
 * The Redis store runs the same arithmetic in Lua; memory and SQL stores call {@link slideWindow}.
 */
import type { RateLimitResult } from "./shared-store.js";

/** What a store keeps per key: the current fixed window's start (ms) and both windows' counts. */
export interface WindowState {
  start: number;
  current: number;
  previous: number;
}

/** The answer of {@link slideWindow}: the verdict, and the state to store when it was allowed. */
export interface WindowStep {
  result: RateLimitResult;
  /** The state to write back (only when `result.allowed`; a refusal is not counted). */
  next: WindowState;
}

/**
 * Counts one attempt at `now` (ms) against `state` in a window of `windowMs` allowing `max`.
 *
 * @example
 * ```ts
 * const step = slideWindow(undefined, Date.now(), 60_000, 10)
 * step.result // { allowed: true, remaining: 9, retryAfter: 0 }
 * ```
 */
export function slideWindow(
  state: WindowState | undefined,
  now: number,
  windowMs: number,
  max: number,
): WindowStep {
  const start = Math.floor(now / windowMs) * windowMs;
  let current = 0;
  let previous = 0;
  if (state && state.start === start) {
    current = state.current;
    previous = state.previous;
  } else if (state && state.start === start - windowMs) {
    previous = state.current;
  }
  const elapsed = (now - start) / windowMs;
  const estimate = previous * (1 - elapsed) + current;
  if (estimate + 1 <= max) {
    return {
      result: { allowed: true, remaining: Math.floor(max - estimate - 1), retryAfter: 0 },
      next: { start, current: current + 1, previous },
    };
  }
  return {
    result: {
      allowed: false,
      remaining: 0,
      retryAfter: retryAfterSeconds(
        elapsed,
        current,
        previous,
        windowMs,
        max,
        start + windowMs - now,
      ),
    },
    next: { start, current, previous },
  };
}

/** Seconds until the estimate leaves room for one attempt, if nothing else is counted. */
function retryAfterSeconds(
  elapsed: number,
  current: number,
  previous: number,
  windowMs: number,
  max: number,
  untilWindowEnd: number,
): number {
  let waitMs: number;
  if (current + 1 <= max && previous > 0) {
    // Still in this window: wait until the previous window's weight has faded enough.
    const needed = 1 - (max - 1 - current) / previous;
    waitMs = (needed - elapsed) * windowMs;
  } else {
    // This window alone is full: in the next one it becomes the (fading) previous window.
    const needed = current > 0 ? Math.max(0, 1 - (max - 1) / current) : 0;
    waitMs = untilWindowEnd + needed * windowMs;
  }
  return Math.max(1, Math.ceil(waitMs / 1000));
}
