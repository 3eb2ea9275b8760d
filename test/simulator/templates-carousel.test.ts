/**
 * Media-card carousel templates on the simulated network (docs/cloud-api.md §4.2, §4.3, §1.3 template): a
 * MARKETING body followed by 2 to 10 cards with the same parts, each rule refused with code 100 naming the
 * field inside the card; sends giving every card its media, body values and button parameters, each
 * mismatch refused naming card and component; the phone's rendered text and filled-in cards; and a tap on
 * a card's quick reply (or an ordinary template's) arriving as Meta's `button` message.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  assertSigned,
  BUSINESS,
  graphSend,
  type Harness,
  inboundFor,
  request,
  startHarness,
  TOKEN,
  USER,
  userSays,
  VERSION,
} from './harness.ts';
import {
  assertCreateRefused,
  assertSendRefused,
  createReviewed,
  createTemplate,
  onPhone,
} from './template-helpers.ts';

let counter = 0;
const fresh = (prefix: string) => `${prefix}_${++counter}`;

type Json = Record<string, any>;

const buyButton = {
  type: 'URL',
  text: 'Buy',
  url: 'https://shop.example.com/p/{{1}}',
  example: ['https://shop.example.com/p/scarf'],
};
const moreButton = { type: 'QUICK_REPLY', text: 'More like this' };

function card(overrides: { header?: Json; body?: Json | null; buttons?: unknown[] } = {}) {
  const body =
    overrides.body === undefined
      ? { type: 'BODY', text: 'Wool scarf, now {{1}}.', example: { body_text: [['€19']] } }
      : overrides.body;
  return {
    components: [
      overrides.header ?? { type: 'HEADER', format: 'IMAGE', example: { header_handle: ['4::aW1h'] } },
      ...(body ? [body] : []),
      { type: 'BUTTONS', buttons: overrides.buttons ?? [moreButton, buyButton] },
    ],
  };
}

function carousel(cards: unknown[], extra: { category?: string; components?: unknown[] } = {}) {
  return {
    name: fresh('autumn_picks'),
    language: 'en_US',
    category: extra.category ?? 'MARKETING',
    components: [
      { type: 'BODY', text: 'Our autumn picks for you, {{1}}.', example: { body_text: [['Jane']] } },
      { type: 'CAROUSEL', cards },
      ...(extra.components ?? []),
    ],
  };
}

describe('simulated carousel templates: create and list', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ templateReviewDelayMs: 600_000 });
  });
  after(() => h.close());

  const refused = (body: unknown, details: RegExp, subcode?: number) =>
    assertCreateRefused(h, body, details, subcode);

  test('accepted, approved, and listed in the upper-case shape with each card as {components}', async () => {
    const body = carousel([card(), card(), card()]);
    const { id, template } = await createReviewed(h, body);
    assert.equal(template.status, 'APPROVED');
    const listed = await request(`${h.base}/${VERSION}/${BUSINESS}/message_templates?name=${body.name}`, {
      token: TOKEN,
    });
    assert.equal(listed.body.data[0].id, id);
    assert.deepEqual(listed.body.data[0].components, body.components);
    // Lower-case types are Meta's too; they are listed upper case.
    const lower = carousel([
      {
        components: [
          { type: 'header', format: 'video', example: { header_handle: ['h'] } },
          { type: 'buttons', buttons: [{ type: 'quick_reply', text: 'Yes' }] },
        ],
      },
      {
        components: [
          { type: 'header', format: 'video', example: { header_handle: ['h'] } },
          { type: 'buttons', buttons: [{ type: 'quick_reply', text: 'Yes' }] },
        ],
      },
    ]);
    lower.components[1] = { type: 'carousel', cards: (lower.components[1] as Json).cards };
    const created = await createTemplate(h, lower);
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const read = await request(`${h.base}/${VERSION}/${created.body.id}`, { token: TOKEN });
    assert.equal(read.body.components[1].type, 'CAROUSEL');
    assert.deepEqual(read.body.components[1].cards[0].components[0], {
      type: 'HEADER',
      format: 'VIDEO',
      example: { header_handle: ['h'] },
    });
  });

  test('MARKETING only; no HEADER, FOOTER or BUTTONS beside the carousel', async () => {
    await refused(
      carousel([card(), card()], { category: 'UTILITY' }),
      /'components\[1\].type' CAROUSEL is for MARKETING templates only/,
    );
    await refused(
      carousel([card(), card()], { components: [{ type: 'FOOTER', text: 'Terms apply' }] }),
      /'components\[2\].type' FOOTER is not allowed beside a CAROUSEL/,
    );
    await refused(
      carousel([card(), card()], { components: [{ type: 'BUTTONS', buttons: [moreButton] }] }),
      /BUTTONS is not allowed beside a CAROUSEL/,
    );
    const noBody = carousel([card(), card()]);
    noBody.components.shift();
    await refused(noBody, /'components' must include a BODY component/);
  });

  test('2 to 10 cards', async () => {
    await createReviewed(h, carousel(Array.from({ length: 10 }, () => card())));
    await refused(carousel([card()]), /'components.CAROUSEL.cards' must hold 2 to 10 cards \(got 1\)/);
    await refused(carousel(Array.from({ length: 11 }, () => card())), /must hold 2 to 10 cards \(got 11\)/);
  });

  test('each card: an IMAGE or VIDEO header with one handle, the same format in every card', async () => {
    const text = { type: 'HEADER', format: 'TEXT', text: 'Scarf' };
    await refused(
      carousel([card(), card({ header: text })]),
      /'components.CAROUSEL.cards\[1\].HEADER.format' must be one of IMAGE, VIDEO/,
    );
    const noHandle = { type: 'HEADER', format: 'IMAGE', example: { header_handle: [] } };
    await refused(
      carousel([card({ header: noHandle }), card()]),
      /cards\[0\].HEADER.example.header_handle' must hold exactly one media handle/,
    );
    const video = { type: 'HEADER', format: 'VIDEO', example: { header_handle: ['v'] } };
    await refused(
      carousel([card(), card({ header: video })]),
      /'components.CAROUSEL.cards\[1\].HEADER.format' must be IMAGE like card 0's/,
    );
    const headless = card();
    headless.components.shift();
    await refused(
      carousel([card(), headless]),
      /'components.CAROUSEL.cards\[1\].components' must include a HEADER/,
    );
    const footer = card();
    footer.components.push({ type: 'FOOTER', text: 'x' } as never);
    await refused(
      carousel([card(), footer]),
      /'components.CAROUSEL.cards\[1\].components\[3\].type' must be one of HEADER, BODY, BUTTONS/,
    );
  });

  test('a card body: at most 160 characters and 2 line breaks, variables with examples, in every card or none', async () => {
    const body = (text: string, example?: string[]) => ({
      type: 'BODY',
      text,
      ...(example ? { example: { body_text: [example] } } : {}),
    });
    await createReviewed(
      h,
      carousel([card({ body: body('b'.repeat(160)) }), card({ body: body('Line\nline\nline') })]),
    );
    await refused(
      carousel([card(), card({ body: body('b'.repeat(161)) })]),
      /'components.CAROUSEL.cards\[1\].BODY.text' must be at most 160 characters/,
      2388040,
    );
    await refused(
      carousel([card(), card({ body: body('a\nb\nc\nd') })]),
      /'components.CAROUSEL.cards\[1\].BODY.text' may hold at most 2 line breaks \(got 3\)/,
    );
    await refused(
      carousel([card(), card({ body: body('Now {{1}} only.') })]),
      /'components.CAROUSEL.cards\[1\].BODY.example' must be an object/,
    );
    await refused(
      carousel([card(), card({ body: null })]),
      /'components.CAROUSEL.cards\[1\].components' must include a BODY: card 0 has one/,
    );
    await refused(
      carousel([card({ body: null }), card()]),
      /'components.CAROUSEL.cards\[1\].BODY' is not allowed: card 0 has no body/,
    );
    await createReviewed(h, carousel([card({ body: null }), card({ body: null })]));
  });

  test('card buttons: 1 or 2 of QUICK_REPLY, URL, PHONE_NUMBER, the same types in the same order in every card', async () => {
    const phone = { type: 'PHONE_NUMBER', text: 'Call', phone_number: '+1 415 555 0199' };
    await createReviewed(h, carousel([card({ buttons: [phone] }), card({ buttons: [phone] })]));
    await refused(
      carousel([card(), card({ buttons: [] })]),
      /'components.CAROUSEL.cards\[1\].BUTTONS.buttons' must hold 1 to 2 buttons \(got 0\)/,
    );
    await refused(
      carousel([card(), card({ buttons: [moreButton, buyButton, moreButton] })]),
      /must hold 1 to 2 buttons \(got 3\)/,
    );
    await refused(
      carousel([card({ buttons: [{ type: 'COPY_CODE', example: 'SAVE' }] }), card()]),
      /'components.CAROUSEL.cards\[0\].BUTTONS.buttons\[0\].type' must be one of QUICK_REPLY, URL, PHONE_NUMBER/,
    );
    await refused(
      carousel([card(), card({ buttons: [buyButton, moreButton] })]),
      /'components.CAROUSEL.cards\[1\].BUTTONS.buttons\[0\].type' must be QUICK_REPLY like card 0's button 0/,
    );
    await refused(
      carousel([card(), card({ buttons: [moreButton] })]),
      /'components.CAROUSEL.cards\[1\].BUTTONS.buttons' must hold 2 buttons like card 0/,
    );
    await refused(
      carousel([card(), card({ buttons: [moreButton, { ...buyButton, example: undefined }] })]),
      /'components.CAROUSEL.cards\[1\].BUTTONS.buttons\[1\].example' must be an array/,
    );
    await refused(
      carousel([card(), card({ buttons: [moreButton, { ...buyButton, text: 't'.repeat(26) }] })]),
      /cards\[1\].BUTTONS.buttons\[1\].text' must be at most 25/,
      2388040,
    );
  });
});

/** A send's card: its image, its body value, a quick-reply payload and the URL suffix. */
function sendCard(index: unknown, overrides: { header?: Json; body?: Json; buttons?: Json[] } = {}) {
  return {
    card_index: index,
    components: [
      overrides.header ?? {
        type: 'header',
        parameters: [{ type: 'image', image: { link: `https://cdn.example.com/${index}.jpg` } }],
      },
      overrides.body ?? { type: 'body', parameters: [{ type: 'text', text: '€19' }] },
      ...(overrides.buttons ?? [
        {
          type: 'button',
          sub_type: 'quick_reply',
          index: '0',
          parameters: [{ type: 'payload', payload: `more-${index}` }],
        },
        { type: 'button', sub_type: 'url', index: 1, parameters: [{ type: 'text', text: 'scarf' }] },
      ]),
    ],
  };
}

