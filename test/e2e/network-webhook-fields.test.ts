/**
 * A correct signature proves who sent a network webhook, not that its values are possible: whoever holds
 * the app secret can sign anything. Every field the gateway reads is checked; an item with an impossible
 * value is refused alone (the log names the field and the rule at warn, nothing of it is stored) while the
 * rest of its body is handled, a body that is not an envelope is a 400, a value the real network can vary
 * on is clamped, and whatever is stored is published.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_SANDBOX_NUMBER } from '../../src/config/config.ts';
import { eventually, type TestGateway } from '../support/gateway.ts';
import {
  envelope,
  messagesChange,
  postNetworkWebhook,
  receivedEventsOf,
  storedInbound,
  textMessage,
  unixSeconds,
} from '../support/network-envelopes.ts';
import type { Receiver } from '../support/receiver.ts';
import { type ReceivingGateway, startReceivingGateway } from '../support/receiving-gateway.ts';

const USER = '254712300555';
const MESSAGE = 'entry[0].changes[0].value.messages[0]';
const DAY_MS = 24 * 3_600_000;

/** A body of one message from the joined user; `overrides` replaces fields of the message. */
const oneMessage = (waId: string, overrides: Record<string, unknown> = {}) =>
  envelope([
    [
      messagesChange(
        [textMessage(USER, waId, 'hello', overrides)],
        [{ profile: { name: 'Ann' }, wa_id: USER }],
      ),
    ],
  ]);

