/**
 * Simulated message templates over real HTTP: create → PENDING → signed APPROVED webhook → listed →
 * sent with parameters → filled in on the virtual phone; the review's INVALID_FORMAT rules; send errors.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  assertSigned,
  BUSINESS,
  eventually,
  graphSend,
  type Harness,
  request,
  startHarness,
  TOKEN,
  USER,
  VERSION,
} from './harness.ts';

const ORDER_TEMPLATE = {
  name: 'order_confirmation',
  language: 'en_US',
  category: 'UTILITY',
  parameter_format: 'POSITIONAL',
  components: [
    { type: 'HEADER', format: 'TEXT', text: 'Order {{1}}', example: { header_text: ['#4521'] } },
    {
      type: 'BODY',
      text: 'Hi {{1}}, your order ships {{2}}.',
      example: { body_text: [['Jane', 'today']] },
    },
    { type: 'FOOTER', text: 'Reply STOP to opt out' },
    {
      type: 'BUTTONS',
      buttons: [
        { type: 'QUICK_REPLY', text: 'Track order' },
        { type: 'QUICK_REPLY', text: 'Cancel' },
        { type: 'URL', text: 'Open', url: 'https://x.com/o/{{1}}', example: ['https://x.com/o/4521'] },
        { type: 'PHONE_NUMBER', text: 'Call us', phone_number: '+1 415 555 0199' },
      ],
    },
  ],
};

function create(h: Harness, body: Record<string, unknown>, waba = BUSINESS) {
  return request(`${h.base}/${VERSION}/${waba}/message_templates`, { body, token: TOKEN });
}

function templateHooks(h: Harness) {
  return h.receiver.received.filter(
    (hook) => hook.json?.entry?.[0]?.changes?.[0]?.field === 'message_template_status_update',
  );
}

/** The template webhook values received for `id`, once there are `count` of them. */
function reviewsOf(h: Harness, id: string, count = 1) {
  return eventually(() => {
    const values = templateHooks(h)
      .map((hook) => hook.json.entry[0].changes[0].value)
      .filter((value) => String(value.message_template_id) === id);
    return values.length >= count ? values : undefined;
  });
}

/** Creates a template, has its review decided now, and waits for its webhook; answers its id and the value. */
async function createReviewed(h: Harness, body: Record<string, unknown>, waba = BUSINESS) {
  const created = await create(h, body, waba);
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const decided = await request(`${h.base}/templates/${created.body.id}/review`, {
    method: 'POST',
    body: {},
  });
  assert.equal(decided.status, 200, JSON.stringify(decided.body));
  const [review] = await reviewsOf(h, created.body.id);
  return { id: created.body.id as string, review };
}

function bodyWith(name: string, text: string, examples: string[] = []) {
  return {
    name,
    language: 'en',
    category: 'MARKETING',
    components: [{ type: 'BODY', text, ...(examples.length ? { example: { body_text: [examples] } } : {}) }],
  };
}

async function renderedOn(h: Harness, messageId: string): Promise<string> {
  const inbox = await request(`${h.base}/users/${USER}/messages?from=${BUSINESS}`);
  const message = inbox.body.messages.find((m: { id: string }) => m.id === messageId);
  assert.ok(message, 'the message must be on the phone');
  return message.rendered;
}

