/**
 * Authentication and carousel templates in the gateway's domain, with an in-memory templates store: the
 * create rules (src/domain/templates/check-template.ts), the send's fit to the approved template
 * (resolve-template-send.ts) and the network body it becomes (messages/send-template.ts).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { GatewayError } from '../../src/domain/errors.ts';
import { sendTemplate } from '../../src/domain/messages/send-template.ts';
import type { OutboundMedia } from '../../src/domain/ports/outbound-media.ts';
import type { Template, TemplatesStore } from '../../src/domain/ports/templates.ts';
import { checkTemplate } from '../../src/domain/templates/check-template.ts';
import { resolveTemplateSend } from '../../src/domain/templates/resolve-template-send.ts';
import type { TemplateBodyInput, TemplateComponentsInput } from '../../src/domain/templates/template-body.ts';

const PHONE = '+254712345678';
const USER_ID = 'KE.13491208655302741918';

const create = (
  category: string,
  component: TemplateComponentsInput,
  name = 'kind_test',
): TemplateBodyInput => ({
  name,
  language: 'en_US',
  category,
  component,
});

/** The field a create body is refused on. */
function refusedField(body: TemplateBodyInput): string | undefined {
  try {
    checkTemplate(body, { nameMaxLength: 512 });
    return undefined;
  } catch (error) {
    assert.ok(error instanceof GatewayError, String(error));
    assert.equal(error.code, 'invalid_request');
    return error.field;
  }
}

const copyCode = { type: 'OTP', otpType: 'COPY_CODE', text: 'Copy code' };
const oneTap = {
  type: 'OTP',
  otpType: 'ONE_TAP',
  autofillText: 'Autofill',
  supportedApps: [{ packageName: 'com.example.shop', signatureHash: 'K8a/AINcGX7' }],
};

const card = (n: number, extra: Record<string, unknown> = {}) => ({
  header: { format: 'IMAGE', example: `handle-${n}` },
  body: { text: `Card ${n} costs {{1}}.`, examples: ['€19'] },
  buttons: [
    { type: 'QUICK_REPLY', text: 'More like this' },
    {
      type: 'URL',
      text: 'Buy',
      url: 'https://shop.example.com/p/{{1}}',
      example: 'https://shop.example.com/p/a',
    },
  ],
  ...extra,
});

