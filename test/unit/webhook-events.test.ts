/**
 * Reading the network's webhook bodies: Meta's real payload shapes give the events
 * they should, every field is checked (an item that breaks a rule is refused alone), and times are
 * clamped on a controlled clock.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  type InboundMessageEvent,
  readWebhookEvents,
  WebhookFieldError,
} from '../../src/network/webhook-events.ts';

const NOW = 1_800_000_000_000;
const SECONDS = String(NOW / 1000 - 60);
const USER = '16505551234';

/** One `messages` change as Meta sends it, holding `messages` (and anything in `extra`). */
function body(messages: Record<string, unknown>[], extra: Record<string, unknown> = {}) {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '102290129340398',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550783881', phone_number_id: '106540352242922' },
              contacts: [{ profile: { name: 'Sheena Nelson' }, wa_id: USER }],
              messages,
              ...extra,
            },
          },
        ],
      },
    ],
  };
}

const message = (type: string, content: Record<string, unknown>, more: Record<string, unknown> = {}) => ({
  from: USER,
  id: `wamid.${type.toUpperCase()}`,
  timestamp: SECONDS,
  type,
  ...content,
  ...more,
});

test("Meta's message shapes are read with their type, user, name and time", () => {
  const shapes = [
    message(
      'text',
      { text: { body: 'Does it come in another color?' } },
      { context: { from: '15550783881', id: 'wamid.X' } },
    ),
    message('reaction', { reaction: { message_id: 'wamid.X', emoji: '\uD83D\uDE00' } }),
    message('image', {
      image: { caption: 'receipt', mime_type: 'image/jpeg', sha256: 'abc=', id: '1003383421387256' },
    }),
    message('sticker', { sticker: { mime_type: 'image/webp', sha256: 'abc=', id: '1', animated: false } }),
    message('location', {
      location: { latitude: 37.48, longitude: -122.15, name: 'Philz', address: '1 Hacker Way' },
    }),
    message('contacts', {
      contacts: [
        {
          addresses: [{ city: 'Menlo Park', country: 'United States', type: 'HOME' }],
          name: { first_name: 'Barbara', formatted_name: 'Barbara J. Johnson' },
          phones: [{ phone: '+1 (940) 555-1234', type: 'HOME', wa_id: '19405551234' }],
        },
      ],
    }),
    message(
      'button',
      { button: { payload: 'No', text: 'No' } },
      { context: { from: '15550783881', id: 'wamid.T' } },
    ),
    message('interactive', { interactive: { type: 'list_reply', list_reply: { id: 'r1', title: 'Row 1' } } }),
    message('interactive', {
      interactive: { type: 'nfm_reply', nfm_reply: { name: 'flow', body: 'Sent', response_json: '{"a":1}' } },
    }),
    message('order', {
      order: {
        catalog_id: '194836987003835',
        product_items: [{ product_retailer_id: 'di9ozbzfi4', quantity: 2, item_price: 30, currency: 'USD' }],
      },
    }),
    message('system', {
      system: { body: 'User A changed from 1 to 2', new_wa_id: '16505553333', type: 'user_changed_number' },
    }),
    message('request_welcome', {}),
    message('unsupported', {
      errors: [{ code: 131051, title: 'Message type unknown', error_data: { details: 'not supported' } }],
    }),
    message('text', {
      text: { body: 'From an ad' },
      referral: {
        source_url: 'https://fb.me/x',
        source_type: 'ad',
        source_id: '1',
        headline: 'h',
        ctwa_clid: 'c',
      },
    }),
  ];
  const events = readWebhookEvents(body(shapes), NOW) as InboundMessageEvent[];
  assert.deepEqual(
    events.map((e) => e.type),
    shapes.map((s) => s.type),
  );
  for (const [i, e] of events.entries()) {
    assert.equal(e.kind, 'message');
    assert.equal(e.phoneNumberId, '106540352242922');
    assert.equal(e.userPhone, USER);
    assert.equal(e.profileName, 'Sheena Nelson');
    assert.equal(e.at, Number(SECONDS) * 1000);
    assert.equal(e.message, shapes[i], 'the message object is kept as sent');
  }
});

