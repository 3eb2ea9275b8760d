/**
 * Runs a batch of work items a few at a time while keeping the order of items that share a key: the
 * network's batches mix many users' messages and many messages' statuses, which are independent of each
 * other, while one user's messages (a `join` before the text that follows it) must be handled in order.
 */
export async function runInOrderPerKey<T>(
  items: readonly T[],
  keyOf: (item: T) => string,
  width: number,
  run: (item: T) => Promise<void>,
): Promise<void> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  const queue = [...groups.values()];
  let next = 0;
  // A failed item stops its worker (the items after it with the same key must not overtake it); the
  // other workers finish what they hold and take the rest of the queue.
  const worker = async () => {
    for (let group = queue[next++]; group; group = queue[next++]) {
      for (const item of group) await run(item);
    }
  };
  const results = await Promise.allSettled(Array.from({ length: Math.min(width, queue.length) }, worker));
  const failed = results.find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
}
