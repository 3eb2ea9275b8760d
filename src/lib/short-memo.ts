/**
 * A read remembered for a short while: for work that asks the same question many times a second (a
 * campaign's sends all read the same number and template), where an answer a moment old is as good.
 * A failed read is not remembered.
 */
export function rememberedFor<Args extends unknown[], T>(
  ms: number,
  read: (...args: Args) => Promise<T>,
  now: () => number = Date.now,
): (...args: Args) => Promise<T> {
  const known = new Map<string, { at: number; value: Promise<T> }>();
  return (...args) => {
    const key = JSON.stringify(args);
    const hit = known.get(key);
    if (hit && now() - hit.at < ms) return hit.value;
    if (known.size > 1000) known.clear();
    const value = read(...args);
    known.set(key, { at: now(), value });
    value.catch(() => known.delete(key));
    return value;
  };
}