test('statuses, template reviews and other kinds of change', () => {
  const statuses = [
    {
      id: 'wamid.OUT',
      status: 'delivered',
      timestamp: SECONDS,
      recipient_id: USER,
      conversation: { id: 'c1', origin: { type: 'service' } },
      pricing: { billable: false, pricing_model: 'PMP', category: 'service' },
    },
    {
      id: 'wamid.OUT2',
      status: 'failed',
      timestamp: SECONDS,
      recipient_id: USER,
      errors: [{ code: 131026, title: 'Message undeliverable', error_data: { details: 'unreachable' } }],
    },
  ];
  const template = {
    id: '0',
    time: NOW / 1000 - 5,
    changes: [
      {
        field: 'message_template_status_update',
        value: {
          event: 'REJECTED',
          message_template_id: 594425479261596,
          message_template_name: 'welcome',
          message_template_language: 'en_US',
          reason: 'INVALID_FORMAT',
          rejection_info: { reason: 'The body text ends with a variable.', recommendation: 42 },
        },
      },
      { field: 'business_capability_update', value: { max_daily_conversation_per_phone: 1000 } },
      { field: 'phone_number_quality_update', value: 'anything at all' },
    ],
  };
  const messages = body([], { statuses, errors: [{ code: 131000, title: 'Something went wrong' }] });
  const envelope = { ...messages, entry: [...messages.entry, template] };
  assert.deepEqual(readWebhookEvents(envelope, NOW), [
    {
      kind: 'status',
      phoneNumberId: '106540352242922',
      waId: 'wamid.OUT',
      status: 'delivered',
      at: Number(SECONDS) * 1000,
      errors: [],
      recipient: USER,
      recipientUserId: null,
      callbackData: null,
      network: statuses[0],
    },
    {
      kind: 'status',
      phoneNumberId: '106540352242922',
      waId: 'wamid.OUT2',
      status: 'failed',
      at: Number(SECONDS) * 1000,
      errors: [{ code: 131026, title: 'Message undeliverable', details: 'unreachable' }],
      recipient: USER,
      recipientUserId: null,
      callbackData: null,
      network: statuses[1],
    },
    // Nothing goes unsaid: what the gateway does not handle is an item the route logs.
    {
      kind: 'ignored',
      at: 'entry[0].changes[0].value.errors[0]',
      reason: 'the network reports (#131000) Something went wrong',
    },
    {
      kind: 'template_status',
      templateId: '594425479261596',
      event: 'REJECTED',
      reason: 'INVALID_FORMAT',
      // A text that is not one is read as empty: the words that are there are kept.
      rejectionInfo: { reason: 'The body text ends with a variable.', recommendation: '' },
      at: NOW - 5000,
    },
    {
      kind: 'ignored',
      at: 'entry[1].changes[1]',
      reason: 'a change of field "business_capability_update", which the gateway does not handle',
    },
    {
      kind: 'ignored',
      at: 'entry[1].changes[2]',
      reason: 'a phone_number_quality_update without its number and event',
    },
  ]);
  const quality = {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '102290129340398',
        time: Number(SECONDS),
        changes: [
          {
            field: 'phone_number_quality_update',
            value: { display_phone_number: '15550783881', event: 'DOWNGRADE', current_limit: 'TIER_250' },
          },
        ],
      },
    ],
  };
  assert.deepEqual(readWebhookEvents(quality, NOW), [
    {
      kind: 'number_quality',
      phone: '15550783881',
      event: 'DOWNGRADE',
      currentLimit: 'TIER_250',
      at: Number(SECONDS) * 1000,
    },
  ]);
});

