/**
 * Prefixed, time-sortable identifiers (`acc_`, `key_`, `msg_`, ...): the prefix tells a reader what an id
 * names; the leading time part keeps inserts in index order. 48 bits of milliseconds then 80 random bits,
 * in Crockford base32 (the ULID layout).
 */
import { randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

function encodeTime(ms: number): string {
  let out = '';
  let rest = ms;
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[rest % 32] + out;
    rest = Math.floor(rest / 32);
  }
  return out;
}

function encodeRandom(bytes: Buffer): string {
  let out = '';
  for (const byte of bytes) out += ALPHABET[byte % 32];
  return out;
}

export type IdPrefix =
  | 'acc'
  | 'key'
  | 'ctc'
  | 'cnv'
  | 'num'
  | 'msg'
  | 'mse'
  | 'ust'
  | 'in'
  | 'whk'
  | 'evt'
  | 'dlv'
  | 'att'
  | 'med'
  | 'upl'
  | 'cmp'
  | 'svr'
  | 'nte';

/**
 * Random bytes for ids, drawn from the system 4 KiB at a time: a system call per id was a measurable cost
 * of a busy process (the simulator's message ids cost it 4 % of its CPU, one `randomBytes` each). The bytes
 * are a view into a shared pool, overwritten once the pool is used up: encode them at once, never keep the
 * view. Secrets and tokens take their own `randomBytes`.
 */
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

export function idRandomBytes(size: number): Buffer {
  if (size > pool.length) throw new RangeError(`at most ${pool.length} random bytes at a time`);
  if (poolOffset + size > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const part = pool.subarray(poolOffset, poolOffset + size);
  poolOffset += size;
  return part;
}

export function newId(prefix: IdPrefix, now = Date.now()): string {
  return `${prefix}_${encodeTime(now)}${encodeRandom(idRandomBytes(16))}`.toLowerCase();
}

/**
 * The smallest id of `prefix` made at `ms`: every id made earlier sorts before it, so a time range of rows
 * is a range of their primary key (the data retention uses it instead of an index on a time column).
 */
export function firstIdAt(prefix: IdPrefix, ms: number): string {
  return `${prefix}_${encodeTime(ms)}`.toLowerCase();
}
