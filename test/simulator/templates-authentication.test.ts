/**
 * Authentication (one-time password) templates on the simulated network (docs/cloud-api.md §4.2, §4.3,
 * §1.3 template): created from Meta's body (any letter case of types), each rule refused with code 100 naming
 * the field, listed as the Graph lists them (WhatsApp's texts, the OTP button as a URL button carrying the
 * code), approved by the review, and sent with the code as body and button parameter.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
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

type Json = Record<string, unknown>;

const copyCode = { type: 'OTP', otp_type: 'COPY_CODE', text: 'Copy code' };
const app = { package_name: 'com.example.app', signature_hash: 'K8a/AINcGX7' };
const oneTap = { type: 'OTP', otp_type: 'ONE_TAP', supported_apps: [app] };

/** Meta's create body of an authentication template; `components` replaces the three, `extra` adds keys. */
function auth(overrides: { body?: Json; footer?: Json | null; button?: Json; extra?: Json } = {}) {
  const footer =
    overrides.footer === undefined ? { type: 'FOOTER', code_expiration_minutes: 10 } : overrides.footer;
  return {
    name: fresh('login_code'),
    language: 'en_US',
    category: 'AUTHENTICATION',
    message_send_ttl_seconds: 600,
    components: [
      { type: 'BODY', add_security_recommendation: true, ...overrides.body },
      ...(footer ? [footer] : []),
      { type: 'BUTTONS', buttons: [overrides.button ?? copyCode] },
    ],
    ...overrides.extra,
  };
}

const LINK = 'https://www.whatsapp.com/otp/code/';