test('times: well-formed but impossible ones are clamped to the arrival, malformed ones refused', () => {
  const at = (timestamp: unknown) =>
    (
      readWebhookEvents(
        body([message('text', { text: { body: 'x' } }, { timestamp })]),
        NOW,
      )[0] as InboundMessageEvent
    ).at;
  assert.equal(at(String(NOW / 1000)), NOW);
  assert.equal(at(NOW / 1000 - 1), NOW - 1000, 'a JSON integer, as in entry.time');
  assert.equal(at(String(NOW / 1000 - 29 * 86_400)), NOW - 29 * 86_400_000);
  assert.equal(at(String(NOW / 1000 + 1)), NOW, 'ahead of the clock');
  assert.equal(at(String(NOW / 1000 - 31 * 86_400)), NOW, 'over 30 days old');
  assert.equal(at('0'), NOW);
  assert.equal(at('999999999999'), NOW);
  const field = 'entry[0].changes[0].value.messages[0].timestamp';
  for (const bad of ['1e20', '1.0', '-1', '', '+1', '1000000000000', 1.5, -1, 1e20, Number.NaN, null, [1]]) {
    assert.deepEqual(
      readWebhookEvents(body([message('text', { text: { body: 'x' } }, { timestamp: bad })]), NOW),
      [
        {
          kind: 'ignored',
          at: field,
          reason: `${field} must be Unix seconds as a decimal string of 1 to 12 digits`,
          refused: true,
        },
      ],
      `timestamp ${String(bad)}`,
    );
  }
});

test('one item with an impossible value is refused alone: the messages and statuses beside it are read', () => {
  const good = message('text', { text: { body: 'fine' } }, { id: 'wamid.GOOD' });
  const bad = message('text', { text: { body: 'bad' } }, { id: 'wamid.BAD', timestamp: '1e20' });
  const b = body([bad, good], {
    statuses: [
      { id: 7, status: 'delivered', timestamp: SECONDS },
      { id: 'wamid.OUT', status: 'read', timestamp: SECONDS, recipient_id: USER },
    ],
  });
  const events = readWebhookEvents(b, NOW);
  assert.deepEqual(
    events.map((e) => [e.kind, e.kind === 'ignored' ? e.at : 'waId' in e ? e.waId : '']),
    [
      ['ignored', 'entry[0].changes[0].value.messages[0].timestamp'],
      ['message', 'wamid.GOOD'],
      ['ignored', 'entry[0].changes[0].value.statuses[0].id'],
      ['status', 'wamid.OUT'],
    ],
  );
  // A change that cannot be routed (no phone-number id) is refused whole; the next change is read.
  const unroutable = body([good]);
  const changes = unroutable.entry[0]!.changes as Record<string, unknown>[];
  changes.unshift({ field: 'messages', value: { messages: [bad] } });
  assert.deepEqual(
    readWebhookEvents(unroutable, NOW).map((e) => e.kind),
    ['ignored', 'message'],
  );
});

test('a user who shows only a username has an empty WhatsApp id: read as none, not refused', () => {
  const userId = 'US.13491208655302741918';
  const b = body([message('text', { text: { body: 'hi' } }, { from: '', from_user_id: userId })]);
  (b.entry[0]!.changes[0]!.value as Record<string, unknown>).contacts = [
    { profile: { name: 'Amina', username: 'amina.k' }, wa_id: '', user_id: userId },
  ];
  const [event] = readWebhookEvents(b, NOW) as InboundMessageEvent[];
  assert.deepEqual(
    [event!.userPhone, event!.userId, event!.profileName, event!.username],
    [null, userId, 'Amina', 'amina.k'],
  );
  const status = body([], {
    statuses: [
      { id: 'wamid.OUT', status: 'sent', timestamp: SECONDS, recipient_id: '', recipient_user_id: userId },
    ],
  });
  const [sent] = readWebhookEvents(status, NOW);
  assert.equal(sent!.kind === 'status' && sent!.recipient, null);
  assert.equal(sent!.kind === 'status' && sent!.recipientUserId, userId);
});

