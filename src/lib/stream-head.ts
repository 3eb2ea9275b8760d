/**
 * Reading the start of a byte stream that arrives once (an upload): its first bytes, to tell what it is,
 * and the whole stream again, those bytes included, to read on; or the rest of it read and discarded, so a
 * refused request is read to its end and its client gets the answer.
 */

/** The source's first `bytes` bytes (or all of a shorter one), and the whole source again to read on. */
export async function peekHead(source: AsyncIterable<Uint8Array>, bytes: number) {
  const iterator = source[Symbol.asyncIterator]();
  const chunks: Uint8Array[] = [];
  let length = 0;
  let ended = false;
  while (length < bytes) {
    const next = await iterator.next();
    if (next.done) {
      ended = true;
      break;
    }
    chunks.push(next.value);
    length += next.value.length;
  }
  async function* whole(): AsyncGenerator<Uint8Array> {
    yield* chunks;
    if (ended) return;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  }
  return { head: Buffer.concat(chunks).subarray(0, bytes), whole: whole() };
}

/** Reads the rest of a refused upload and discards it. */
export async function drain(source: AsyncIterable<Uint8Array>): Promise<void> {
  for await (const _chunk of source) {
    // discarded
  }
}
