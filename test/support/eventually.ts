/**
 * How long `eventually` waits by default. Only a real bug should exceed it: on a loaded two-core machine a
 * status or webhook that normally takes milliseconds can take seconds, so a tight bound would fail by luck.
 * A passing check returns as soon as it holds, so the bound costs nothing when the code is right.
 */
export const EVENTUALLY_TIMEOUT_MS = 30_000;

/**
 * Polls until `check` returns a value (not undefined/false) or the time is up. The pause between polls grows
 * from 5 ms to 50 ms: a quick condition is seen at once, and a slow one (many checks are HTTP calls) does
 * not take the CPU from the very work it waits for.
 */
export async function eventually<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = EVENTUALLY_TIMEOUT_MS,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (let pause = 5; ; pause = Math.min(pause * 2, 50)) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, pause));
  }
}