test('contacts: one without a WhatsApp id or a profile names nobody; a malformed one is refused', () => {
  const read = (list: unknown[]) => {
    const b = body([message('text', { text: { body: 'x' } })]);
    (b.entry[0]!.changes[0]!.value as Record<string, unknown>).contacts = list;
    return (readWebhookEvents(b, NOW)[0] as InboundMessageEvent).profileName;
  };
  assert.equal(read([{ profile: { name: 'No id' } }, { wa_id: USER }]), null);
  assert.equal(
    read([{ wa_id: '1' }, { wa_id: USER, profile: {} }, { wa_id: USER, profile: { name: 'Ann' } }]),
    'Ann',
  );
  // A malformed contact is refused alone: the message is still read, by its own `from`, without a name.
  for (const bad of [
    [{ wa_id: 5, profile: { name: 'A' } }],
    [{ wa_id: USER, profile: [] }],
    [{ wa_id: USER, profile: { name: 5 } }],
    ['x'],
  ]) {
    const b = body([message('text', { text: { body: 'x' } })]);
    (b.entry[0]!.changes[0]!.value as Record<string, unknown>).contacts = bad;
    const events = readWebhookEvents(b, NOW);
    assert.deepEqual(
      events.map((e) => [e.kind, e.kind === 'ignored' && e.refused]),
      [
        ['ignored', true],
        ['message', false],
      ],
      JSON.stringify(bad),
    );
    assert.equal((events[1] as InboundMessageEvent).userPhone, USER);
  }
});

test('a body that is not an envelope, or has none, is read without a throw other than the field error', () => {
  assert.deepEqual(readWebhookEvents({}, NOW), [], 'no entry: nothing to handle (a dashboard test ping)');
  assert.deepEqual(readWebhookEvents({ entry: [] }, NOW), []);
  for (const bad of [null, 5, 'x', [], { entry: null }, { entry: 'x' }]) {
    assert.throws(() => readWebhookEvents(bad, NOW), WebhookFieldError, JSON.stringify(bad));
  }
  // An entry that is not one is refused alone.
  assert.deepEqual(
    readWebhookEvents({ entry: [{ changes: 'x' }, 5] }, NOW).map((e) => e.kind === 'ignored' && e.at),
    ['entry[0].changes', 'entry[1]'],
  );
});

/** One `user_preferences` change as Meta documents it, holding `items` (and `contacts`, when given). */
function preferences(items: Record<string, unknown>[], contacts?: Record<string, unknown>[]) {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '102290129340398',
        changes: [
          {
            field: 'user_preferences',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550783881', phone_number_id: '106540352242922' },
              ...(contacts ? { contacts } : {}),
              user_preferences: items,
            },
          },
        ],
      },
    ],
  };
}

