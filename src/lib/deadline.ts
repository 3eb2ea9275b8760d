/**
 * A time limit for one network exchange: a signal aborted with a `TimeoutError` once `ms` have passed,
 * and `clear()` to call when the exchange is over. `AbortSignal.timeout(ms)` aborts the same way, but its
 * timer stays until the time has passed or its signal has been collected, through a finalization record
 * kept for every signal. For the Graph API exchanges (src/network/graph-call.ts), one per send, that was
 * about a tenth of the gateway's CPU per send (bench/README.md, report of 2026-11-27 19:10); rarer calls
 * (media downloads) and webhook deliveries, where it measured within the spread, keep AbortSignal.timeout.
 */
export interface Deadline {
  signal: AbortSignal;
  clear(): void;
}

export function deadline(ms: number): Deadline {
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new DOMException(`no answer within ${ms} ms`, 'TimeoutError')),
    ms,
  );
  // Like AbortSignal.timeout's, the timer alone never keeps the process alive.
  timer.unref();
  return { signal: controller.signal, clear: () => clearTimeout(timer) };
}