describe('simulated templates: lifecycle', () => {
  let h: Harness;
  before(async () => {
    // Reviews are decided by the simulator's control, so the test sees PENDING without racing a clock.
    h = await startHarness({ templateReviewDelayMs: 600_000 });
  });
  after(() => h.close());

  test('create → PENDING → signed APPROVED webhook → listed → sent and filled in on the phone', async () => {
    const created = await create(h, ORDER_TEMPLATE);
    assert.equal(created.status, 200);
    assert.deepEqual(Object.keys(created.body), ['id', 'status', 'category']);
    assert.match(created.body.id, /^8\d{15}$/);
    assert.equal(created.body.status, 'PENDING');
    assert.equal(created.body.category, 'UTILITY');
    const id: string = created.body.id;

    const pending = await request(`${h.base}/${VERSION}/${id}`, { token: TOKEN });
    assert.equal(pending.body.status, 'PENDING');
    const decided = await request(`${h.base}/templates/${id}/review`, { method: 'POST', body: {} });
    assert.equal(decided.status, 200);
    assert.equal(decided.body.status, 'APPROVED');
    const again = await request(`${h.base}/templates/${id}/review`, { method: 'POST', body: {} });
    assert.equal(again.status, 409, 'an approved template has no pending review');

    const [review] = await reviewsOf(h, id);
    assert.deepEqual(review, {
      event: 'APPROVED',
      message_template_id: Number(id),
      message_template_name: 'order_confirmation',
      message_template_language: 'en_US',
      message_template_category: 'UTILITY',
      reason: 'NONE',
    });
    const hook = templateHooks(h).find((x) => x.body.includes(id))!;
    assertSigned(hook);
    assert.equal(hook.json.object, 'whatsapp_business_account');
    assert.equal(hook.json.entry[0].id, BUSINESS, 'entry[].id is the WABA id, the number itself');
    assert.equal(Number.isInteger(hook.json.entry[0].time), true);
    // Meta posts nothing on submission: the APPROVED webhook is the only one.
    assert.equal(templateHooks(h).filter((x) => x.body.includes(id)).length, 1);

    const listed = await request(
      `${h.base}/${VERSION}/${BUSINESS}/message_templates?name=order_confirmation`,
      { token: TOKEN },
    );
    assert.equal(listed.status, 200);
    assert.equal(listed.body.data.length, 1);
    assert.deepEqual(listed.body.data[0], {
      id,
      name: 'order_confirmation',
      language: 'en_US',
      status: 'APPROVED',
      category: 'UTILITY',
      parameter_format: 'POSITIONAL',
      components: ORDER_TEMPLATE.components,
      rejected_reason: 'NONE',
    });

    // The user never wrote: templates are exempt from the 24-hour window.
    const sent = await graphSend(h, {
      type: 'template',
      template: {
        name: 'order_confirmation',
        language: { code: 'en_US', policy: 'deterministic' },
        components: [
          { type: 'header', parameters: [{ type: 'text', text: '#77' }] },
          {
            type: 'body',
            parameters: [
              { type: 'text', text: 'Amina' },
              { type: 'date_time', date_time: { fallback_value: 'on Monday' } },
            ],
          },
          { type: 'button', sub_type: 'url', index: '2', parameters: [{ type: 'text', text: '77' }] },
        ],
      },
    });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    assert.equal(
      await renderedOn(h, sent.body.messages[0].id),
      [
        '*Order #77*',
        'Hi Amina, your order ships on Monday.',
        '_Reply STOP to opt out_',
        '[Track order] [Cancel]',
        '[Open] https://x.com/o/77',
        '[Call us] +14155550199',
      ].join('\n'),
    );
  });

  test('a media header is filled in from the send and shown as [image: <link>]', async () => {
    const { id, review } = await createReviewed(h, {
      name: 'spring_sale',
      language: 'en',
      category: 'MARKETING',
      components: [
        { type: 'HEADER', format: 'IMAGE', example: { header_handle: ['4::aW1hZ2UvcG5n:ARb'] } },
        { type: 'BODY', text: 'Our spring sale starts today, see you in store.' },
        { type: 'BUTTONS', buttons: [{ type: 'COPY_CODE', example: 'SAVE25' }] },
      ],
    });
    assert.equal(review.event, 'APPROVED');
    assert.equal(
      (await request(`${h.base}/${VERSION}/${id}?fields=status`, { token: TOKEN })).body.status,
      'APPROVED',
    );
    const sent = await graphSend(h, {
      type: 'template',
      template: {
        name: 'spring_sale',
        language: { code: 'en' },
        components: [
          {
            type: 'header',
            parameters: [{ type: 'image', image: { link: 'https://cdn.example.com/s.jpg' } }],
          },
          {
            type: 'button',
            sub_type: 'copy_code',
            index: 0,
            parameters: [{ type: 'coupon_code', coupon_code: 'SPRING10' }],
          },
        ],
      },
    });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    assert.equal(
      await renderedOn(h, sent.body.messages[0].id),
      '[image: https://cdn.example.com/s.jpg]\nOur spring sale starts today, see you in store.\n[Copy offer code] SPRING10',
    );
  });

  test('GET by id answers the template object; ?fields keeps those fields and id', async () => {
    const { id } = await createReviewed(h, bodyWith('fields_probe', 'Thanks for your visit today.'));
    const full = await request(`${h.base}/${VERSION}/${id}`, { token: TOKEN });
    assert.equal(full.status, 200);
    assert.equal(full.body.name, 'fields_probe');
    assert.deepEqual(full.body.components, [{ type: 'BODY', text: 'Thanks for your visit today.' }]);
    const some = await request(`${h.base}/${VERSION}/${id}?fields=name,status`, { token: TOKEN });
    assert.deepEqual(some.body, { id, name: 'fields_probe', status: 'APPROVED' });
  });

  test('a second number is its own WABA: its templates and webhooks carry its id', async () => {
    const other = '14155550101';
    const { id, review } = await createReviewed(
      h,
      bodyWith('other_waba', 'A note from the other shop.'),
      other,
    );
    assert.equal(review.event, 'APPROVED');
    const hook = templateHooks(h).find((x) => x.body.includes(id))!;
    assert.equal(hook.json.entry[0].id, other);
    const mine = await request(`${h.base}/${VERSION}/${BUSINESS}/message_templates?name=other_waba`, {
      token: TOKEN,
    });
    assert.deepEqual(mine.body.data, []);
    const send = await graphSend(h, {
      type: 'template',
      template: { name: 'other_waba', language: { code: 'en' } },
    });
    assert.equal(send.body.error.code, 132001, 'the template is not in the sending number’s WABA');
  });
});