describe('creating an authentication template', () => {
  test('the network writes the texts: only the recommendation, the expiry and one OTP button are chosen', () => {
    const definition = checkTemplate(
      create('AUTHENTICATION', {
        body: { addSecurityRecommendation: true },
        footer: { codeExpirationMinutes: 10 },
        buttons: [copyCode],
      }),
      { nameMaxLength: 512 },
    );
    assert.deepEqual(definition.components, [
      { type: 'BODY', add_security_recommendation: true },
      { type: 'FOOTER', code_expiration_minutes: 10 },
      { type: 'BUTTONS', buttons: [{ type: 'OTP', otp_type: 'COPY_CODE', text: 'Copy code' }] },
    ]);
    const tap = checkTemplate(create('AUTHENTICATION', { buttons: [oneTap] }), { nameMaxLength: 512 });
    assert.deepEqual(tap.components[1], {
      type: 'BUTTONS',
      buttons: [
        {
          type: 'OTP',
          otp_type: 'ONE_TAP',
          autofill_text: 'Autofill',
          supported_apps: [{ package_name: 'com.example.shop', signature_hash: 'K8a/AINcGX7' }],
        },
      ],
    });
  });

  test('each rule is a 400 on its field', () => {
    const cases: [TemplateComponentsInput, string][] = [
      [{ body: { text: 'Your code is {{1}}' }, buttons: [copyCode] }, 'component.body.text'],
      [{ header: { format: 'TEXT', text: 'Code' }, buttons: [copyCode] }, 'component.header'],
      [{ footer: { text: 'Expires soon' }, buttons: [copyCode] }, 'component.footer.text'],
      [
        { footer: { codeExpirationMinutes: 91 }, buttons: [copyCode] },
        'component.footer.codeExpirationMinutes',
      ],
      [
        { footer: { codeExpirationMinutes: 0 }, buttons: [copyCode] },
        'component.footer.codeExpirationMinutes',
      ],
      [{}, 'component.buttons'],
      [{ buttons: [copyCode, copyCode] }, 'component.buttons'],
      [{ buttons: [{ type: 'QUICK_REPLY', text: 'Hi' }] }, 'component.buttons[0].type'],
      [{ buttons: [{ type: 'OTP' }] }, 'component.buttons[0].otpType'],
      [{ buttons: [{ type: 'OTP', otpType: 'ZERO_TAP' }] }, 'component.buttons[0].otpType'],
      [{ buttons: [{ ...copyCode, text: 'x'.repeat(26) }] }, 'component.buttons[0].text'],
      [{ buttons: [{ ...copyCode, autofillText: 'Fill' }] }, 'component.buttons[0].autofillText'],
      [{ buttons: [{ ...oneTap, supportedApps: [] }] }, 'component.buttons[0].supportedApps'],
      [
        { buttons: [{ ...oneTap, supportedApps: [{ packageName: 'shop', signatureHash: 'K8a/AINcGX7' }] }] },
        'component.buttons[0].supportedApps[0].packageName',
      ],
      [
        {
          buttons: [
            { ...oneTap, supportedApps: [{ packageName: 'com.example.shop', signatureHash: 'short' }] },
          ],
        },
        'component.buttons[0].supportedApps[0].signatureHash',
      ],
    ];
    for (const [component, field] of cases) {
      assert.equal(refusedField(create('AUTHENTICATION', component)), field, JSON.stringify(component));
    }
  });

  test('the authentication-only fields and the OTP button are refused on other categories', () => {
    const body = { text: 'Hello' };
    assert.equal(
      refusedField(create('UTILITY', { body: { ...body, addSecurityRecommendation: true } })),
      'component.body.addSecurityRecommendation',
    );
    assert.equal(
      refusedField(create('UTILITY', { body, footer: { codeExpirationMinutes: 5 } })),
      'component.footer.codeExpirationMinutes',
    );
    assert.equal(
      refusedField(create('MARKETING', { body, buttons: [copyCode] })),
      'component.buttons[0].type',
    );
  });
});

describe('creating a carousel template', () => {
  test('a body and 2 to 10 cards become BODY and CAROUSEL, each card with its own components', () => {
    const definition = checkTemplate(
      create('MARKETING', {
        body: { text: 'Our picks for you, {{1}}.', examples: ['Jane'] },
        cards: [card(1), card(2)],
      }),
      { nameMaxLength: 512 },
    );
    assert.equal(definition.components.length, 2);
    assert.deepEqual(definition.components[1]?.type, 'CAROUSEL');
    const cards = definition.components[1]?.cards as { components: { type: string }[] }[];
    assert.deepEqual(
      cards.map((c) => c.components.map((x) => x.type)),
      [
        ['HEADER', 'BODY', 'BUTTONS'],
        ['HEADER', 'BODY', 'BUTTONS'],
      ],
    );
    assert.deepEqual(
      definition.mediaHandles.map((m) => m.field),
      ['component.cards[0].header.example', 'component.cards[1].header.example'],
    );
  });

  test('each rule is a 400 on its field, inside the card it concerns', () => {
    const body = { text: 'Our picks' };
    const cases: [string, TemplateComponentsInput, string][] = [
      ['UTILITY', { body, cards: [card(1), card(2)] }, 'component.cards'],
      ['MARKETING', { body, cards: [card(1)] }, 'component.cards'],
      ['MARKETING', { body, cards: Array.from({ length: 11 }, (_, i) => card(i)) }, 'component.cards'],
      ['MARKETING', { body, footer: { text: 'x' }, cards: [card(1), card(2)] }, 'component.footer'],
      ['MARKETING', { cards: [card(1), card(2)] }, 'component.body.text'],
      [
        'MARKETING',
        { body, cards: [card(1), card(2, { header: { format: 'DOCUMENT', example: 'h' } })] },
        'component.cards[1].header.format',
      ],
      [
        'MARKETING',
        { body, cards: [card(1), card(2, { body: { text: 'x'.repeat(161) } })] },
        'component.cards[1].body.text',
      ],
      [
        'MARKETING',
        { body, cards: [card(1), card(2, { body: { text: 'a\nb\nc\nd' } })] },
        'component.cards[1].body.text',
      ],
      [
        'MARKETING',
        { body, cards: [card(1), card(2, { buttons: [{ type: 'QUICK_REPLY', text: 'More' }] })] },
        'component.cards[1]',
      ],
      [
        'MARKETING',
        {
          body,
          cards: [
            card(1),
            card(2, { buttons: [1, 2, 3].map((n) => ({ type: 'QUICK_REPLY', text: `B${n}` })) }),
          ],
        },
        'component.cards[1].buttons',
      ],
      [
        'MARKETING',
        { body, cards: [card(1), card(2, { header: { format: 'VIDEO', example: 'h' } })] },
        'component.cards[1]',
      ],
    ];
    for (const [category, component, field] of cases) {
      assert.equal(refusedField(create(category, component)), field, JSON.stringify(component).slice(0, 120));
    }
  });
});