describe('simulated carousel templates: sends, the phone, and taps', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ templateReviewDelayMs: 600_000 });
    await createReviewed(h, { ...carousel([card(), card(), card()]), name: 'autumn_picks' });
    await createReviewed(h, {
      name: 'order_ready',
      language: 'en',
      category: 'UTILITY',
      components: [
        { type: 'BODY', text: 'Your order is ready for pickup today.' },
        {
          type: 'BUTTONS',
          buttons: [
            { type: 'QUICK_REPLY', text: 'On my way' },
            { type: 'QUICK_REPLY', text: 'Tomorrow' },
          ],
        },
      ],
    });
  });
  after(() => h.close());

  const body = { type: 'body', parameters: [{ type: 'text', text: 'Jane' }] };
  const send = (cards: unknown, components: unknown[] = [body]) =>
    graphSend(h, {
      type: 'template',
      template: {
        name: 'autumn_picks',
        language: { code: 'en_US' },
        components: [...components, { type: 'carousel', cards }],
      },
    });

  test('every card filled in: the rendered text and the structured cards on the phone', async () => {
    const r = await send([sendCard(0), sendCard('1'), sendCard(2)]);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const message = await onPhone(h, r.body.messages[0].id);
    assert.equal(
      message.rendered,
      [
        'Our autumn picks for you, Jane.',
        '[card 1] [image: https://cdn.example.com/0.jpg] Wool scarf, now €19. [More like this] [Buy] https://shop.example.com/p/scarf',
        '[card 2] [image: https://cdn.example.com/1.jpg] Wool scarf, now €19. [More like this] [Buy] https://shop.example.com/p/scarf',
        '[card 3] [image: https://cdn.example.com/2.jpg] Wool scarf, now €19. [More like this] [Buy] https://shop.example.com/p/scarf',
      ].join('\n'),
    );
    assert.deepEqual(message.template.cards[1], {
      index: 1,
      header: { type: 'image', link: 'https://cdn.example.com/1.jpg' },
      body: 'Wool scarf, now €19.',
      buttons: [
        { type: 'quick_reply', index: 0, text: 'More like this', payload: 'more-1' },
        { type: 'url', index: 1, text: 'Buy', url: 'https://shop.example.com/p/scarf' },
      ],
    });
    assert.deepEqual(message.template.buttons, []);
  });

  test('cards in any order by card_index; a quick reply without payload carries its text', async () => {
    const plain = [
      { type: 'button', sub_type: 'url', index: '1', parameters: [{ type: 'text', text: 'hat' }] },
    ];
    const r = await send([sendCard(2), sendCard(0, { buttons: plain }), sendCard(1)]);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const message = await onPhone(h, r.body.messages[0].id);
    assert.deepEqual(
      message.template.cards.map((c: Json) => c.index),
      [0, 1, 2],
    );
    assert.equal(message.template.cards[0].buttons[0].payload, 'More like this');
    assert.equal(message.template.cards[0].buttons[1].url, 'https://shop.example.com/p/hat');
  });

  test('a card header by the id of media uploaded to the network is shown from the phone', async () => {
    const form = new FormData();
    form.set('messaging_product', 'whatsapp');
    form.set('file', new Blob([new Uint8Array([0xff, 0xd8, 0xff, 0xd9])], { type: 'image/jpeg' }), 'a.jpg');
    const uploaded = await fetch(`${h.base}/${VERSION}/${BUSINESS}/media`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${TOKEN}` },
    }).then((x) => x.json() as Promise<Json>);
    const byId = { type: 'header', parameters: [{ type: 'image', image: { id: uploaded.id } }] };
    const r = await send([sendCard(0, { header: byId }), sendCard(1), sendCard(2)]);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const message = await onPhone(h, r.body.messages[0].id);
    assert.deepEqual(message.template.cards[0].header, { type: 'image', id: uploaded.id });
    assert.match(message.rendered, new RegExp(`\\[card 1\\] \\[image: ${uploaded.id}\\]`));
    const file = await fetch(`${h.base}/users/${USER}/media/${uploaded.id}`);
    assert.equal(file.status, 200);
    assert.equal(file.headers.get('content-type'), 'image/jpeg');
  });

  test('the carousel must give every card once (132000, 100)', async () => {
    await assertSendRefused(
      graphSend(h, {
        type: 'template',
        template: { name: 'autumn_picks', language: { code: 'en_US' }, components: [body] },
      }),
      132000,
      /carousel component of the template expects 3 cards, 0 given/,
    );
    await assertSendRefused(send([sendCard(0), sendCard(1)]), 132000, /expects 3 cards, 2 given/);
    await assertSendRefused(
      send([sendCard(0), sendCard(1), sendCard(3)]),
      132000,
      /'template.components\[1\].cards\[2\].card_index' 3 names no card: the template has 3/,
    );
    await assertSendRefused(
      send([sendCard(0), sendCard(1), sendCard(1)]),
      100,
      /cards\[2\].card_index' repeats card 1/,
    );
    await assertSendRefused(
      send({ 0: sendCard(0) }),
      100,
      /'template.components\[1\].cards' must be an array/,
    );
  });

  test('a card header must be one media parameter of the card’s format, by https link or id', async () => {
    const video = {
      type: 'header',
      parameters: [{ type: 'video', video: { link: 'https://cdn.example.com/v.mp4' } }],
    };
    await assertSendRefused(
      send([sendCard(0), sendCard(1, { header: video }), sendCard(2)]),
      132012,
      /'template.components\[1\].cards\[1\].components\[0\].parameters\[0\].type' must be image: card 1 has an IMAGE header/,
    );
    const none = { type: 'header', parameters: [] };
    await assertSendRefused(
      send([sendCard(0, { header: none }), sendCard(1), sendCard(2)]),
      132000,
      /card 0 header component .* expects 1 parameter, 0 given/,
    );
    const ftp = {
      type: 'header',
      parameters: [{ type: 'image', image: { link: 'ftp://cdn.example.com/a.jpg' } }],
    };
    await assertSendRefused(
      send([sendCard(0, { header: ftp }), sendCard(1), sendCard(2)]),
      131009,
      /cards\[0\].components\[0\].parameters\[0\].image.link' must be an absolute http or https URL/,
    );
  });

  test('card bodies and buttons must fit the card (132000, 132012)', async () => {
    const noValue = { type: 'body', parameters: [] };
    await assertSendRefused(
      send([sendCard(0), sendCard(1), sendCard(2, { body: noValue })]),
      132000,
      /card 2 body component .* expects 1 parameter, 0 given/,
    );
    await assertSendRefused(
      send([sendCard(0, { buttons: [] }), sendCard(1), sendCard(2)]),
      132000,
      /card 0 button 1 \(URL\) component .* expects 1 parameter, 0 given/,
    );
    const badPayload = [
      { type: 'button', sub_type: 'quick_reply', index: 0, parameters: [{ type: 'text', text: 'x' }] },
      { type: 'button', sub_type: 'url', index: 1, parameters: [{ type: 'text', text: 'scarf' }] },
    ];
    await assertSendRefused(
      send([sendCard(0, { buttons: badPayload }), sendCard(1), sendCard(2)]),
      132012,
      /cards\[0\].components\[2\].parameters\[0\]' must be a payload parameter/,
    );
    const wrongSub = [{ type: 'button', sub_type: 'quick_reply', index: 1, parameters: [] }];
    await assertSendRefused(
      send([sendCard(0), sendCard(1, { buttons: wrongSub }), sendCard(2)]),
      132012,
      /must match card 1 button 1, a URL button/,
    );
    const missing = [{ type: 'button', sub_type: 'url', index: 5, parameters: [] }];
    await assertSendRefused(
      send([sendCard(0), sendCard(1, { buttons: missing }), sendCard(2)]),
      132000,
      /names no button: the card 1 has 2/,
    );
    await assertSendRefused(
      send([sendCard(0), sendCard(1), sendCard(2)], []),
      132000,
      /The body component .* expects 1 parameter, 0 given/,
    );
    const orderSend = graphSend(h, {
      type: 'template',
      template: {
        name: 'order_ready',
        language: { code: 'en' },
        components: [{ type: 'carousel', cards: [] }],
      },
    });
    await assertSendRefused(orderSend, 132000, /is a carousel: the template has no cards/);
  });

  test('a tap on a card’s quick reply reaches the business as a button message quoting the template', async () => {
    const sent = await send([sendCard(0), sendCard(1), sendCard(2)]);
    const templateId = sent.body.messages[0].id;
    const tap = await userSays(h, { templateButton: { messageId: templateId, card: 2, index: 0 } });
    assert.equal(tap.status, 202, JSON.stringify(tap.body));
    const value = await inboundFor(h, tap.body.id);
    const message = value.messages[0];
    assert.equal(message.type, 'button');
    assert.deepEqual(message.context, { from: BUSINESS, id: templateId });
    assert.deepEqual(message.button, { payload: 'more-2', text: 'More like this' });
    assert.equal(message.from, USER);
    // The phone shows what the user sent: the button's text, quoting the template.
    const chat = await request(`${h.base}/users/${USER}/chat?with=${BUSINESS}`);
    const mine = chat.body.messages.find((m: Json) => m.id === tap.body.id);
    assert.equal(mine.direction, 'out');
    assert.equal(mine.rendered, 'More like this');
  });

  test('an ordinary template’s quick reply is tappable too; the payload defaults to the text', async () => {
    const sent = await graphSend(h, {
      type: 'template',
      template: {
        name: 'order_ready',
        language: { code: 'en' },
        components: [
          {
            type: 'button',
            sub_type: 'quick_reply',
            index: '0',
            parameters: [{ type: 'payload', payload: 'coming' }],
          },
        ],
      },
    });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    const id = sent.body.messages[0].id;
    for (const [index, payload, text] of [
      [0, 'coming', 'On my way'],
      [1, 'Tomorrow', 'Tomorrow'],
    ] as const) {
      const tap = await userSays(h, { templateButton: { index } });
      assert.equal(tap.status, 202, JSON.stringify(tap.body));
      const message = (await inboundFor(h, tap.body.id)).messages[0];
      assert.deepEqual(message.button, { payload, text });
      assert.deepEqual(message.context, { from: BUSINESS, id });
    }
    const hook = h.receiver.received.find((x) => x.body.includes('"type":"button"'));
    assert.ok(hook);
    assertSigned(hook);
  });

  test('a tap that names no quick reply is refused naming the field', async () => {
    const sent = await send([sendCard(0), sendCard(1), sendCard(2)]);
    const messageId = sent.body.messages[0].id;
    const cases: [unknown, RegExp][] = [
      [{ messageId, index: 0 }, /`templateButton.card` is required: the message is a carousel/],
      [{ messageId, card: 0, index: 1 }, /`templateButton.index`: button 1 of card 0 is a url button/],
      [{ messageId, card: 7, index: 0 }, /`templateButton.card`: the message has no card 7/],
      [{ messageId, card: 0, index: -1 }, /`templateButton.index` must be the position of a quick reply/],
      [
        { messageId: 'wamid.none', card: 0, index: 0 },
        /no template message from 14155550100 with id "wamid.none"/,
      ],
      ['tap', /`templateButton` must be an object/],
    ];
    for (const [templateButton, message] of cases) {
      const r = await userSays(h, { templateButton });
      assert.equal(r.status, 400, JSON.stringify(r.body));
      assert.match(r.body.error.message, message);
    }
  });
});
