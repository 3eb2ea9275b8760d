/**
 * Authentication and carousel templates end to end: created through the API (the carousel's card images
 * uploaded first), reviewed by the simulated network, listed, sent to a user who never wrote, shown on the
 * virtual phone, followed by the network's status reports (the business's `message.status` events and the
 * status lookup); and the edges of each, a 400 naming the field.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  addSimulatedNumber,
  call,
  createAccount,
  eventually,
  receivedBy,
  startGateway,
  type TestAccount,
  type TestGateway,
} from '../support/gateway.ts';
import { type Receiver, startReceiver } from '../support/receiver.ts';

const NUMBER = '14155550123';
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

describe('authentication and carousel templates', () => {
  let t: TestGateway;
  let receiver: Receiver;
  let a: TestAccount;

  const api = (method: string, route: string, body?: unknown) =>
    call(t.url, method, route, { key: a.apiKey, ...(body !== undefined ? { body } : {}) });

  /** Creates a template, has the network approve it now, and returns it as listed once the gateway knows. */
  async function approvedTemplate(body: Record<string, unknown>) {
    const created = await api('POST', `/api/v1/template/${NUMBER}`, body);
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const id = created.body.data.id;
    const decided = await call(t.url, 'POST', `/simulator/templates/${id}/review`, { body: {} });
    assert.equal(decided.status, 200, JSON.stringify(decided.body));
    return eventually(async () => {
      const list = await api('GET', `/api/v1/template/${NUMBER}?name=${body.name}`);
      const found = list.body.data.data[0];
      return found?.status === 'APPROVED' ? found : undefined;
    });
  }

  /** The template is sent, the phone shows it, and the network's reports reach the business and the lookup. */
  async function sentAndDelivered(messageId: string, to: string, template: Record<string, unknown>) {
    const sent = await api('POST', '/api/v1/msg/template', {
      messageId,
      from: `+${NUMBER}`,
      to: `+${to}`,
      template,
    });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    const [shown] = await receivedBy(t, to);
    assert.equal(shown.type, 'template');
    await eventually(() =>
      receiver.received.find(
        (r) =>
          r.json.type === 'message.status' &&
          r.json.data.messageId === messageId &&
          r.json.data.status === 'DELIVERED',
      ),
    );
    const lookup = await api('GET', `/api/v1/msg/message/${messageId}`);
    assert.equal(lookup.status, 200, JSON.stringify(lookup.body));
    assert.ok(['DELIVERED', 'READ'].includes(lookup.body.data.status), JSON.stringify(lookup.body.data));
    return shown;
  }

  before(async () => {
    t = await startGateway({
      env: {
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        SIMULATOR_TEMPLATE_REVIEW_MS: '600000',
        SIMULATOR_STATUS_DELAY_MS: '50',
      },
    });
    receiver = await startReceiver();
    a = await createAccount(t, 'Kinds Co');
    await addSimulatedNumber(t, a.accountId, NUMBER);
    const hook = await api('POST', '/api/v1/webhooks', { url: receiver.url, events: ['message.status'] });
    assert.equal(hook.status, 201, JSON.stringify(hook.body));
  });
  after(async () => {
    await t.close();
    await receiver.close();
  });

  test('an authentication template: a code with a copy-code button, to phone numbers only', async () => {
    const listed = await approvedTemplate({
      name: 'login_code',
      language: 'en_US',
      category: 'AUTHENTICATION',
      component: {
        body: { addSecurityRecommendation: true },
        footer: { codeExpirationMinutes: 10 },
        buttons: [{ type: 'OTP', otpType: 'COPY_CODE', text: 'Copy code' }],
      },
    });
    assert.deepEqual(listed.components, [
      { type: 'BODY', add_security_recommendation: true },
      { type: 'FOOTER', code_expiration_minutes: 10 },
      { type: 'BUTTONS', buttons: [{ type: 'OTP', otp_type: 'COPY_CODE', text: 'Copy code' }] },
    ]);
    const template = {
      name: 'login_code',
      language: 'en_US',
      components: { body: { placeholders: ['482913'] } },
    };
    const shown = await sentAndDelivered('otp-1', '447911100001', template);
    assert.match(
      shown.rendered,
      /\*482913\* is your verification code\. For your security, do not share this code\./,
    );
    assert.match(shown.rendered, /This code expires in 10 minutes\./);
    assert.match(shown.rendered, /\[Copy code\]/);

    const tooLong = await api('POST', '/api/v1/msg/template', {
      messageId: 'otp-2',
      from: `+${NUMBER}`,
      to: '+447911100001',
      template: { ...template, components: { body: { placeholders: ['1234567890123456'] } } },
    });
    assert.equal(tooLong.status, 400);
    assert.match(tooLong.body.message, /at most 15 characters/);
    const toUserId = await api('POST', '/api/v1/msg/template', {
      messageId: 'otp-3',
      from: `+${NUMBER}`,
      to: 'GB.13491208655302741918',
      template,
    });
    assert.equal(toUserId.status, 400, JSON.stringify(toUserId.body));
    assert.match(
      toUserId.body.message,
      /^`to`: an authentication template can only be sent to a phone number/,
    );
  });

  test('a media-card carousel: a body and swipeable cards, each with its image, text and buttons', async () => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'card.png');
    const upload = await fetch(`${t.url}/api/v1/template/upload/file`, {
      method: 'POST',
      headers: { apiKey: a.apiKey },
      body: form,
    });
    const handle = ((await upload.json()) as { data: string }).data;
    const card = (n: number) => ({
      header: { format: 'IMAGE', example: handle },
      body: { text: `Pick ${n}, now {{1}}.`, examples: ['€19'] },
      buttons: [
        { type: 'QUICK_REPLY', text: 'More like this' },
        {
          type: 'URL',
          text: 'Buy',
          url: 'https://shop.example.com/p/{{1}}',
          example: 'https://shop.example.com/p/a',
        },
      ],
    });
    const listed = await approvedTemplate({
      name: 'autumn_picks',
      language: 'en_US',
      category: 'MARKETING',
      component: {
        body: { text: 'Our autumn picks for you, {{1}}.', examples: ['Jane'] },
        cards: [card(1), card(2)],
      },
    });
    assert.deepEqual(
      listed.components.map((c: { type: string }) => c.type),
      ['BODY', 'CAROUSEL'],
    );
    assert.equal(listed.components[1].cards.length, 2);

    const sentCard = (n: number) => ({
      header: { type: 'IMAGE', mediaUrl: `https://cdn.example.com/pick-${n}.png` },
      body: { placeholders: [`€${n}9`] },
      buttons: [
        { index: 0, parameter: `more-${n}` },
        { index: 1, parameter: `pick-${n}` },
      ],
    });
    const template = {
      name: 'autumn_picks',
      language: 'en_US',
      components: { body: { placeholders: ['Amina'] }, cards: [sentCard(1), sentCard(2)] },
    };
    const shown = await sentAndDelivered('picks-1', '447911100002', template);
    assert.match(shown.rendered, /Our autumn picks for you, Amina\./);
    assert.match(shown.rendered, /Pick 1, now €19\./);
    assert.match(shown.rendered, /Pick 2, now €29\./);
    assert.match(shown.rendered, /https:\/\/shop\.example\.com\/p\/pick-2/);

    // A card's image may be a file the business uploaded for the number instead of a link.
    const file = new FormData();
    file.append('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'pick.png');
    const uploaded = await fetch(`${t.url}/api/v1/media/${NUMBER}`, {
      method: 'POST',
      headers: { apiKey: a.apiKey },
      body: file,
    });
    const mediaId = ((await uploaded.json()) as { data: { mediaId: string } }).data.mediaId;
    const byUpload = {
      ...template,
      components: {
        body: { placeholders: ['Amina'] },
        cards: [{ ...sentCard(1), header: { type: 'IMAGE', mediaId } }, sentCard(2)],
      },
    };
    const withUpload = await sentAndDelivered('picks-3', '447911100003', byUpload);
    assert.match(withUpload.rendered, /Pick 1, now €19\./);
    const wrongKind = await api('POST', '/api/v1/msg/template', {
      messageId: 'picks-4',
      from: `+${NUMBER}`,
      to: '+447911100003',
      template: {
        ...byUpload,
        components: {
          ...byUpload.components,
          cards: [{ ...sentCard(1), header: { type: 'VIDEO', mediaId } }, sentCard(2)],
        },
      },
    });
    assert.equal(wrongKind.status, 400);
    assert.match(wrongKind.body.message, /^`template\.components\.cards\[0\]\.header/);

    const oneCard = await api('POST', '/api/v1/msg/template', {
      messageId: 'picks-2',
      from: `+${NUMBER}`,
      to: '+447911100002',
      template: { ...template, components: { body: { placeholders: ['Amina'] }, cards: [sentCard(1)] } },
    });
    assert.equal(oneCard.status, 400);
    assert.match(oneCard.body.message, /^`template\.components\.cards` must hold 2 cards/);
    const oneCardTemplate = await api('POST', `/api/v1/template/${NUMBER}`, {
      name: 'one_pick',
      language: 'en_US',
      category: 'MARKETING',
      component: { body: { text: 'Just one' }, cards: [card(1)] },
    });
    assert.equal(oneCardTemplate.status, 400);
    assert.match(oneCardTemplate.body.message, /^`component\.cards` must hold 2 to 10 cards; it has 1/);
  });
});