/** A store holding one approved template made from `body`. */
function storeWith(body: TemplateBodyInput): TemplatesStore {
  const definition = checkTemplate(body, { nameMaxLength: 512 });
  const row: Template = {
    id: '8000000000000001',
    accountId: 'acc_1',
    phone: '14155550100',
    name: body.name,
    networkName: body.name,
    language: body.language,
    category: definition.category,
    status: 'APPROVED',
    rejectedReason: 'NONE',
    rejectionInfo: null,
    qualityScore: '{"score":"UNKNOWN","date":"0"}',
    components: JSON.stringify(definition.components),
    editTimes: '[]',
    createdAt: 0,
    updatedAt: 0,
  };
  return {
    findByName: async (accountId: string, phone: string, name: string, language: string) =>
      accountId === row.accountId && phone === row.phone && name === row.name && language === row.language
        ? row
        : undefined,
  } as unknown as TemplatesStore;
}

/** Uploads of the account: an image for the sending number, a video, and an image of another number. */
const UPLOADS = new Map<string, OutboundMedia>(
  [
    ['upl_00000000000000000000000001', '14155550100', 'IMAGE', '9100000000000001'],
    ['upl_00000000000000000000000002', '14155550100', 'VIDEO', '9100000000000002'],
    ['upl_00000000000000000000000003', '14155550199', 'IMAGE', '9100000000000003'],
  ].map(([id, phone, mediaType, networkMediaId]) => [
    id as string,
    {
      id: id as string,
      accountId: 'acc_1',
      phone: phone as string,
      networkMediaId: networkMediaId as string,
      mediaType: mediaType as string,
      mimeType: mediaType === 'IMAGE' ? 'image/png' : 'video/mp4',
      size: 10,
      createdAt: 0,
    },
  ]),
);
const uploads = {
  findOutboundMedia: async (accountId: string, id: string) =>
    accountId === 'acc_1' ? UPLOADS.get(id) : undefined,
};

async function sendBody(store: TemplatesStore, components: unknown, to = PHONE) {
  const checked = sendTemplate.normalize({
    messageId: 'm-1',
    from: '+14155550100',
    to,
    template: { name: 'kind_test', language: 'en_US', components } as never,
  });
  if (!checked.ok) throw new GatewayError('invalid_request', checked.message, { field: checked.field });
  const context = await resolveTemplateSend(
    { templates: store, uploads, optOuts: { find: async () => undefined } },
    'acc_1',
    '14155550100',
    checked.value,
    to,
  );
  return sendTemplate.toCloud(checked.value, context);
}