describe('simulated authentication templates: create and list', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ templateReviewDelayMs: 600_000 });
  });
  after(() => h.close());

  const accepted = async (body: unknown) => {
    const r = await createTemplate(h, body);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(Object.keys(r.body), ['id', 'status', 'category']);
    assert.equal(r.body.category, 'AUTHENTICATION');
  };
  const refused = (body: unknown, details: RegExp) => assertCreateRefused(h, body, details);

  test("Meta's body is accepted, in any letter case of its types", async () => {
    await accepted(auth());
    await accepted({
      ...auth(),
      components: [
        { type: 'body', add_security_recommendation: false },
        { type: 'footer', code_expiration_minutes: 1 },
        { type: 'buttons', buttons: [{ type: 'otp', otp_type: 'copy_code' }] },
      ],
    });
    await accepted(auth({ footer: null, extra: { message_send_ttl_seconds: undefined } }));
    await accepted(auth({ button: { ...oneTap, otp_type: 'one_tap', autofill_text: 'Fill in' } }));
  });

  test('the listing is the Graph’s: WhatsApp’s texts, the OTP button as a URL carrying the code', async () => {
    const { id, template } = await createReviewed(h, {
      name: 'explore_flow_otp',
      language: 'en',
      category: 'AUTHENTICATION',
      message_send_ttl_seconds: 600,
      components: [
        { type: 'BODY', add_security_recommendation: true },
        { type: 'FOOTER', code_expiration_minutes: 10 },
        { type: 'BUTTONS', buttons: [copyCode] },
      ],
    });
    assert.equal(template.status, 'APPROVED', 'the review approves WhatsApp’s own texts');
    // As the Graph answers a real one (its id aside), plus the rejected_reason every listing here has.
    const real = JSON.parse(
      '{"name":"explore_flow_otp","message_send_ttl_seconds":600,"parameter_format":"POSITIONAL","components":[{"type":"BODY","text":"*{{1}}* is your verification code. For your security, do not share this code.","add_security_recommendation":true,"example":{"body_text":[["123456"]]}},{"type":"FOOTER","text":"This code expires in 10 minutes.","code_expiration_minutes":10},{"type":"BUTTONS","buttons":[{"type":"URL","text":"Copy code","url":"https://www.whatsapp.com/otp/code/?otp_type=COPY_CODE&code_expiration_minutes=10&code=otp{{1}}","example":["https://www.whatsapp.com/otp/code/?otp_type=COPY_CODE&code_expiration_minutes=10&code=otp123456"]}]}],"language":"en","status":"APPROVED","category":"AUTHENTICATION"}',
    );
    const listed = await request(`${h.base}/${VERSION}/${BUSINESS}/message_templates?name=explore_flow_otp`, {
      token: TOKEN,
    });
    assert.deepEqual(listed.body.data, [{ ...real, id, rejected_reason: 'NONE' }]);
    const byId = await request(`${h.base}/${VERSION}/${id}`, { token: TOKEN });
    assert.deepEqual(byId.body, { ...real, id, rejected_reason: 'NONE' });
  });

  test('without the recommendation and the expiry: the short body, no FOOTER, no expiry in the URL', async () => {
    const body = auth({ body: { add_security_recommendation: undefined }, footer: null });
    const { template } = await createReviewed(h, { ...body, message_send_ttl_seconds: undefined });
    assert.equal(template.status, 'APPROVED');
    assert.equal(template.message_send_ttl_seconds, undefined);
    const url = `${LINK}?otp_type=COPY_CODE&code=otp{{1}}`;
    assert.deepEqual(template.components, [
      {
        type: 'BODY',
        text: '*{{1}}* is your verification code.',
        example: { body_text: [['123456']] },
      },
      {
        type: 'BUTTONS',
        buttons: [{ type: 'URL', text: 'Copy code', url, example: [url.replace('{{1}}', '123456')] }],
      },
    ]);
  });

  test('ONE_TAP lists its autofill text, its apps, and the first app in the URL', async () => {
    const second = { package_name: 'com.example.other', signature_hash: 'AbCdEfGhIj=' };
    const { template } = await createReviewed(
      h,
      auth({ button: { ...oneTap, supported_apps: [app, second] } }),
    );
    const url = `${LINK}?otp_type=ONE_TAP&package_name=com.example.app&signature_hash=K8a/AINcGX7&code_expiration_minutes=10&code=otp{{1}}`;
    assert.deepEqual(template.components[2], {
      type: 'BUTTONS',
      buttons: [
        {
          type: 'URL',
          text: 'Copy code',
          autofill_text: 'Autofill',
          url,
          example: [url.replace('{{1}}', '123456')],
          supported_apps: [app, second],
        },
      ],
    });
    // The older form: package_name and signature_hash on the button itself, listed as given.
    const older = await createReviewed(h, auth({ button: { type: 'OTP', otp_type: 'ONE_TAP', ...app } }));
    const button = older.template.components[2].buttons[0];
    assert.equal(button.package_name, 'com.example.app');
    assert.equal(button.signature_hash, 'K8a/AINcGX7');
    assert.equal(button.url, url);
  });

  test('no HEADER; the BODY and FOOTER carry no text of their own', async () => {
    const withHeader = auth();
    withHeader.components.unshift({ type: 'HEADER', format: 'TEXT', text: 'Code' } as never);
    await refused(withHeader, /'components\[0\].type' HEADER is not allowed in an AUTHENTICATION template/);
    await refused(auth({ body: { text: 'Your code is {{1}}' } }), /'components.BODY.text' is not allowed/);
    await refused(
      auth({ body: { add_security_recommendation: 'yes' } }),
      /'components.BODY.add_security_recommendation' must be true or false/,
    );
    await refused(
      auth({ footer: { type: 'FOOTER', text: 'Expires soon' } }),
      /'components.FOOTER.text' is not allowed/,
    );
    await refused(
      auth({ footer: { type: 'FOOTER' } }),
      /'components.FOOTER.code_expiration_minutes' is required/,
    );
  });

  test('code_expiration_minutes is a whole number from 1 to 90', async () => {
    const minutes = (n: unknown) => auth({ footer: { type: 'FOOTER', code_expiration_minutes: n } });
    await accepted(minutes(90));
    for (const n of [0, 91, 1.5, '10']) {
      await refused(
        minutes(n),
        /'components.FOOTER.code_expiration_minutes' must be a whole number from 1 to 90/,
      );
    }
  });

  test('exactly one BUTTONS component with exactly one OTP button', async () => {
    const noButtons = auth();
    noButtons.components.pop();
    await refused(noButtons, /'components' must include a BUTTONS component/);
    const two = auth();
    (two.components[2] as { buttons: unknown[] }).buttons.push(copyCode);
    await refused(two, /'components.BUTTONS.buttons' must hold exactly one OTP button \(got 2\)/);
    await refused(
      auth({ button: { type: 'QUICK_REPLY', text: 'Resend' } }),
      /'components.BUTTONS.buttons\[0\].type' must be OTP in an AUTHENTICATION template/,
    );
    await refused(
      auth({ button: { ...copyCode, url: 'https://x.com' } }),
      /'components.BUTTONS.buttons\[0\].url' is not for an OTP button/,
    );
  });

  test('otp_type COPY_CODE or ONE_TAP; ZERO_TAP is not simulated', async () => {
    await refused(
      auth({ button: { type: 'OTP' } }),
      /'components.BUTTONS.buttons\[0\].otp_type' must be one of/,
    );
    await refused(
      auth({ button: { type: 'OTP', otp_type: 'ZERO_TAP', supported_apps: [app] } }),
      /'components.BUTTONS.buttons\[0\].otp_type' ZERO_TAP is not simulated/,
    );
    await refused(
      auth({ button: { ...copyCode, supported_apps: [app] } }),
      /'components.BUTTONS.buttons\[0\].supported_apps' is only for a ONE_TAP button/,
    );
  });

  test('button texts at most 25 characters', async () => {
    await accepted(auth({ button: { ...copyCode, text: 't'.repeat(25) } }));
    await assertCreateRefused(
      h,
      auth({ button: { ...copyCode, text: 't'.repeat(26) } }),
      /'components.BUTTONS.buttons\[0\].text' must be at most 25 characters/,
      2388040,
    );
    await assertCreateRefused(
      h,
      auth({ button: { ...oneTap, autofill_text: 'a'.repeat(26) } }),
      /'components.BUTTONS.buttons\[0\].autofill_text' must be at most 25 characters/,
      2388040,
    );
  });

  test('supported_apps: 1 to 5 Android apps, each with its 11-character signature hash', async () => {
    const apps = (list: unknown) => auth({ button: { ...oneTap, supported_apps: list } });
    const field = /'components.BUTTONS.buttons\[0\].supported_apps'/;
    await accepted(apps(Array.from({ length: 5 }, () => app)));
    await refused(apps([]), field);
    await refused(apps(Array.from({ length: 6 }, () => app)), /must name 1 to 5 apps \(got 6\)/);
    await refused(auth({ button: { type: 'OTP', otp_type: 'ONE_TAP' } }), /supported_apps' is required/);
    await refused(
      apps([{ ...app, package_name: 'example' }]),
      /supported_apps\[0\].package_name' must be an Android package name/,
    );
    await refused(
      apps([{ ...app, package_name: '1com.example' }]),
      /package_name' must be an Android package name/,
    );
    const long = `com.${'a'.repeat(221)}`;
    await assertCreateRefused(
      h,
      apps([{ ...app, package_name: long }]),
      /package_name' must be at most 224/,
      2388040,
    );
    await refused(
      apps([{ ...app, signature_hash: 'K8a/AINcGX' }]),
      /supported_apps\[0\].signature_hash' must be the app's 11-character/,
    );
    await refused(
      apps([{ ...app, signature_hash: 'K8a-AINcGX7' }]),
      /signature_hash' must be the app's 11-character/,
    );
    await refused(
      auth({ button: { ...oneTap, ...app } }),
      /'components.BUTTONS.buttons\[0\].supported_apps' and the older package_name/,
    );
  });

  test('message_send_ttl_seconds: 30 to 900 seconds, for authentication templates only', async () => {
    await accepted(auth({ extra: { message_send_ttl_seconds: 30 } }));
    await accepted(auth({ extra: { message_send_ttl_seconds: 900 } }));
    for (const ttl of [29, 901, 60.5, -1]) {
      await refused(
        auth({ extra: { message_send_ttl_seconds: ttl } }),
        /'message_send_ttl_seconds' must be a whole number from 30 to 900/,
      );
    }
    await refused(
      {
        name: fresh('promo'),
        language: 'en',
        category: 'MARKETING',
        message_send_ttl_seconds: 600,
        components: [{ type: 'BODY', text: 'Our sale starts today.' }],
      },
      /'message_send_ttl_seconds' is simulated for AUTHENTICATION templates only/,
    );
  });

  test('an edit may change the send TTL; the category cannot become AUTHENTICATION without components', async () => {
    const { id } = await createReviewed(h, auth());
    const edited = await request(`${h.base}/${VERSION}/${id}`, {
      body: { message_send_ttl_seconds: 300 },
      token: TOKEN,
    });
    assert.deepEqual(edited.body, { success: true });
    const read = await request(`${h.base}/${VERSION}/${id}`, { token: TOKEN });
    assert.equal(read.body.message_send_ttl_seconds, 300);
    assert.equal(read.body.status, 'PENDING');
    const promo = await createReviewed(h, {
      name: fresh('promo'),
      language: 'en',
      category: 'MARKETING',
      components: [
        {
          type: 'BODY',
          text: 'Two variables {{1}}{{2}} next to each other here.',
          example: { body_text: [['x', 'y']] },
        },
      ],
    });
    assert.equal(promo.template.status, 'REJECTED');
    const toAuth = await request(`${h.base}/${VERSION}/${promo.id}`, {
      body: { category: 'AUTHENTICATION' },
      token: TOKEN,
    });
    assert.equal(toAuth.body.error.code, 100);
    assert.match(toAuth.body.error.error_user_msg, /'components' are required to change the category/);
  });

  test('an OTP button outside AUTHENTICATION is refused', async () => {
    await refused(
      {
        name: fresh('promo'),
        language: 'en',
        category: 'MARKETING',
        components: [
          { type: 'BODY', text: 'Your code is below, thanks.' },
          { type: 'BUTTONS', buttons: [copyCode] },
        ],
      },
      /'components.BUTTONS.buttons\[0\].type' OTP is for AUTHENTICATION templates only/,
    );
  });
});