test('user_preferences: a stop or a resume of marketing is an event; other kinds are logged, bad fields refused', () => {
  const stop = {
    wa_id: USER,
    detail: 'User requested to stop marketing messages',
    category: 'marketing_messages',
    value: 'stop',
    // An integer in Meta's payload, unlike the strings of messages.
    timestamp: Number(SECONDS),
  };
  const userId = 'US.13491208655302741918';
  const contacts = [{ profile: { name: 'Sheena Nelson' }, wa_id: USER, user_id: userId }];
  const at = 'entry[0].changes[0].value.user_preferences';
  assert.deepEqual(
    readWebhookEvents(
      preferences(
        [
          stop,
          { ...stop, value: 'resume', timestamp: SECONDS },
          { ...stop, category: 'utility_messages' },
          { ...stop, value: 'snooze' },
          { category: 'marketing_messages', value: 'stop' },
          { user_id: userId, category: 'marketing_messages', value: 'stop' },
        ],
        contacts,
      ),
      NOW,
    ),
    [
      {
        kind: 'marketing_preference',
        phoneNumberId: '106540352242922',
        userPhone: USER,
        userId,
        value: 'stop',
        at: Number(SECONDS) * 1000,
      },
      {
        kind: 'marketing_preference',
        phoneNumberId: '106540352242922',
        userPhone: USER,
        userId,
        value: 'resume',
        at: Number(SECONDS) * 1000,
      },
      { kind: 'ignored', at: `${at}[2]`, reason: 'a user preference of category "utility_messages"' },
      { kind: 'ignored', at: `${at}[3]`, reason: 'a marketing preference of value "snooze"' },
      {
        kind: 'ignored',
        at: `${at}[4]`,
        reason: 'a marketing preference with neither `wa_id` nor `user_id`',
      },
      // No time: dated by its arrival.
      {
        kind: 'marketing_preference',
        phoneNumberId: '106540352242922',
        userPhone: null,
        userId,
        value: 'stop',
        at: NOW,
      },
    ],
  );
  for (const [item, field] of [
    [{ ...stop, wa_id: 'not a number' }, `${at}[0].wa_id`],
    [{ ...stop, timestamp: 'soon' }, `${at}[0].timestamp`],
  ] as const) {
    const [refused, next] = readWebhookEvents(preferences([item, stop]), NOW);
    assert.equal(refused!.kind === 'ignored' && refused!.refused && refused!.at, field);
    assert.equal(next!.kind, 'marketing_preference', 'the item after it is read');
  }
  const noMetadata = preferences([stop]);
  delete (noMetadata.entry[0]!.changes[0]!.value as { metadata?: unknown }).metadata;
  assert.deepEqual(readWebhookEvents(noMetadata, NOW), [
    {
      kind: 'ignored',
      at: 'entry[0].changes[0].value.metadata',
      reason: 'entry[0].changes[0].value.metadata must be an object',
      refused: true,
    },
  ]);
});

test('template_category_update: a change made is an event; the notice a day ahead and odd ones are logged', () => {
  const change = (value: Record<string, unknown>) => ({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '102290129340398',
        time: Number(SECONDS),
        changes: [{ field: 'template_category_update', value }],
      },
    ],
  });
  const named = {
    message_template_id: 278077987957091,
    message_template_name: 'welcome_template',
    message_template_language: 'en-US',
  };
  assert.deepEqual(
    readWebhookEvents(change({ ...named, previous_category: 'UTILITY', new_category: 'MARKETING' }), NOW),
    [
      {
        kind: 'template_category',
        templateId: '278077987957091',
        category: 'MARKETING',
        at: Number(SECONDS) * 1000,
      },
    ],
  );
  // The notice: `new_category` is still the current one, `correct_category` the one to come.
  const notice = {
    ...named,
    correct_category: 'MARKETING',
    new_category: 'UTILITY',
    category_update_timestamp: 1,
  };
  assert.deepEqual(readWebhookEvents(change(notice), NOW), [
    {
      kind: 'ignored',
      at: 'entry[0].changes[0]',
      reason: 'a notice that template 278077987957091 becomes MARKETING; applied when the change is made',
    },
  ]);
  for (const odd of [{ ...named, new_category: 'PROMOTIONAL' }, { new_category: 'MARKETING' }, 'MARKETING']) {
    assert.deepEqual(readWebhookEvents(change(odd as Record<string, unknown>), NOW), [
      {
        kind: 'ignored',
        at: 'entry[0].changes[0]',
        reason: 'a template_category_update without its template and category',
      },
    ]);
  }
});

