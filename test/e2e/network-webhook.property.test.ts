/**
 * Generated mutations of valid, correctly signed network webhooks (fast-check): one field of a real
 * payload shape replaced by garbage of any type, a huge number, a deep nesting or a long array, deleted,
 * or the body cut short. Whoever holds the app secret can send these. Every answer must be a 200 or a
 * 400, never a 5xx, and no message may be left stored but not published.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { DEFAULT_SANDBOX_NUMBER } from '../../src/config/config.ts';
import { anyCodePoints } from '../support/code-points.ts';
import { eventually, type TestAccount, type TestGateway } from '../support/gateway.ts';
import { envelope, messagesChange, postNetworkWebhook, unixSeconds } from '../support/network-envelopes.ts';
import type { Receiver } from '../support/receiver.ts';
import { type ReceivingGateway, startReceivingGateway } from '../support/receiving-gateway.ts';

const USER = '254712300777';
const DEEP = '__deep__';

type Json = Record<string, unknown>;

/** The real payload shapes a mutation starts from, with fresh ids for run `n`. */
function validBodies(n: number): Json[] {
  const base = (type: string, content: Json, more: Json = {}) => ({
    from: USER,
    id: `wamid.P${n}.${type}`,
    timestamp: unixSeconds(),
    type,
    [type]: content,
    ...more,
  });
  const contacts = [{ profile: { name: 'Prop' }, wa_id: USER }];
  return [
    envelope([
      [
        messagesChange(
          [base('text', { body: 'hello' }, { context: { from: DEFAULT_SANDBOX_NUMBER, id: 'wamid.CTX' } })],
          contacts,
        ),
      ],
    ]),
    envelope([
      [
        messagesChange(
          [base('image', { id: '9123456789012345', mime_type: 'image/png', caption: 'c' })],
          contacts,
        ),
      ],
    ]),
    envelope([
      [
        messagesChange(
          [
            base('interactive', { type: 'button_reply', button_reply: { id: 'yes', title: 'Yes' } }),
            base('location', { latitude: -1.28, longitude: 36.82, name: 'Office' }),
          ],
          contacts,
        ),
      ],
    ]),
    envelope([
      [
        messagesChange([], [], {
          statuses: [
            { id: `wamid.OUT${n}`, status: 'read', timestamp: unixSeconds(), recipient_id: USER },
            {
              id: `wamid.OUT${n}.F`,
              status: 'failed',
              timestamp: unixSeconds(),
              recipient_id: USER,
              errors: [{ code: 131026, title: 'Message undeliverable', error_data: { details: 'x' } }],
            },
          ],
        }),
      ],
    ]),
    {
      object: 'whatsapp_business_account',
      entry: [
        {
          id: '0',
          time: Math.floor(Date.now() / 1000),
          changes: [
            {
              field: 'message_template_status_update',
              value: { event: 'APPROVED', message_template_id: 1000 + n, reason: 'NONE' },
            },
          ],
        },
      ],
    },
  ];
}

/** Every path to a value inside `value` (object keys and array indexes), the root excluded. */
function pathsOf(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (typeof value !== 'object' || value === null) return [];
  const entries = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
  return entries.flatMap(([k, v]) => [[...prefix, k], ...pathsOf(v, [...prefix, k])]);
}

function mutate(body: Json, path: (string | number)[], replacement: unknown, remove: boolean): void {
  let parent: Record<string | number, unknown> = body;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (remove && Array.isArray(parent)) parent.splice(Number(last), 1);
  else if (remove) delete parent[last];
  else parent[last] = replacement;
}

const nasty = fc.oneof(
  anyCodePoints(40),
  fc.constantFrom('', ' ', '\u0000', '1e20', '-1', '1.5', 'NaN', '__proto__', 'constructor', '9'.repeat(30)),
  fc.string({ maxLength: 10 }).map((s) => s.repeat(3000)),
);
const garbage = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    nasty,
    fc.double(),
    fc.integer(),
    fc.constantFrom(1e20, -1e20, Number.MAX_VALUE, 2 ** 53 + 1, -0, 5e-324),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(nasty, tie('value'), { maxKeys: 4 }),
  ),
})).value;

