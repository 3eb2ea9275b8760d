/**
 * How the network aggregates webhooks (docs/cloud-api.md §3.7): Meta sends a notification's changes in
 * batches of up to 1,000 updates when it has many for one receiver, and says batching cannot be counted
 * on. The simulator does the same only when it is behind: a post that finds a free slot goes alone, and
 * the posts that waited for one leave together, as the entries of one envelope. A receiver that keeps up
 * therefore sees one post per event; one that falls behind sees fewer, larger posts, as it would from Meta.
 *
 * Every envelope the simulator posts is `{"object":"whatsapp_business_account","entry":[...]}`
 * (webhook-envelopes.ts, templates/webhook.ts), serialized by `serializeWebhook`: joining two is joining
 * their `entry` arrays, done on the serialized text so that nothing is parsed or serialized again.
 */

const PREFIX = '{"object":"whatsapp_business_account","entry":[';
const SUFFIX = ']}';

/**
 * The most a batch carries. Meta's own limit is 1,000 updates; the bytes stay under the smallest body the
 * gateway can be set to accept (NETWORK_WEBHOOK_BODY_LIMIT_BYTES, 64 KiB at least, docs/configuration.md),
 * so that a batch is never refused for a size its posts alone would not have had.
 */
export const MAX_BATCH_POSTS = 100;
export const MAX_BATCH_BYTES = 64 * 1024;

/** Whether a post's payload is an envelope of entries and nothing else, so that it can join a batch. */
export function isJoinableEnvelope(payload: unknown): boolean {
  if (typeof payload !== 'object' || payload === null) return false;
  const keys = Object.keys(payload);
  const { object, entry } = payload as { object?: unknown; entry?: unknown };
  return (
    keys.length === 2 &&
    keys[0] === 'object' &&
    object === 'whatsapp_business_account' &&
    Array.isArray(entry)
  );
}

function entriesOf(body: string): string | undefined {
  if (!body.startsWith(PREFIX) || !body.endsWith(SUFFIX)) return undefined;
  const entries = body.slice(PREFIX.length, -SUFFIX.length);
  return entries.length > 0 ? entries : undefined;
}

/** What a batch takes of a waiting post: its body, and whether it may share a post with others. */
export interface Batchable {
  body: string;
  /** Set when the payload was not a plain envelope (isJoinableEnvelope): it always goes alone. */
  alone?: boolean;
}

/**
 * Takes the next post out of `waiting`, and as many joinable posts after it as the limits allow. Posts are
 * taken from the front, in the order they became ready; the caller keeps at most one post per queue key
 * waiting, so a batch never holds two posts whose order matters.
 */
export function takeBatch<T extends Batchable>(waiting: T[]): { items: T[]; body: string } {
  const first = waiting.shift();
  if (!first) throw new Error('takeBatch needs at least one waiting post');
  const firstEntries = first.alone ? undefined : entriesOf(first.body);
  if (firstEntries === undefined) return { items: [first], body: first.body };
  const items = [first];
  const parts = [firstEntries];
  let bytes = first.body.length;
  while (items.length < MAX_BATCH_POSTS && waiting.length > 0) {
    const next = waiting[0]!;
    const entries = next.alone ? undefined : entriesOf(next.body);
    // The bodies are ASCII (serializeWebhook escapes the rest), so length is bytes.
    if (entries === undefined || bytes + entries.length + 1 > MAX_BATCH_BYTES) break;
    waiting.shift();
    items.push(next);
    parts.push(entries);
    bytes += entries.length + 1;
  }
  if (items.length === 1) return { items, body: first.body };
  return { items, body: `${PREFIX}${parts.join(',')}${SUFFIX}` };
}