async function sendRefusal(store: TemplatesStore, components: unknown, to = PHONE) {
  try {
    await sendBody(store, components, to);
    return undefined;
  } catch (error) {
    assert.ok(error instanceof GatewayError, String(error));
    return error.field;
  }
}

describe('sending an authentication template', () => {
  const store = storeWith(
    create('AUTHENTICATION', { footer: { codeExpirationMinutes: 5 }, buttons: [copyCode] }),
  );

  test('the code is the body value and the gateway repeats it in the OTP button', async () => {
    const cloud = await sendBody(store, { body: { placeholders: ['482913'] } });
    assert.deepEqual((cloud.template as { components: unknown }).components, [
      { type: 'body', parameters: [{ type: 'text', text: '482913' }] },
      { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: '482913' }] },
    ]);
  });

  test('a missing or long code, another button code, or a user id as recipient is a 400 on its field', async () => {
    assert.equal(await sendRefusal(store, {}), 'template.components.body.placeholders');
    assert.equal(
      await sendRefusal(store, { body: { placeholders: ['1', '2'] } }),
      'template.components.body.placeholders',
    );
    assert.equal(
      await sendRefusal(store, { body: { placeholders: ['1234567890123456'] } }),
      'template.components.body.placeholders[0]',
    );
    assert.equal(
      await sendRefusal(store, {
        body: { placeholders: ['482913'] },
        buttons: [{ index: 0, parameter: '000000' }],
      }),
      'template.components.buttons',
    );
    assert.equal(await sendRefusal(store, { body: { placeholders: ['482913'] } }, USER_ID), 'to');
  });
});

