/**
 * Template messages on the virtual phone page, in a real headless Chromium against a real gateway. The
 * templates are created, reviewed and sent through the simulator's own Graph API (docs/cloud-api.md §4,
 * §1.3 template), as a business on the network would: a one-time code whose Copy code button copies it and
 * says so, a one-tap code whose Autofill button hands it to the app, and a carousel whose cards the user
 * walks with the keyboard to the last one and whose quick reply reaches the gateway as a received message.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_SANDBOX_NUMBER } from '../../src/config/config.ts';
import { openBrowser, type SuiteBrowser } from '../support/browser.ts';
import {
  call,
  createAccount,
  eventually,
  startGateway,
  type TestAccount,
  type TestGateway,
  userSays,
} from '../support/gateway.ts';
import { type Receiver, startReceiver } from '../support/receiver.ts';

const USER = '254712300077';
const chromium = process.env.SWITCHBOARD_CHROMIUM ?? '';

const app = { package_name: 'com.example.shop', signature_hash: 'K8a/AINcGX7' };
const card = {
  components: [
    { type: 'HEADER', format: 'IMAGE', example: { header_handle: ['4::aW1h'] } },
    { type: 'BODY', text: 'Now only {{1}}.', example: { body_text: [['€19']] } },
    {
      type: 'BUTTONS',
      buttons: [
        { type: 'QUICK_REPLY', text: 'More like this' },
        {
          type: 'URL',
          text: 'Buy',
          url: 'https://shop.example.com/p/{{1}}',
          example: ['https://shop.example.com/p/a'],
        },
      ],
    },
  ],
};

describe('template messages on the virtual phone page', {
  skip: chromium ? false : 'SWITCHBOARD_CHROMIUM is empty (no chromium installed): browser check skipped',
}, () => {
  let t: TestGateway;
  let receiver: Receiver;
  let account: TestAccount;
  let browser: SuiteBrowser;
  let page: import('playwright-core').Page;
  const errors: string[] = [];

  /** A call to the simulator's Graph API as the sandbox number's business. */
  async function graph(path: string, body: unknown) {
    const r = await call(t.url, 'POST', `/simulator/v23.0/${path}`, {
      body,
      headers: { authorization: `Bearer ${t.gateway.config.simulator.accessToken}` },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body;
  }

  async function approvedTemplate(body: Record<string, unknown>) {
    const created = await graph(`${DEFAULT_SANDBOX_NUMBER}/message_templates`, body);
    const decided = await call(t.url, 'POST', `/simulator/templates/${created.id}/review`, { body: {} });
    assert.equal(decided.body.status, 'APPROVED', JSON.stringify(decided.body));
  }

  async function sendTemplate(name: string, components: unknown[]): Promise<string> {
    const sent = await graph(`${DEFAULT_SANDBOX_NUMBER}/messages`, {
      messaging_product: 'whatsapp',
      to: USER,
      type: 'template',
      template: { name, language: { code: 'en' }, components },
    });
    return sent.messages[0].id;
  }

  const bubble = (id: string) => page.locator(`li.message[data-id="${id}"]`);
  const notice = (text: string) => page.getByRole('status').filter({ hasText: text });
  const received = () =>
    receiver.received.filter((r) => r.json?.type === 'message.received' && r.json.data.from === USER);

  before(async () => {
    t = await startGateway({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } });
    receiver = await startReceiver();
    account = await createAccount(t, 'Template Phone Co');
    const hook = await call(t.url, 'POST', '/api/v1/webhooks', {
      key: account.apiKey,
      body: { url: receiver.url, events: ['message.received'] },
    });
    assert.equal(hook.status, 201, JSON.stringify(hook.body));
    await userSays(t, USER, DEFAULT_SANDBOX_NUMBER, { text: `join ${account.joinCode}` });
    await eventually(
      async () =>
        (await t.gateway.repos.conversations.sandboxAccountOf(DEFAULT_SANDBOX_NUMBER, USER)) ===
        account.accountId,
    );
    const code = (name: string, button: Record<string, unknown>) =>
      approvedTemplate({
        name,
        language: 'en',
        category: 'AUTHENTICATION',
        components: [
          { type: 'BODY', add_security_recommendation: true },
          { type: 'FOOTER', code_expiration_minutes: 10 },
          { type: 'BUTTONS', buttons: [button] },
        ],
      });
    await code('login_code', { type: 'OTP', otp_type: 'COPY_CODE' });
    await code('app_code', { type: 'OTP', otp_type: 'ONE_TAP', supported_apps: [app] });
    await approvedTemplate({
      name: 'autumn_picks',
      language: 'en',
      category: 'MARKETING',
      components: [
        { type: 'BODY', text: 'Our autumn picks for you, {{1}}.', example: { body_text: [['Jane']] } },
        { type: 'CAROUSEL', cards: [card, card, card] },
      ],
    });
    browser = await openBrowser(chromium);
    const context = await browser.newContext({
      viewport: { width: 1280, height: 800 },
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      // The cards' images point at a host a test machine cannot reach; that is not a page error.
      if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) errors.push(m.text());
    });
    await page.goto(`${t.url}/simulator/phone?user=%2B${USER}&with=%2B${DEFAULT_SANDBOX_NUMBER}`);
    await page.getByRole('status').filter({ hasText: 'online' }).waitFor();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
    await receiver?.close();
  });

  test('a one-time code: Copy code copies it and says "Code copied"', async () => {
    const id = await sendTemplate('login_code', [
      { type: 'body', parameters: [{ type: 'text', text: '482913' }] },
      { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: '482913' }] },
    ]);
    await bubble(id).getByText('is your verification code').waitFor();
    assert.equal(await bubble(id).locator('strong').first().textContent(), '482913');
    assert.equal(await bubble(id).locator('.footer-text').textContent(), 'This code expires in 10 minutes.');
    await bubble(id).getByRole('button', { name: 'Copy code' }).click();
    await notice('Code copied').waitFor();
    assert.equal(await page.evaluate(() => (globalThis as any).navigator.clipboard.readText()), '482913');
  });

  test('a one-tap code: Autofill hands the code to the app, named', async () => {
    const id = await sendTemplate('app_code', [
      { type: 'body', parameters: [{ type: 'text', text: '771204' }] },
      { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: '771204' }] },
    ]);
    await bubble(id).getByRole('button', { name: 'Copy code' }).waitFor();
    await bubble(id).getByRole('button', { name: 'Autofill' }).click();
    await notice('Code handed to the app com.example.shop').waitFor();
  });

  test('a carousel: walked to its last card with the keyboard; its quick reply reaches the gateway', async () => {
    const cardParts = (i: number) => ({
      card_index: i,
      components: [
        {
          type: 'header',
          parameters: [{ type: 'image', image: { link: `https://cdn.example.com/${i}.jpg` } }],
        },
        { type: 'body', parameters: [{ type: 'text', text: `€${19 + i}` }] },
        {
          type: 'button',
          sub_type: 'quick_reply',
          index: '0',
          parameters: [{ type: 'payload', payload: `more-${i}` }],
        },
        { type: 'button', sub_type: 'url', index: '1', parameters: [{ type: 'text', text: `item-${i}` }] },
      ],
    });
    const id = await sendTemplate('autumn_picks', [
      { type: 'body', parameters: [{ type: 'text', text: 'Amina' }] },
      { type: 'carousel', cards: [cardParts(0), cardParts(1), cardParts(2)] },
    ]);
    const row = bubble(id).getByRole('region', { name: '3 cards' });
    await row.waitFor();
    await bubble(id).getByText('Our autumn picks for you, Amina.').waitFor();
    // The bubble is drawn again as its statuses arrive: a style read from the node just replaced is
    // empty, so it is read until it comes from the one on the page.
    const snap = await eventually(async () => {
      const value: string = await row.evaluate(
        (r: any) => r.ownerDocument.defaultView.getComputedStyle(r).scrollSnapType,
      );
      return value || undefined;
    });
    assert.match(snap, /x mandatory/);
    const last = row.getByRole('group', { name: 'card 3 of 3' });
    assert.equal(
      await last.getByRole('link', { name: 'Buy' }).getAttribute('href'),
      'https://shop.example.com/p/item-2',
    );
    assert.equal(await last.getByRole('link', { name: 'Buy' }).getAttribute('rel'), 'noopener noreferrer');
    assert.equal(await last.getByRole('img').getAttribute('src'), 'https://cdn.example.com/2.jpg');

    // The row takes the focus; each arrow key moves one card on.
    await row.focus();
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    assert.equal(await last.evaluate((c) => c === (c as any).ownerDocument.activeElement), true);
    await eventually(() =>
      row.evaluate((r: any) => {
        const box = r.getBoundingClientRect();
        const lastCard = r.lastElementChild.getBoundingClientRect();
        return r.scrollLeft > 0 && lastCard.right <= box.right + 1 && lastCard.left >= box.left - 1;
      }),
    );

    const before = received().length;
    await last.getByRole('button', { name: 'More like this' }).click();
    const event = await eventually(() => received().slice(before)[0]);
    assert.equal(event.json.data.type, 'BUTTON');
    assert.deepEqual(event.json.data.button, { payload: 'more-2', text: 'More like this' });
    assert.deepEqual(event.json.data.context, { messageId: id });
    const reply = page.locator('li.message.out').filter({ hasText: 'More like this' });
    await reply.waitFor();
    assert.match((await reply.locator('.quote').textContent()) ?? '', /Our autumn picks for you, Amina/);
    assert.deepEqual(errors, []);
  });
});