const mutation = fc.record({
  shape: fc.nat(),
  path: fc.nat(),
  kind: fc.constantFrom('replace', 'replace', 'replace', 'delete', 'deep', 'long array', 'cut'),
  value: garbage,
  depth: fc.integer({ min: 1, max: 200_000 }),
  length: fc.integer({ min: 0, max: 20_000 }),
});

describe('generated mutations of signed network webhooks', () => {
  let t: TestGateway;
  let receiver: Receiver;
  let account: TestAccount;

  let fixture: ReceivingGateway;

  before(async () => {
    fixture = await startReceivingGateway('Property Co', [USER]);
    ({ t, receiver, account } = fixture);
    // The join is recorded before its message is published: wait for the event too.
    await eventually(() => receiver.received.some((r) => r.json.type === 'message.received'));
  });
  after(() => fixture.close());

  /** No message is stored but unhandled; each message of the account has exactly one event. */
  async function assertPublishedOnce() {
    const db = t.gateway.store.db;
    const open = await db
      .selectFrom('inbound_messages')
      .select('wa_id')
      .where('handled_at', 'is', null)
      .execute();
    assert.deepEqual(open, [], 'messages stored but not published');
    const mine = await db
      .selectFrom('inbound_messages')
      .select('wa_id')
      .where('account_id', '=', account.accountId)
      .execute();
    const events = await db
      .selectFrom('events')
      .select('payload')
      .where('account_id', '=', account.accountId)
      .where('type', '=', 'message.received')
      .execute();
    const counts = new Map<string, number>();
    for (const e of events) {
      const id = JSON.parse(e.payload).data.messageId as string;
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    for (const { wa_id } of mine) assert.equal(counts.get(wa_id), 1, `${wa_id}: ${counts.get(wa_id)} events`);
    assert.equal(counts.size, mine.length);
  }

  test('any mutation of a valid signed body is a 200 or a 400, and nothing stored goes unpublished', async () => {
    let n = 0;
    const answers = { 200: 0, 400: 0 };
    await fc.assert(
      fc.asyncProperty(mutation, async (m) => {
        n++;
        const bodies = validBodies(n);
        const body = bodies[m.shape % bodies.length]!;
        const paths = pathsOf(body);
        const path = paths[m.path % paths.length]!;
        if (m.kind === 'replace') mutate(body, path, m.value, false);
        if (m.kind === 'delete') mutate(body, path, undefined, true);
        if (m.kind === 'deep') mutate(body, path, DEEP, false);
        if (m.kind === 'long array')
          mutate(
            body,
            path,
            Array.from({ length: m.length }, () => ({})),
            false,
          );
        let raw = JSON.stringify(body);
        if (m.kind === 'deep') raw = raw.replace(`"${DEEP}"`, `${'['.repeat(m.depth)}${']'.repeat(m.depth)}`);
        if (m.kind === 'cut') raw = raw.slice(0, m.length % raw.length);
        const r = await postNetworkWebhook(t.url, raw);
        const what = `${m.kind} at ${path.join('.')}: ${raw.slice(0, 160)}`;
        assert.ok(r.status === 200 || r.status === 400, `${r.status} ${r.text.slice(0, 200)} for ${what}`);
        answers[r.status]++;
        const open = await t.gateway.store.db
          .selectFrom('inbound_messages')
          .select('wa_id')
          .where('handled_at', 'is', null)
          .execute();
        assert.deepEqual(open, [], `left unpublished by ${what}`);
      }),
      { numRuns: 400 },
    );
    await assertPublishedOnce();
    // Neither answer is vacuous: many mutated bodies were still valid and handled, many were refused.
    assert.ok(answers[200] > 50 && answers[400] > 50, JSON.stringify(answers));
    const published = await t.gateway.store.db
      .selectFrom('inbound_messages')
      .select('wa_id')
      .where('account_id', '=', account.accountId)
      .execute();
    assert.ok(published.length > 50, `${published.length} messages published`);
  });
});