describe('simulated templates: review rejects INVALID_FORMAT', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ templateReviewDelayMs: 600_000 });
  });
  after(() => h.close());

  const cases: [string, string, string[], RegExp][] = [
    [
      'adjacent_variables',
      'Hello there {{1}}{{2}} and welcome back to us.',
      ['a', 'b'],
      /next to each other/,
    ],
    [
      'spaced_variables',
      'Hello there {{1}}  {{2}} and welcome back to us.',
      ['a', 'b'],
      /next to each other/,
    ],
    [
      'too_many_variables',
      'Hi {{1}} and {{2}} ok.',
      ['a', 'b'],
      /too many variables.*2 variables and 3 words/,
    ],
  ];
  test('a variable at the very start or end of the body is refused at once, as Meta does (2388299)', async () => {
    for (const [name, text] of [
      ['starts_with_variable', '{{1}}, your order is ready for pickup.'],
      ['ends_with_variable', 'Your order is ready for pickup, {{1}}  '],
    ]) {
      const r = await create(h, bodyWith(name!, text!, ['Jane']));
      assert.equal(r.status, 400, JSON.stringify(r.body));
      assert.equal(r.body.error.code, 100);
      assert.equal(r.body.error.error_subcode, 2388299);
      assert.equal(r.body.error.error_user_title, 'Leading or trailing params not allowed');
      assert.equal(r.body.error.error_user_msg, "Variables can't be at the start or end of the template.");
    }
    // A word, or a mark, on either side is enough here; the formatting of an authentication code is one.
    const r = await create(h, bodyWith('marked_variable', '*{{1}}* is your order number, thanks.', ['42']));
    assert.equal(r.status, 200, JSON.stringify(r.body));
  });

  for (const [name, text, examples, reason] of cases) {
    test(`${name.replaceAll('_', ' ')} → REJECTED with INVALID_FORMAT`, async () => {
      const { id, review } = await createReviewed(h, bodyWith(name, text, examples));
      assert.equal(review.event, 'REJECTED');
      assert.equal(review.reason, 'INVALID_FORMAT');
      assert.match(review.rejection_info.reason, reason);
      assert.equal(typeof review.rejection_info.recommendation, 'string');
      const object = await request(`${h.base}/${VERSION}/${id}`, { token: TOKEN });
      assert.equal(object.body.status, 'REJECTED');
      assert.equal(object.body.rejected_reason, 'INVALID_FORMAT');
    });
  }

  test('two words of fixed text per variable is enough; a header may end with its variable', async () => {
    const { review } = await createReviewed(h, {
      ...bodyWith('dense_enough', 'Hi {{1}}, your order ships {{2}}.', ['Jane', 'today']),
      components: [
        { type: 'HEADER', format: 'TEXT', text: 'Order {{1}}', example: { header_text: ['#1'] } },
        {
          type: 'BODY',
          text: 'Hi {{1}}, your order ships {{2}}.',
          example: { body_text: [['Jane', 'today']] },
        },
      ],
    });
    assert.equal(review.event, 'APPROVED');
  });
});