test('message_template_quality_update: a new rating is an event; one without its template or score is logged', () => {
  const change = (value: unknown) => ({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '102290129340398',
        time: Number(SECONDS),
        changes: [{ field: 'message_template_quality_update', value }],
      },
    ],
  });
  const rating = {
    previous_quality_score: 'GREEN',
    new_quality_score: 'YELLOW',
    message_template_id: 594425479261596,
    message_template_name: 'order_update',
    message_template_language: 'en_US',
  };
  assert.deepEqual(readWebhookEvents(change(rating), NOW), [
    { kind: 'template_quality', templateId: '594425479261596', score: 'YELLOW', at: Number(SECONDS) * 1000 },
  ]);
  for (const odd of [{ ...rating, new_quality_score: 'PURPLE' }, { new_quality_score: 'RED' }, 7]) {
    assert.deepEqual(readWebhookEvents(change(odd), NOW), [
      {
        kind: 'ignored',
        at: 'entry[0].changes[0]',
        reason: 'a message_template_quality_update without its template and score',
      },
    ]);
  }
});

test('account_update: what stops the account from starting conversations is an event; the rest is logged', () => {
  const update = (value: unknown, id: unknown = '102290129340398') => ({
    object: 'whatsapp_business_account',
    entry: [{ id, time: Number(SECONDS), changes: [{ field: 'account_update', value }] }],
  });
  const at = Number(SECONDS) * 1000;
  const restricted = (type: string, expiration?: string) => ({
    event: 'ACCOUNT_RESTRICTION',
    restriction_info: [{ restriction_type: type, ...(expiration ? { expiration } : {}) }],
  });
  const stopped = (reason: string) => [
    { kind: 'account_restriction', wabaId: '102290129340398', reason, at },
  ];
  const account = 'WhatsApp Business Account 102290129340398';
  assert.deepEqual(
    readWebhookEvents(update(restricted('RESTRICTED_BIZ_INITIATED_MESSAGING', '2026-12-01T00:00:00Z')), NOW),
    stopped(`the network restricted business-initiated messaging of ${account} until 2026-12-01T00:00:00Z`),
  );
  assert.deepEqual(
    readWebhookEvents(update({ event: 'DISABLED_UPDATE', ban_info: { waba_ban_state: ['DISABLE'] } }), NOW),
    stopped(`the network disabled ${account}`),
  );
  assert.deepEqual(
    readWebhookEvents(update({ event: 'DISABLED_UPDATE', ban_info: { waba_ban_state: 'DISABLE' } }), NOW),
    stopped(`the network disabled ${account}`),
  );
  assert.deepEqual(
    readWebhookEvents(update({ event: 'ACCOUNT_DELETED' }), NOW),
    stopped(`the network deleted ${account}`),
  );
  const logged = (reason: string) => [{ kind: 'ignored', at: 'entry[0].changes[0]', reason }];
  for (const [value, event] of [
    [restricted('RESTRICTED_ADD_PHONE_NUMBER_ACTION'), 'ACCOUNT_RESTRICTION'],
    [{ event: 'DISABLED_UPDATE', ban_info: { waba_ban_state: ['SCHEDULE_FOR_DISABLE'] } }, 'DISABLED_UPDATE'],
    [{ event: 'ACCOUNT_VIOLATION', violation_info: { violation_type: 'SCAM' } }, 'ACCOUNT_VIOLATION'],
    [{ event: 'VERIFIED_ACCOUNT' }, 'VERIFIED_ACCOUNT'],
  ] as const) {
    assert.deepEqual(
      readWebhookEvents(update(value), NOW),
      logged(`an account_update "${event}", which stops no sending`),
    );
  }
  for (const [value, id] of [
    [{ event: 'ACCOUNT_DELETED' }, 12],
    [{ event: 'ACCOUNT_DELETED' }, 'WABA\nwith a line break'],
    [{ event: 7 }, '102290129340398'],
    ['ACCOUNT_DELETED', '102290129340398'],
  ] as const) {
    assert.deepEqual(
      readWebhookEvents(update(value, id), NOW),
      logged('an account_update without its account and event'),
    );
  }
});