describe('signed network webhooks: every field checked', () => {
  let t: TestGateway;
  let receiver: Receiver;

  let fixture: ReceivingGateway;
  const logged: string[] = [];

  before(async () => {
    fixture = await startReceivingGateway('Fields Co', [USER], {
      env: { LOG_LEVEL: 'warn' },
      logStream: { write: (line) => logged.push(line) },
    });
    ({ t, receiver } = fixture);
  });

  /** The warning the gateway logged for a refused item, by the words of its reason. */
  function refusal(reason: string): Record<string, unknown> | undefined {
    return logged
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((l) => l.msg === 'network webhook item refused' && l.reason === reason);
  }
  after(() => fixture.close());

  /** The message was published: exactly one event, and the receiver got it. */
  async function publishedOnce(waId: string) {
    await eventually(() => receiver.received.find((r) => r.json.data?.messageId === waId));
    const events = await receivedEventsOf(t.gateway.store.db, waId);
    assert.equal(events.length, 1, `${waId}: ${events.length} message.received events`);
    return events[0]!;
  }

  test('a message with an impossible timestamp is refused alone, logged naming the field; nothing of it is stored', async () => {
    const impossible: unknown[] = [
      '1e20',
      '-5',
      '1.5',
      '',
      ' 1732300800',
      '0x10',
      'NaN',
      '9'.repeat(13),
      1e20,
      -1,
      1.5,
      null,
      true,
      {},
      [],
    ];
    for (const [i, timestamp] of impossible.entries()) {
      const waId = `wamid.TIME${i}`;
      const r = await postNetworkWebhook(t.url, oneMessage(waId, { timestamp }));
      assert.equal(r.status, 200, `timestamp ${JSON.stringify(timestamp)}: ${r.status} ${r.text}`);
      assert.equal(await storedInbound(t.gateway.store.db, waId), undefined);
    }
    const reason = `${MESSAGE}.timestamp must be Unix seconds as a decimal string of 1 to 12 digits`;
    const warning = refusal(reason);
    assert.ok(warning, 'the refusal is in the log');
    assert.equal(warning.level, 40, 'at warn');
    assert.equal(warning.at, `${MESSAGE}.timestamp`);
    // Absent (JSON drops an undefined field).
    const missing = await postNetworkWebhook(t.url, oneMessage('wamid.NOTIME', { timestamp: undefined }));
    assert.equal(missing.status, 200);
    assert.equal(await storedInbound(t.gateway.store.db, 'wamid.NOTIME'), undefined);
  });

  test('a corrected message after a refused one is stored and published exactly once', async () => {
    const waId = 'wamid.CORRECTED';
    assert.equal((await postNetworkWebhook(t.url, oneMessage(waId, { timestamp: '1e20' }))).status, 200);
    assert.equal(await storedInbound(t.gateway.store.db, waId), undefined);
    const corrected = oneMessage(waId);
    assert.equal((await postNetworkWebhook(t.url, corrected)).status, 200);
    assert.equal((await postNetworkWebhook(t.url, corrected)).status, 200);
    const event = await publishedOnce(waId);
    assert.equal(event.text, 'hello');
  });

  test('a time ahead of the clock, or a month old, is taken as the arrival time and published', async () => {
    const now = Date.now();
    const cases: [string, number, 'clamped' | 'kept'][] = [
      ['wamid.FUTURE', now + 365 * DAY_MS, 'clamped'],
      ['wamid.SKEWED', now + 60_000, 'clamped'],
      ['wamid.ANCIENT', 1000, 'clamped'],
      ['wamid.MONTHOLD', now - 31 * DAY_MS, 'clamped'],
      // A redelivery days later keeps the network's time: the control.
      ['wamid.LATE', now - 6 * DAY_MS, 'kept'],
    ];
    for (const [waId, at, expected] of cases) {
      const arrival = Date.now();
      const r = await postNetworkWebhook(t.url, oneMessage(waId, { timestamp: unixSeconds(at) }));
      const answered = Date.now();
      assert.equal(r.status, 200, `${waId}: ${r.text}`);
      const row = await storedInbound(t.gateway.store.db, waId);
      assert.ok(row, `${waId} stored`);
      if (expected === 'kept') assert.equal(row.received_at, Math.floor(at / 1000) * 1000);
      else
        assert.ok(
          row.received_at >= arrival && row.received_at <= answered,
          `${waId} dated ${new Date(row.received_at).toISOString()}`,
        );
      const event = await publishedOnce(waId);
      assert.equal(event.timestamp, new Date(row.received_at).toISOString());
    }
    // The 24-hour window is never held open by a time ahead of the clock.
    const window = await t.gateway.repos.conversations.lastInboundAt(DEFAULT_SANDBOX_NUMBER, USER);
    assert.ok(window !== undefined && window <= Date.now(), `window opened at ${window}`);
  });

  test('a message type the gateway does not know is kept as unsupported and published', async () => {
    for (const [i, type] of ['hologram', '__proto__', 'constructor', 'toString'].entries()) {
      const waId = `wamid.TYPE${i}`;
      const r = await postNetworkWebhook(t.url, oneMessage(waId, { type, [type]: { shape: 'new' } }));
      assert.equal(r.status, 200, `${type}: ${r.text}`);
      const row = await storedInbound(t.gateway.store.db, waId);
      assert.equal(row?.type, 'unsupported');
      // What the network sent is kept as sent.
      assert.equal(JSON.parse(row.payload).type, type);
      const event = await publishedOnce(waId);
      assert.equal(event.type, 'UNSUPPORTED');
      assert.deepEqual(event.unsupported, { type });
    }
    // The network's own `unsupported` messages arrive the same way.
    const waId = 'wamid.UNSUPPORTED';
    const errors = [{ code: 131051, title: 'Message type unknown' }];
    const r = await postNetworkWebhook(
      t.url,
      oneMessage(waId, { type: 'unsupported', errors, text: undefined }),
    );
    assert.equal(r.status, 200);
    const unsupported = await publishedOnce(waId);
    assert.deepEqual(unsupported.unsupported, { type: null });
    // The network's reason reaches the business, in the message as the network sent it.
    assert.deepEqual((unsupported.network as { errors: unknown }).errors, errors);
  });

  test('what the gateway does not model passes through in `network`; forwarded flags join `context`', async () => {
    const waId = 'wamid.REFERRAL';
    const referral = {
      source_url: 'https://fb.me/ad-1',
      source_id: '120201',
      source_type: 'ad',
      headline: 'Fresh bread',
      ctwa_clid: 'ARAkLk',
    };
    const r = await postNetworkWebhook(
      t.url,
      oneMessage(waId, { referral, context: { forwarded: true, frequently_forwarded: true } }),
    );
    assert.equal(r.status, 200, r.text);
    const event = await publishedOnce(waId);
    assert.equal(event.text, 'hello');
    assert.deepEqual(event.context, { forwarded: true, frequentlyForwarded: true });
    const network = event.network as Record<string, unknown>;
    assert.deepEqual(network.referral, referral);
    assert.equal(network.id, waId);
    assert.deepEqual(network.text, { body: 'hello' });
  });

  test('fields of the wrong type or size refuse their item, logged naming them; a body that is no envelope is a 400', async () => {
    const deep = JSON.parse(`${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`);
    const change = (value: Record<string, unknown>) => envelope([[{ field: 'messages', value }]]);
    const metadata = { phone_number_id: DEFAULT_SANDBOX_NUMBER };
    // Not an envelope: nothing in it can be read, and the network is told.
    for (const [what, body, expected] of [
      ['body', [], 'the body must be an object'],
      ['entry', { entry: 'x' }, 'entry must be an array'],
    ] as const) {
      const r = await postNetworkWebhook(t.url, body);
      assert.equal(r.status, 400, `${what}: ${r.status} ${r.text}`);
      assert.equal(r.text, expected, what);
    }
    const cases: [string, unknown, string][] = [
      ['entry item', { entry: [5] }, 'entry[0] must be an object'],
      ['changes', { entry: [{ changes: {} }] }, 'entry[0].changes must be an array'],
      [
        'value',
        envelope([[{ field: 'messages', value: 'x' }]]),
        'entry[0].changes[0].value must be an object',
      ],
      ['metadata', change({ metadata: [] }), 'entry[0].changes[0].value.metadata must be an object'],
      [
        'phone_number_id',
        change({ metadata: { phone_number_id: 14155550100 } }),
        'entry[0].changes[0].value.metadata.phone_number_id must be a string of 1 to 256 visible ASCII characters',
      ],
      ['messages', change({ metadata, messages: {} }), 'entry[0].changes[0].value.messages must be an array'],
      ['message', change({ metadata, messages: [5] }), `${MESSAGE} must be an object`],
      [
        'from',
        oneMessage('wamid.W1', { from: 254712300555 }),
        `${MESSAGE}.from must be a string of 1 to 20 digits`,
      ],
      [
        'from',
        oneMessage('wamid.W2', { from: '+254712300555' }),
        `${MESSAGE}.from must be a string of 1 to 20 digits`,
      ],
      [
        'id',
        oneMessage('wamid.W3', { id: {} }),
        `${MESSAGE}.id must be a string of 1 to 256 visible ASCII characters`,
      ],
      [
        'id',
        oneMessage('wamid.W4', { id: 'w'.repeat(257) }),
        `${MESSAGE}.id must be a string of 1 to 256 visible ASCII characters`,
      ],
      [
        'id',
        oneMessage('wamid.W5', { id: 'wamid. X' }),
        `${MESSAGE}.id must be a string of 1 to 256 visible ASCII characters`,
      ],
      ['type', oneMessage('wamid.W6', { type: 5 }), `${MESSAGE}.type must be a string of 1 to 64 characters`],
      [
        'depth',
        oneMessage('wamid.W7', { text: { body: deep } }),
        `${MESSAGE} must not nest deeper than 16 levels`,
      ],
      [
        'contacts',
        change({ metadata, contacts: [{ wa_id: USER, profile: 'Ann' }], messages: [] }),
        'entry[0].changes[0].value.contacts[0].profile must be an object',
      ],
      [
        'status timestamp',
        change({ metadata, statuses: [{ id: 'wamid.S1', status: 'delivered', timestamp: '1e20' }] }),
        'entry[0].changes[0].value.statuses[0].timestamp must be Unix seconds as a decimal string of 1 to 12 digits',
      ],
      [
        'status id',
        change({ metadata, statuses: [{ id: 7, status: 'delivered', timestamp: unixSeconds() }] }),
        'entry[0].changes[0].value.statuses[0].id must be a string of 1 to 256 visible ASCII characters',
      ],
    ];
    const before = await t.gateway.store.db.selectFrom('inbound_messages').select('wa_id').execute();
    for (const [what, body, expected] of cases) {
      const r = await postNetworkWebhook(t.url, body);
      assert.equal(r.status, 200, `${what}: ${r.status} ${r.text}`);
      assert.ok(refusal(expected), `${what}: "${expected}" in the log`);
    }
    const afterwards = await t.gateway.store.db.selectFrom('inbound_messages').select('wa_id').execute();
    assert.equal(afterwards.length, before.length);
  });

  test('one impossible message is refused alone: the others of its batch are stored and published', async () => {
    const good = textMessage(USER, 'wamid.BATCHGOOD', 'fine');
    const bad = textMessage(USER, 'wamid.BATCHBAD', 'bad', { timestamp: '1e20' });
    const r = await postNetworkWebhook(t.url, envelope([[messagesChange([bad, good])]]));
    assert.equal(r.status, 200, r.text);
    assert.equal(await storedInbound(t.gateway.store.db, 'wamid.BATCHBAD'), undefined);
    assert.equal((await publishedOnce('wamid.BATCHGOOD')).text, 'fine');
    assert.ok(
      refusal(
        `entry[0].changes[0].value.messages[0].timestamp must be Unix seconds as a decimal string of 1 to 12 digits`,
      ),
    );
  });

  test('a profile name over 256 characters is cut, and content of odd shapes is kept as sent', async () => {
    const waId = 'wamid.LONGNAME';
    const body = envelope([
      [
        messagesChange(
          [textMessage(USER, waId, 'x')],
          [{ profile: { name: '😀'.repeat(300) }, wa_id: USER }],
        ),
      ],
    ]);
    assert.equal((await postNetworkWebhook(t.url, body)).status, 200);
    assert.equal((await publishedOnce(waId)).profileName, '😀'.repeat(256));
    // Content the gateway reads loosely (a text that is not an object, an image without an id, a context
    // that is a list) is published as it came, never a 500.
    const odd: [string, Record<string, unknown>][] = [
      ['wamid.ODD1', { text: 5 }],
      ['wamid.ODD2', { type: 'image', image: 'x' }],
      ['wamid.ODD3', { type: 'interactive', interactive: { type: 'nfm_reply', nfm_reply: [] } }],
      ['wamid.ODD4', { context: [] }],
      ['wamid.ODD5', { type: 'location', location: null }],
    ];
    for (const [id, overrides] of odd) {
      const r = await postNetworkWebhook(t.url, oneMessage(id, overrides));
      assert.equal(r.status, 200, `${id}: ${r.text}`);
      await publishedOnce(id);
    }
  });

  test('a NUL or a lone surrogate in a text is read as U+FFFD: stored and published alike', async () => {
    const waId = 'wamid.UNSTORABLE';
    const body = envelope([
      [
        messagesChange(
          [textMessage(USER, waId, 'nul \u0000, half \uD800 a pair, 💥 a whole one')],
          [{ profile: { name: 'Lone \uDC00 Ann' }, wa_id: USER }],
        ),
      ],
    ]);
    // JSON.stringify writes both as escapes, as the network's JSON does.
    assert.equal((await postNetworkWebhook(t.url, body)).status, 200);
    const event = await publishedOnce(waId);
    assert.equal(event.text, 'nul \uFFFD, half \uFFFD a pair, 💥 a whole one');
    assert.equal(event.profileName, 'Lone \uFFFD Ann');
    const received = receiver.received.find((r) => r.json.data?.messageId === waId)!;
    assert.deepEqual(received.json.data.text, event.text, 'the endpoint got what the store holds');
  });
});
