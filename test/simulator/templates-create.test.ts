/**
 * The create rules of simulated templates (docs/cloud-api.md §4.2, §4.3), each at its edge: accepted at the limit,
 * refused past it with a Graph error (HTTP 400, code 100, a 2388xxx subcode where Meta has one) naming the
 * field.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { BUSINESS, type Harness, request, startHarness, TOKEN, VERSION } from './harness.ts';

let counter = 0;
/** A fresh name per template, so the cases never collide on name + language. */
const fresh = (prefix: string) => `${prefix}_${++counter}`;

type Component = Record<string, unknown>;

function template(components: Component[], overrides: Record<string, unknown> = {}) {
  return {
    name: fresh('edge'),
    language: 'en',
    category: 'MARKETING',
    components: [{ type: 'BODY', text: 'Thanks for shopping with us today.' }, ...components],
    ...overrides,
  };
}

const quickReplies = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ type: 'QUICK_REPLY', text: `Reply ${i}` }));
const urlButtons = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ type: 'URL', text: `Link ${i}`, url: `https://x.com/${i}` }));
const buttons = (list: unknown[]) => ({ type: 'BUTTONS', buttons: list });

describe('simulated templates: create rules at their edges', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ templateReviewDelayMs: 60_000 });
  });
  after(() => h.close());

  const create = (body: unknown, waba = BUSINESS, token: string | null = TOKEN) =>
    request(`${h.base}/${VERSION}/${waba}/message_templates`, { body, token });

  async function accepted(body: unknown) {
    const r = await create(body);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.status, 'PENDING');
  }

  async function refused(body: unknown, details: RegExp, subcode?: number) {
    const r = await create(body);
    assert.equal(r.status, 400, JSON.stringify(r.body));
    assert.equal(r.body.error.code, 100);
    assert.equal(r.body.error.type, 'OAuthException');
    assert.equal(r.body.error.error_subcode, subcode);
    // Meta words a template refusal for people only (`error_user_msg`), with no `error_data`.
    assert.match(r.body.error.error_user_msg, details);
    assert.equal(r.body.error.error_data, undefined);
    return r.body.error;
  }

  test('name: 512 characters accepted, 513 refused (2388040); only lowercase, digits and _', async () => {
    await accepted(template([], { name: 'a'.repeat(511) + String(++counter % 10) }));
    await refused(template([], { name: 'b'.repeat(513) }), /'name' must be at most 512 characters/, 2388040);
    await refused(template([], { name: 'Order-Update' }), /'name' may hold only lowercase letters/);
  });

  test('language: one of Meta’s codes; category: MARKETING, UTILITY or AUTHENTICATION', async () => {
    await accepted(template([], { language: 'pt_BR' }));
    await refused(template([], { language: 'en-US' }), /'language' must be a template language code/);
    await refused(
      template([], { category: 'PROMO' }),
      /'category' must be one of MARKETING, UTILITY, AUTHENTICATION/,
    );
    // An authentication template has WhatsApp's texts (templates-authentication.test.ts): no body text.
    await refused(
      template([], { category: 'AUTHENTICATION' }),
      /'components.BODY.text' is not allowed in an AUTHENTICATION template/,
    );
    await refused(template([], { parameter_format: 'NAMED' }), /'parameter_format' must be POSITIONAL/);
  });

  test('header text: 60 characters accepted, 61 refused (2388040)', async () => {
    await accepted(template([{ type: 'HEADER', format: 'TEXT', text: 'h'.repeat(60) }]));
    await refused(
      template([{ type: 'HEADER', format: 'TEXT', text: 'h'.repeat(61) }]),
      /'components.HEADER.text' must be at most 60 characters \(got 61\)/,
      2388040,
    );
  });

  test('header text: one variable with its example; two variables, or none shown, refused (2388047)', async () => {
    const header = (text: string, example?: unknown) => ({ type: 'HEADER', format: 'TEXT', text, example });
    await accepted(template([header('Order {{1}}', { header_text: ['#1'] })]));
    await refused(
      template([header('Order {{1}} {{2}}', { header_text: ['#1'] })]),
      /may hold one variable/,
      2388047,
    );
    await refused(template([header('Order {{1}}')]), /'components.HEADER.example' must be an object/);
    await refused(template([header('*Order*')]), /one plain line/, 2388047);
  });

  test('media header: one non-empty handle of at most 512 characters; location needs none', async () => {
    const media = (handles: unknown[]) => ({
      type: 'HEADER',
      format: 'VIDEO',
      example: { header_handle: handles },
    });
    await accepted(template([media(['x'.repeat(512)])]));
    await refused(template([media(['x'.repeat(513)])]), /header_handle\[0\]' must be at most 512/, 2388040);
    await refused(template([media([])]), /must hold exactly one media handle/);
    await accepted(template([{ type: 'HEADER', format: 'LOCATION' }]));
  });

  test('body: required, 1024 characters accepted, 1025 refused (2388040)', async () => {
    await accepted(template([], { components: [{ type: 'BODY', text: 'b'.repeat(1024) }] }));
    await refused(
      template([], { components: [{ type: 'BODY', text: 'b'.repeat(1025) }] }),
      /'components.BODY.text' must be at most 1024 characters \(got 1025\)/,
      2388040,
    );
    await refused(
      template([], { components: [{ type: 'FOOTER', text: 'only a footer' }] }),
      /must include a BODY/,
    );
  });

  test('body variables: numbered 1..n in order, one example each (2388047)', async () => {
    const body = (text: string, examples?: string[]) => ({
      type: 'BODY',
      text,
      ...(examples ? { example: { body_text: [examples] } } : {}),
    });
    await accepted(template([], { components: [body('Hi {{1}}, you owe {{2}} today.', ['Jane', '$5'])] }));
    await refused(
      template([], { components: [body('Hi {{2}}, you owe {{1}} today.', ['a', 'b'])] }),
      /uses \{\{2\}\} before \{\{1\}\}/,
      2388047,
    );
    await refused(
      template([], { components: [body('Hi {{1}}, you owe {{3}} today.', ['a', 'b'])] }),
      /uses \{\{3\}\} before \{\{2\}\}/,
      2388047,
    );
    await refused(
      template([], { components: [body('Hi {{1}}, you owe {{2}} today.', ['a'])] }),
      /one example per body variable \(2 expected\)/,
      2388047,
    );
    await refused(
      template([], { components: [body('Hi {{name}}, welcome.', ['a'])] }),
      /malformed variable "\{\{name\}\}"/,
      2388047,
    );
  });

  test('footer: 60 characters accepted, 61 refused (2388040); no variables (2388073)', async () => {
    await accepted(template([{ type: 'FOOTER', text: 'f'.repeat(60) }]));
    await refused(
      template([{ type: 'FOOTER', text: 'f'.repeat(61) }]),
      /FOOTER.text' must be at most 60/,
      2388040,
    );
    await refused(template([{ type: 'FOOTER', text: 'Code {{1}}' }]), /may not contain variables/, 2388073);
  });

  test('buttons: 10 in all accepted, 11 refused', async () => {
    await accepted(template([buttons([...quickReplies(8), ...urlButtons(2)])]));
    await refused(
      template([buttons([...quickReplies(9), ...urlButtons(2)])]),
      /must hold 1 to 10 buttons \(got 11\)/,
    );
  });

  test('buttons per type: QUICK_REPLY 10, URL 2, PHONE_NUMBER 1, COPY_CODE 1', async () => {
    await accepted(template([buttons(quickReplies(10))]));
    await refused(template([buttons(urlButtons(3))]), /at most 2 URL buttons \(got 3\)/);
    const phone = (n: number) => ({ type: 'PHONE_NUMBER', text: `Call ${n}`, phone_number: '14155550199' });
    await accepted(template([buttons([phone(1)])]));
    await refused(template([buttons([phone(1), phone(2)])]), /at most 1 PHONE_NUMBER button \(got 2\)/);
    const copy = { type: 'COPY_CODE', example: 'SAVE25' };
    await accepted(template([buttons([copy])]));
    await refused(template([buttons([copy, copy])]), /at most 1 COPY_CODE button \(got 2\)/);
    await refused(
      template([buttons([copy])], { category: 'UTILITY' }),
      /COPY_CODE is for MARKETING templates only/,
    );
    await refused(
      template([buttons([{ type: 'COPY_CODE', example: 'x'.repeat(16) }])]),
      /at most 15/,
      2388040,
    );
  });

  test('quick replies must be grouped, all before or all after the other buttons', async () => {
    await accepted(template([buttons([...urlButtons(1), ...quickReplies(2)])]));
    await refused(
      template([buttons([...quickReplies(1), ...urlButtons(1), { type: 'QUICK_REPLY', text: 'Again' }])]),
      /must group the QUICK_REPLY buttons together/,
    );
  });

  test('button text: 25 characters accepted, 26 refused (2388040)', async () => {
    await accepted(template([buttons([{ type: 'QUICK_REPLY', text: 't'.repeat(25) }])]));
    await refused(
      template([buttons([{ type: 'QUICK_REPLY', text: 't'.repeat(26) }])]),
      /buttons\[0\].text' must be at most 25 characters/,
      2388040,
    );
  });

  test('URL: at most 2000 characters; one variable, {{1}}, at its very end, with an example', async () => {
    const url = (value: string, example?: unknown) =>
      buttons([{ type: 'URL', text: 'Open', url: value, example }]);
    const base = 'https://x.com/';
    await accepted(template([url(base + 'p'.repeat(2000 - base.length))]));
    await refused(
      template([url(base + 'p'.repeat(2001 - base.length))]),
      /url' must be at most 2000/,
      2388040,
    );
    await accepted(template([url(`${base}o/{{1}}`, [`${base}o/42`])]));
    await refused(
      template([url(`${base}{{1}}/track`, [`${base}1/track`])]),
      /one variable, \{\{1\}\}, and only at its very end/,
    );
    await refused(template([url(`${base}{{1}}{{2}}`, [`${base}12`])]), /one variable/);
    await refused(template([url(`${base}o/{{1}}`)]), /example' must be an array/);
    await refused(template([url('ftp://x.com/file')]), /absolute http or https URL/);
  });

  test('same name and language refused (2388024); the same name in another language accepted', async () => {
    const name = fresh('greeting');
    await accepted(template([], { name }));
    const error = await refused(template([], { name }), /Content in this language already exists/, 2388024);
    assert.equal(error.error_user_title, 'Content in this language already exists');
    await accepted(template([], { name, language: 'fr' }));
  });

  test('an id that is no number’s WABA is an unknown object; a wrong token is 401', async () => {
    const r = await create(template([]), '102290129340398');
    assert.equal(r.status, 400);
    assert.equal(r.body.error.code, 100);
    assert.equal(r.body.error.error_subcode, 33);
    const unauthorised = await create(template([]), BUSINESS, 'nope');
    assert.equal(unauthorised.status, 401);
    assert.equal(unauthorised.body.error.code, 190);
    const badVersion = await request(`${h.base}/23.0/${BUSINESS}/message_templates`, {
      body: template([]),
      token: TOKEN,
    });
    assert.equal(badVersion.body.error.code, 2500);
  });
});