describe('sending a carousel template', () => {
  const store = storeWith(
    create('MARKETING', {
      body: { text: 'Our picks, {{1}}.', examples: ['Jane'] },
      cards: [card(1), card(2)],
    }),
  );
  const sent = (payload?: string) => ({
    header: { type: 'IMAGE', mediaUrl: 'https://cdn.example.com/a.jpg' },
    body: { placeholders: ['€19'] },
    buttons: [...(payload ? [{ index: 0, parameter: payload }] : []), { index: 1, parameter: 'scarf' }],
  });

  test('each card becomes a carousel card with its media, values, payload and URL suffix', async () => {
    const cloud = await sendBody(store, {
      body: { placeholders: ['Jane'] },
      cards: [sent('more-1'), sent()],
    });
    const components = (cloud.template as { components: Record<string, unknown>[] }).components;
    assert.deepEqual(components[0], { type: 'body', parameters: [{ type: 'text', text: 'Jane' }] });
    assert.deepEqual(components[1], {
      type: 'carousel',
      cards: [
        {
          card_index: 0,
          components: [
            {
              type: 'header',
              parameters: [{ type: 'image', image: { link: 'https://cdn.example.com/a.jpg' } }],
            },
            { type: 'body', parameters: [{ type: 'text', text: '€19' }] },
            {
              type: 'button',
              sub_type: 'quick_reply',
              index: '0',
              parameters: [{ type: 'payload', payload: 'more-1' }],
            },
            { type: 'button', sub_type: 'url', index: '1', parameters: [{ type: 'text', text: 'scarf' }] },
          ],
        },
        {
          card_index: 1,
          components: [
            {
              type: 'header',
              parameters: [{ type: 'image', image: { link: 'https://cdn.example.com/a.jpg' } }],
            },
            { type: 'body', parameters: [{ type: 'text', text: '€19' }] },
            { type: 'button', sub_type: 'url', index: '1', parameters: [{ type: 'text', text: 'scarf' }] },
          ],
        },
      ],
    });
  });

  test('cards that do not fit the template are a 400 naming the card', async () => {
    const body = { placeholders: ['Jane'] };
    const video = { ...sent(), header: { type: 'VIDEO', mediaUrl: 'https://cdn.example.com/a.mp4' } };
    const cases: [unknown, string][] = [
      [{ body }, 'template.components.cards'],
      [{ body, cards: [sent()] }, 'template.components.cards'],
      [{ body, cards: [sent(), video] }, 'template.components.cards[1].header.type'],
      [
        { body, cards: [sent(), { ...sent(), body: { placeholders: [] } }] },
        'template.components.cards[1].body.placeholders',
      ],
      [{ body, cards: [sent(), { ...sent(), buttons: [] }] }, 'template.components.cards[1].buttons'],
      [
        {
          body,
          cards: [
            sent(),
            {
              ...sent(),
              buttons: [
                { index: 1, parameter: 'a' },
                { index: 2, parameter: 'b' },
              ],
            },
          ],
        },
        'template.components.cards[1].buttons',
      ],
      [
        {
          body,
          cards: [sent(), { ...sent(), header: { type: 'IMAGE', mediaUrl: 'http://cdn.example.com/a.jpg' } }],
        },
        'template.components.cards[1].header.mediaUrl',
      ],
    ];
    for (const [components, field] of cases) {
      assert.equal(await sendRefusal(store, components), field, JSON.stringify(components).slice(0, 140));
    }
  });

  test("a card's media may be an upload of the sending number, sent by the network's id", async () => {
    const byUpload = (mediaId: string, type = 'IMAGE') => ({ ...sent(), header: { type, mediaId } });
    const cloud = await sendBody(store, {
      body: { placeholders: ['Jane'] },
      cards: [byUpload('upl_00000000000000000000000001'), sent()],
    });
    const carousel = (cloud.template as { components: { cards?: { components: unknown[] }[] }[] })
      .components[1];
    assert.deepEqual(carousel?.cards?.[0]?.components[0], {
      type: 'header',
      parameters: [{ type: 'image', image: { id: '9100000000000001' } }],
    });
    const body = { placeholders: ['Jane'] };
    const refusals: [unknown, string, RegExp][] = [
      [
        byUpload('upl_00000000000000000000000009'),
        'template.components.cards[0].header.mediaId',
        /no uploaded media/,
      ],
      [
        byUpload('upl_00000000000000000000000003'),
        'template.components.cards[0].header.mediaId',
        /uploaded for \+14155550199/,
      ],
      [
        byUpload('upl_00000000000000000000000002'),
        'template.components.cards[0].header.mediaId',
        /is video\/mp4/,
      ],
      [byUpload('photo.png'), 'template.components.cards[0].header.mediaId', /id of an upload/],
      [
        {
          ...sent(),
          header: {
            type: 'IMAGE',
            mediaUrl: 'https://a.example/x.png',
            mediaId: 'upl_00000000000000000000000001',
          },
        },
        'template.components.cards[0].header.mediaId',
        /not both/,
      ],
    ];
    for (const [first, field, message] of refusals) {
      try {
        await sendBody(store, { body, cards: [first, sent()] });
        assert.fail(`accepted ${JSON.stringify(first)}`);
      } catch (error) {
        assert.ok(error instanceof GatewayError, String(error));
        assert.equal(error.field, field);
        assert.match(error.message, message);
      }
    }
  });

  test("a template's own media header may be an upload too", async () => {
    const withImage = storeWith(
      create('MARKETING', {
        header: { format: 'IMAGE', example: 'handle-1' },
        body: { text: 'Hello there' },
      }),
    );
    const cloud = await sendBody(withImage, {
      header: { type: 'IMAGE', mediaId: 'upl_00000000000000000000000001' },
    });
    assert.deepEqual((cloud.template as { components: unknown[] }).components[0], {
      type: 'header',
      parameters: [{ type: 'image', image: { id: '9100000000000001' } }],
    });
    const other = await sendRefusal(withImage, {
      header: { type: 'IMAGE', mediaId: 'upl_00000000000000000000000003' },
    });
    assert.equal(other, 'template.components.header.mediaId');
  });

  test('cards are refused for a template that is not a carousel', async () => {
    const plain = storeWith(create('MARKETING', { body: { text: 'Hello there' } }));
    assert.equal(await sendRefusal(plain, { cards: [sent(), sent()] }), 'template.components.cards');
  });
});