describe('simulated authentication templates: sends', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ templateReviewDelayMs: 600_000 });
    await createReviewed(h, { ...auth(), name: 'login_code' });
    await createReviewed(h, { ...auth({ button: oneTap, footer: null }), name: 'app_code' });
  });
  after(() => h.close());

  const body = (code: unknown) => ({ type: 'body', parameters: [{ type: 'text', text: code }] });
  const button = (code: unknown, extra: Json = {}) => ({
    type: 'button',
    sub_type: 'url',
    index: '0',
    parameters: [{ type: 'text', text: code }],
    ...extra,
  });
  const send = (components: unknown[], name = 'login_code', to: Json = { to: USER }) =>
    graphSend(h, { type: 'template', ...to, template: { name, language: { code: 'en_US' }, components } });

  test('the code as body and button parameter: shown on the phone, with its Copy code button', async () => {
    const r = await send([body('123456'), button('123456')]);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const message = await onPhone(h, r.body.messages[0].id);
    assert.equal(
      message.rendered,
      '*123456* is your verification code. For your security, do not share this code.\n_This code expires in 10 minutes._\n[Copy code]',
    );
    assert.deepEqual(message.template, {
      body: '*123456* is your verification code. For your security, do not share this code.',
      footer: 'This code expires in 10 minutes.',
      buttons: [{ type: 'otp', index: 0, otp_type: 'COPY_CODE', text: 'Copy code', code: '123456' }],
    });
  });

  test('a ONE_TAP code also offers Autofill, naming the app', async () => {
    const r = await send([body('K7-42'), { ...button('K7-42'), index: 0 }], 'app_code');
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const message = await onPhone(h, r.body.messages[0].id);
    assert.equal(
      message.rendered,
      '*K7-42* is your verification code. For your security, do not share this code.\n[Copy code] [Autofill]',
    );
    assert.deepEqual(message.template.buttons, [
      {
        type: 'otp',
        index: 0,
        otp_type: 'ONE_TAP',
        text: 'Copy code',
        code: 'K7-42',
        autofill_text: 'Autofill',
        package_name: 'com.example.app',
      },
    ]);
  });

  test('missing or extra parameters are 132000', async () => {
    await assertSendRefused(
      send([button('123456')]),
      132000,
      /body component .* expects 1 parameter, 0 given/,
    );
    await assertSendRefused(
      send([body('123456')]),
      132000,
      /button 0 \(OTP\) component .* expects 1 parameter, 0 given/,
    );
    const twice = {
      type: 'body',
      parameters: [
        { type: 'text', text: '1' },
        { type: 'text', text: '2' },
      ],
    };
    await assertSendRefused(
      send([twice, button('1')]),
      132000,
      /body component .* expects 1 parameter, 2 given/,
    );
    await assertSendRefused(
      send([body('123456'), { ...button('123456'), parameters: [] }]),
      132000,
      /button 0 \(OTP\) component .* expects 1 parameter, 0 given/,
    );
    await assertSendRefused(
      send([body('123456'), button('123456'), { ...button('123456'), index: '1' }]),
      132000,
      /second button component/,
    );
    await assertSendRefused(
      send([body('123456'), button('123456', { index: '1' })]),
      132000,
      /names no button/,
    );
    await assertSendRefused(
      send([{ type: 'header', parameters: [{ type: 'text', text: 'x' }] }, body('1'), button('1')]),
      132000,
      /header component .* expects 0 parameters, 1 given/,
    );
  });

  test('a code over 15 characters, or a button code that differs, is refused naming the parameter', async () => {
    const ok = await send([body('x'.repeat(15)), button('x'.repeat(15))]);
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    await assertSendRefused(
      send([body('x'.repeat(16)), button('x'.repeat(16))]),
      132008,
      /'template.components\[0\].parameters\[0\].text' is the one-time code: at most 15 characters \(got 16\)/,
    );
    await assertSendRefused(
      send([body('123456'), button('654321')]),
      132008,
      /'template.components\[1\].parameters\[0\].text' must be the body's code/,
    );
    await assertSendRefused(
      send([body('123456'), button('123456', { sub_type: 'copy_code' })]),
      132012,
      /'template.components\[1\].sub_type' must be url/,
    );
    await assertSendRefused(
      send([
        { type: 'body', parameters: [{ type: 'currency', currency: { fallback_value: '1' } }] },
        button('1'),
      ]),
      132012,
      /parameters\[0\].type' must be text/,
    );
  });

  test('a recipient named by business-scoped user id is refused: authentication needs the phone number', async () => {
    // The user writes first: the business learns the user's id from that message's webhook.
    const said = await userSays(h, { text: 'hi' });
    const userId = (await inboundFor(h, said.body.id)).contacts[0].user_id;
    assert.match(String(userId), /^KE\.\d{20}$/);
    const refusedSend = send([body('123456'), button('123456')], 'login_code', {
      to: undefined,
      recipient: userId,
    });
    await assertSendRefused(
      refusedSend,
      131062,
      /authentication templates need the user's phone number in 'to'/,
    );
    // The same user by number, and another template by user id, are fine.
    assert.equal((await send([body('123456'), button('123456')])).status, 200);
  });
});