describe('simulated templates: send errors', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ templateReviewDelayMs: 600_000 });
    await createReviewed(h, ORDER_TEMPLATE);
    await createReviewed(h, {
      name: 'doc_ready',
      language: 'en',
      category: 'UTILITY',
      components: [
        { type: 'HEADER', format: 'DOCUMENT', example: { header_handle: ['h'] } },
        { type: 'BODY', text: 'Your invoice is attached to this message.' },
      ],
    });
  });
  after(() => h.close());

  const orderSend = (components: unknown[], code = 'en_US') =>
    graphSend(h, {
      type: 'template',
      template: { name: 'order_confirmation', language: { code }, components },
    });
  const header = { type: 'header', parameters: [{ type: 'text', text: '#1' }] };
  const body = {
    type: 'body',
    parameters: [
      { type: 'text', text: 'Jane' },
      { type: 'text', text: 'today' },
    ],
  };
  const urlButton = {
    type: 'button',
    sub_type: 'url',
    index: '2',
    parameters: [{ type: 'text', text: '1' }],
  };

  async function assertError(
    response: Promise<{ status: number; body: any }>,
    code: number,
    details: RegExp,
  ) {
    const r = await response;
    assert.equal(r.body?.error?.code, code, JSON.stringify(r.body));
    // A template refusal is worded in error_user_msg; a send's in error_data.details, as Meta's are.
    assert.match(r.body.error.error_data?.details ?? r.body.error.error_user_msg, details);
    return r;
  }

  test('the complete parameters are accepted (the baseline of the cases below)', async () => {
    const r = await orderSend([header, body, urlButton]);
    assert.equal(r.status, 200);
  });

  test('an unknown name, or a known name in another language, is 132001', async () => {
    const unknown = await assertError(
      graphSend(h, { type: 'template', template: { name: 'no_such', language: { code: 'en' } } }),
      132001,
      /no_such.*does not exist in en/,
    );
    assert.equal(unknown.status, 404);
    await assertError(
      orderSend([header, body, urlButton], 'fr'),
      132001,
      /does not exist in fr; it exists in en_US/,
    );
  });

  test('a template that is not APPROVED is 132001; a PAUSED one is 132015', async () => {
    const created = await create(h, bodyWith('not_yet', 'Something is coming for you soon.'));
    const pending = graphSend(h, {
      type: 'template',
      template: { name: 'not_yet', language: { code: 'en' } },
    });
    await assertError(pending, 132001, /is PENDING, not APPROVED/);
    // Reviews wait for the control (the harness's delay is longer than any test), so the send above
    // always meets a PENDING template.
    const decided = await request(`${h.base}/templates/${created.body.id}/review`, {
      method: 'POST',
      body: {},
    });
    assert.equal(decided.status, 200, JSON.stringify(decided.body));
    await reviewsOf(h, created.body.id);
    const paused = await request(`${h.base}/templates/${created.body.id}/status`, {
      body: { status: 'PAUSED' },
    });
    assert.equal(paused.status, 200);
    assert.equal(paused.body.status, 'PAUSED');
    const [, pausedHook] = await reviewsOf(h, created.body.id, 2);
    assert.equal(pausedHook.event, 'PAUSED');
    await assertError(
      graphSend(h, { type: 'template', template: { name: 'not_yet', language: { code: 'en' } } }),
      132015,
      /paused/,
    );
  });

  test('a missing header parameter is 132000 naming the header and its count', async () => {
    await assertError(
      orderSend([body, urlButton]),
      132000,
      /header component .* expects 1 parameter, 0 given/,
    );
  });

  test('too few or too many body parameters is 132000 naming the body and its count', async () => {
    const one = { type: 'body', parameters: [{ type: 'text', text: 'Jane' }] };
    await assertError(
      orderSend([header, one, urlButton]),
      132000,
      /body component .* expects 2 parameters, 1 given/,
    );
    const three = { type: 'body', parameters: [...body.parameters, { type: 'text', text: 'x' }] };
    await assertError(orderSend([header, three, urlButton]), 132000, /expects 2 parameters, 3 given/);
  });

  test('a URL button with a variable needs its button component with one text parameter (132000)', async () => {
    await assertError(
      orderSend([header, body]),
      132000,
      /button 2 \(URL\) component .* expects 1 parameter, 0 given/,
    );
    const two = { ...urlButton, parameters: [...urlButton.parameters, { type: 'text', text: '2' }] };
    await assertError(orderSend([header, body, two]), 132000, /button 2 \(URL\).*1 parameter, 2 given/);
    await assertError(orderSend([header, body, { ...urlButton, index: '7' }]), 132000, /names no button/);
  });

  test('a media header needs one parameter of its own type (132000 count, 132012 type)', async () => {
    const docSend = (components: unknown[]) =>
      graphSend(h, {
        type: 'template',
        template: { name: 'doc_ready', language: { code: 'en' }, components },
      });
    await assertError(docSend([]), 132000, /header component .* expects 1 parameter, 0 given/);
    await assertError(
      docSend([{ type: 'header', parameters: [{ type: 'image', image: { link: 'https://x.com/a.jpg' } }] }]),
      132012,
      /must be document/,
    );
    const ok = await docSend([
      {
        type: 'header',
        parameters: [{ type: 'document', document: { id: '9123456789012345', filename: 'inv.pdf' } }],
      },
    ]);
    assert.equal(ok.status, 200);
    assert.equal(
      await renderedOn(h, ok.body.messages[0].id),
      '[document: inv.pdf]\nYour invoice is attached to this message.',
    );
  });

  test('a text parameter over 1024 characters is 132008', async () => {
    const long = { type: 'body', parameters: [{ type: 'text', text: 'x'.repeat(1025) }, body.parameters[1]] };
    await assertError(orderSend([header, long, urlButton]), 132008, /at most 1024 characters \(got 1025\)/);
  });

  test('a text parameter with a new line, a tab or five spaces in a row is 132018', async () => {
    for (const text of ['Jane\nDoe', 'Jane\tDoe', 'Jane     Doe']) {
      const odd = { type: 'body', parameters: [{ type: 'text', text }, body.parameters[1]] };
      await assertError(
        orderSend([header, odd, urlButton]),
        132018,
        /new-line\/tab characters or more than 4 consecutive spaces/,
      );
    }
    const four = { type: 'body', parameters: [{ type: 'text', text: 'Jane    Doe' }, body.parameters[1]] };
    assert.equal((await orderSend([header, four, urlButton])).status, 200, 'four spaces are allowed');
  });
});
