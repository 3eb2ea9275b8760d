/**
 * The virtual phone page in a real headless Chromium against a real gateway: a new user joins the sandbox
 * by typing `join <code>`, the confirmation arrives live; buttons, a list and a location request sent
 * through the API appear live and the user answers each; the gateway receives every answer (a real local
 * webhook receiver); the ticks of the business's messages move to read. Reactions go both ways: the
 * business's shows live as a badge on the user's message, and the user's reaches the gateway. Screenshots for the docs are
 * taken along the way (docs/images/phone-desktop.png, docs/images/phone-mobile.png with
 * SWITCHBOARD_UPDATE_SCREENSHOTS=1).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_SANDBOX_NUMBER } from '../../src/config/config.ts';
import { openBrowser, type SuiteBrowser } from '../support/browser.ts';
import { createSignUpFlow, FLOWS } from '../support/flows.ts';
import {
  call,
  createAccount,
  eventually,
  receivedBy,
  startGateway,
  type TestAccount,
  type TestGateway,
} from '../support/gateway.ts';
import { type Receiver, startReceiver } from '../support/receiver.ts';
import { screenshotPath } from '../support/screenshots.ts';

const USER = '254712300099';
const SANDBOX = `+${DEFAULT_SANDBOX_NUMBER}`;
const chromium = process.env.SWITCHBOARD_CHROMIUM ?? '';

describe('the virtual phone page', {
  skip: chromium ? false : 'SWITCHBOARD_CHROMIUM is empty (no chromium installed): browser check skipped',
}, () => {
  let t: TestGateway;
  let receiver: Receiver;
  let account: TestAccount;
  let browser: SuiteBrowser;
  let page: import('playwright-core').Page;
  const errors: string[] = [];

  /** The `message.received` events of this user so far. */
  const received = () =>
    receiver.received.filter((r) => r.json?.type === 'message.received' && r.json.data.from === USER);

  async function sendApi(path: string, body: Record<string, unknown>) {
    const r = await call(t.url, 'POST', path, {
      key: account.apiKey,
      body: { from: SANDBOX, to: `+${USER}`, ...body },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.data as { messageId: string; waId: string };
  }

  /** The message element of a network id on the page. */
  const bubble = (waId: string) => page.locator(`li.message[data-id="${waId}"]`);
  /**
   * Each new status draws a message again, so a click that lands while it is being drawn again is lost:
   * controls in a message are used once it reached its last status (read).
   */
  const settled = (waId: string) =>
    eventually(async () => (await bubble(waId).getAttribute('data-status')) === 'read');

  before(async () => {
    t = await startGateway({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', SIMULATOR_STATUS_DELAY_MS: '150' } });
    receiver = await startReceiver();
    account = await createAccount(t, 'Phone Co');
    const hook = await call(t.url, 'POST', '/api/v1/webhooks', {
      key: account.apiKey,
      body: { url: receiver.url, events: ['message.received', 'message.status'] },
    });
    assert.equal(hook.status, 201, JSON.stringify(hook.body));
    browser = await openBrowser(chromium);
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      // Media links of the examples point at hosts a test machine cannot reach; that is not a page error.
      if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) errors.push(m.text());
    });
  });
  after(async () => {
    await browser?.close();
    await t?.close();
    await receiver?.close();
  });

  test('the page opens with the default numbers, labelled controls and the live stream', async () => {
    const response = await page.goto(`${t.url}/simulator/phone`);
    assert.equal(response?.status(), 200);
    assert.match(response?.headers()['content-security-policy'] ?? '', /script-src 'self'/);
    assert.equal(await page.getByLabel('Your number').inputValue(), '+254712345678');
    assert.equal(await page.getByLabel('Chat with').inputValue(), SANDBOX);
    await page.getByRole('status').filter({ hasText: 'online' }).waitFor();
    assert.equal(await page.locator('#messages').getAttribute('aria-live'), 'polite');

    // A number of the right length that no country gives out is refused at once, and not remembered.
    await page.getByLabel('Your number').fill('+44 7700 900123');
    await page.getByLabel('Your number').press('Enter');
    await page.getByText('Your number must be a phone number with its country code').waitFor();
    assert.equal(await page.evaluate(() => localStorage.getItem('switchboard.phone.user')), '+254712345678');

    // A new user: another number, opened with the keyboard.
    await page.getByLabel('Your number').fill(`+${USER}`);
    await page.getByLabel('Your number').press('Enter');
    await page.waitForURL(/user=%2B254712300099/);
    await page.getByRole('status').filter({ hasText: 'online' }).waitFor();
    assert.equal(await page.locator('li.message').count(), 0);
    assert.equal(await page.evaluate(() => localStorage.getItem('switchboard.phone.user')), `+${USER}`);
  });

  test('typing join <code> joins the sandbox; the confirmation arrives live', async () => {
    await page.getByLabel('Message', { exact: true }).fill(`join ${account.joinCode}`);
    await page.getByLabel('Message', { exact: true }).press('Enter');
    await page
      .locator('li.message.out')
      .filter({ hasText: `join ${account.joinCode}` })
      .waitFor();
    await page
      .locator('li.message.in')
      .filter({ hasText: 'You are connected to the Phone Co sandbox' })
      .waitFor();
    await eventually(
      async () =>
        (await t.gateway.repos.conversations.sandboxAccountOf(DEFAULT_SANDBOX_NUMBER, USER)) ===
        account.accountId,
    );
  });

  test('a text shows live with *bold* drawn, its link clickable and previewed', async () => {
    const sent = await sendApi('/api/v1/msg/message/text', {
      messageId: 'phone-text-1',
      message: 'Your order is *on its way*: track it at https://example.com/track/77',
    });
    await bubble(sent.waId).waitFor();
    assert.equal(await bubble(sent.waId).locator('strong').textContent(), 'on its way');
    const link = bubble(sent.waId).getByRole('link', { name: 'https://example.com/track/77' });
    assert.equal(await link.getAttribute('href'), 'https://example.com/track/77');
    assert.equal(await bubble(sent.waId).locator('.link-site').textContent(), 'example.com');
    assert.equal(await bubble(sent.waId).locator('.link-path').textContent(), '/track/77');
  });

  test('buttons sent through the API show live; a tap reaches the gateway as button_reply', async () => {
    const sent = await sendApi('/api/v1/msg/interactive/buttons', {
      messageId: 'phone-buttons-1',
      text: 'Confirm your delivery for tomorrow? Details: https://example.com/orders/77',
      buttons: [
        { id: 'confirm', title: 'Confirm' },
        { id: 'reschedule', title: 'Reschedule' },
      ],
    });
    await bubble(sent.waId).waitFor();
    const link = bubble(sent.waId).getByRole('link', { name: 'https://example.com/orders/77' });
    assert.equal(await link.getAttribute('href'), 'https://example.com/orders/77');

    const before = received().length;
    await settled(sent.waId);
    await bubble(sent.waId).getByRole('button', { name: 'Reschedule' }).click();
    const event = await eventually(() => received().slice(before)[0]);
    assert.deepEqual(event.json.data.interactive, {
      type: 'button_reply',
      id: 'reschedule',
      title: 'Reschedule',
    });
    assert.deepEqual(event.json.data.context, { messageId: sent.waId });
    // The reply shows on the phone, quoting the message it answers.
    const reply = page.locator('li.message.out').filter({ hasText: 'Reschedule' });
    await reply.waitFor();
    assert.match((await reply.locator('.quote').textContent()) ?? '', /Confirm your delivery/);

    // Ticks: the business's message ends read (blue ✓✓).
    await eventually(async () => (await bubble(sent.waId).getAttribute('data-status')) === 'read');
    const ticks = bubble(sent.waId).getByRole('img', { name: 'Read' });
    assert.equal(await ticks.textContent(), '✓✓');
    const status = await call(t.url, 'GET', '/api/v1/msg/message/phone-buttons-1', { key: account.apiKey });
    assert.equal(status.body.data.status, 'READ');
  });

  test('a list opens, a row is picked with the keyboard, and the gateway receives list_reply', async () => {
    const sent = await sendApi('/api/v1/msg/interactive/list', {
      messageId: 'phone-list-1',
      headerText: 'Menu',
      body: 'What would you like?',
      buttonText: 'See dishes',
      buttons: [
        {
          sectionTitle: 'Mains',
          sectionItems: [
            { id: 'pilau', title: 'Pilau', description: 'Spiced rice' },
            { id: 'nyama', title: 'Nyama choma' },
          ],
        },
        { sectionTitle: 'Drinks', sectionItems: [{ id: 'chai', title: 'Chai' }] },
      ],
    });
    await bubble(sent.waId).waitFor();
    await settled(sent.waId);
    await bubble(sent.waId).getByRole('button', { name: 'See dishes' }).click();
    const dialog = page.getByRole('dialog', { name: 'See dishes' });
    await dialog.waitFor();
    assert.equal(await dialog.getByRole('group', { name: 'Drinks' }).isVisible(), true);
    await dialog.getByLabel('Chai').check();
    const before = received().length;
    await dialog.getByRole('button', { name: 'Send' }).press('Enter');
    const event = await eventually(() => received().slice(before)[0]);
    assert.deepEqual(event.json.data.interactive, { type: 'list_reply', id: 'chai', title: 'Chai' });
    assert.equal(await dialog.isVisible(), false);
    await page.locator('li.message.out').filter({ hasText: 'Chai' }).waitFor();
    await eventually(async () => (await bubble(sent.waId).getAttribute('data-status')) === 'read');
  });

  test('a location request is answered with a shared location', async () => {
    const sent = await sendApi('/api/v1/msg/request_location', {
      messageId: 'phone-location-1',
      text: 'Where should we deliver your order?',
    });
    await bubble(sent.waId).waitFor();
    await settled(sent.waId);
    await bubble(sent.waId).getByRole('button', { name: 'Send location' }).click();
    const dialog = page.getByRole('dialog', { name: 'Share a location' });
    await dialog.waitFor();
    await dialog.getByLabel('Latitude').fill('-1.2864');
    await dialog.getByLabel('Longitude').fill('36.8172');
    await dialog.getByLabel('Name (optional)').fill('Office');
    const before = received().length;
    await dialog.getByRole('button', { name: 'Send location' }).click();
    const event = await eventually(() => received().slice(before)[0]);
    assert.equal(event.json.data.type, 'LOCATION');
    assert.deepEqual(event.json.data.location, {
      latitude: -1.2864,
      longitude: 36.8172,
      name: 'Office',
      address: 'Kenyatta Avenue, Nairobi',
    });
    const shared = page.locator('li.message.out').filter({ hasText: 'Office' });
    await shared.waitFor();
    assert.match(
      (await shared.getByRole('link', { name: 'Open in map' }).getAttribute('href')) ?? '',
      /openstreetmap\.org\/\?mlat=-1\.2864&mlon=36\.8172/,
    );
    await eventually(async () => (await bubble(sent.waId).getAttribute('data-status')) === 'read');
  });

  test('a flow opens on the phone, walks its screens and its completion reaches the gateway as nfm_reply', async () => {
    const flow = await createSignUpFlow(t, account.apiKey, SANDBOX);
    const published = await call(t.url, 'POST', `${FLOWS}/${flow.id}/publish`, { key: account.apiKey });
    assert.equal(published.status, 200, JSON.stringify(published.body));
    const sent = await sendApi('/api/v1/msg/interactive/flows', {
      messageId: 'phone-flow-1',
      text: 'Sign up in a minute',
      flowId: String(flow.id),
      flowCta: 'Start',
      screen: 'SIGN_UP',
    });
    await settled(sent.waId);
    await bubble(sent.waId).getByRole('button', { name: 'Start' }).click();
    const dialog = page.getByRole('dialog', { name: 'Sign up' });
    await dialog.waitFor();
    // Required inputs keep the user on the first screen.
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await dialog.getByText('Some answers are missing or invalid.').waitFor();
    await dialog.getByLabel('First name').fill('Ana');
    await dialog.getByLabel('Email').fill('ana@example.org');
    await dialog.getByLabel('Email').press('Enter');
    const second = page.getByRole('dialog', { name: 'Preferences' });
    await second.getByLabel('Plan').selectOption('pro');
    await second.getByLabel('Send me product news').check();
    const before = received().length;
    await second.getByRole('button', { name: 'Sign up' }).click();
    const event = await eventually(() => received().slice(before)[0]);
    const token = (await receivedBy(t, USER)).find((m) => m.id === sent.waId).content.interactive.action
      .parameters.flow_token;
    assert.deepEqual(event.json.data.interactive, {
      type: 'nfm_reply',
      name: 'flow',
      body: 'Sent',
      response: {
        first_name: 'Ana',
        email: 'ana@example.org',
        plan: 'pro',
        marketing: true,
        flow_token: token,
      },
    });
    assert.deepEqual(event.json.data.context, { messageId: sent.waId });
    // The sheet closes once the phone's own request is answered, which may come after the webhook.
    await second.waitFor({ state: 'hidden' });
    await page.locator('li.message.out').filter({ hasText: 'Sent' }).last().waitFor();
  });

  test("the business's reaction is a badge on the user's message, replaced and removed live", async () => {
    const before = received().length;
    await page.getByLabel('Message', { exact: true }).fill('The parcel arrived, thanks!');
    await page.getByLabel('Message', { exact: true }).press('Enter');
    const event = await eventually(() => received().slice(before)[0]);
    const mine = bubble(event.json.data.messageId);
    await mine.filter({ hasText: 'The parcel arrived, thanks!' }).waitFor();

    const react = (messageId: string, emoji: string) =>
      sendApi('/api/v1/msg/reaction', { messageId, replyTo: event.json.data.messageId, emoji });
    const thumbs = await react('phone-react-1', '👍');
    await mine.getByRole('img', { name: 'Business reacted 👍' }).waitFor();
    // The reaction is on the message, not a bubble of its own.
    assert.equal(await bubble(thumbs.waId).count(), 0);
    await react('phone-react-2', '❤️');
    await mine.getByRole('img', { name: 'Business reacted ❤️' }).waitFor();
    assert.equal(await mine.locator('.reaction').count(), 1);
    await react('phone-react-3', '');
    await mine.locator('.reactions').waitFor({ state: 'detached' });
    // A reload draws the chat from the phone's routes the same way.
    await react('phone-react-4', '🙏');
    await mine.getByRole('img', { name: 'Business reacted 🙏' }).waitFor();
    await page.reload();
    await page.getByRole('status').filter({ hasText: 'online' }).waitFor();
    await mine.getByRole('img', { name: 'Business reacted 🙏' }).waitFor();
    assert.equal(await page.locator('li.message[data-type="reaction"]').count(), 0);
  });

  test('the user reacts to a business message with the keyboard; the gateway receives REACTION', async () => {
    const sent = await sendApi('/api/v1/msg/message/text', {
      messageId: 'phone-rate-1',
      message: 'How was your delivery?',
    });
    await settled(sent.waId);
    const toggle = bubble(sent.waId).getByRole('button', { name: 'React', exact: true });
    await toggle.waitFor();
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    const row = page.getByRole('group', { name: 'Reactions' });
    const focused = () =>
      page.evaluate(
        () =>
          (globalThis as any).document.activeElement?.getAttribute('aria-label') ??
          (globalThis as any).document.activeElement?.textContent,
      );

    // Escape closes the row and gives the focus back to the React button.
    await toggle.focus();
    await page.keyboard.press('Enter');
    await row.waitFor();
    assert.equal(await focused(), 'React with 👍');
    await page.keyboard.press('Escape');
    await row.waitFor({ state: 'hidden' });
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');

    let before = received().length;
    await page.keyboard.press('Enter');
    await row.waitFor();
    await page.keyboard.press('Tab');
    assert.equal(await focused(), 'React with ❤️');
    await page.keyboard.press('Enter');
    const put = await eventually(() => received().slice(before)[0]);
    assert.equal(put.json.data.type, 'REACTION');
    assert.deepEqual(put.json.data.reaction, { message_id: sent.waId, emoji: '❤️' });
    await bubble(sent.waId).getByRole('img', { name: 'You reacted ❤️' }).waitFor();
    assert.equal(await bubble(put.json.data.messageId).count(), 0);
    // The focus is where it was, on the React button of the message redrawn with its badge.
    await eventually(async () => await toggle.evaluate((b) => b === (b as any).ownerDocument.activeElement));

    before = received().length;
    await toggle.click();
    assert.equal(
      await row.getByRole('button', { name: 'React with ❤️' }).getAttribute('aria-pressed'),
      'true',
    );
    await row.getByRole('button', { name: 'Remove reaction' }).click();
    const removed = await eventually(() => received().slice(before)[0]);
    assert.equal(removed.json.data.type, 'REACTION');
    assert.deepEqual(removed.json.data.reaction, { message_id: sent.waId, emoji: '' });
    await bubble(sent.waId).locator('.reactions').waitFor({ state: 'detached' });
    assert.deepEqual(errors, []);
  });

  test('contact cards and media render; screenshots at desktop and phone width', async () => {
    const contact = await sendApi('/api/v1/msg/contact', {
      messageId: 'phone-contact-1',
      name: { formattedName: 'Jane Doe' },
      phones: [{ phone: '+254700000000', type: 'work', waId: '254700000000' }],
    });
    await bubble(contact.waId).getByText('Jane Doe').waitFor();
    assert.equal(
      await bubble(contact.waId).getByRole('link', { name: '+254700000000' }).getAttribute('href'),
      'tel:+254700000000',
    );
    const doc = await sendApi('/api/v1/msg/media', {
      messageId: 'phone-doc-1',
      mediaType: 'DOCUMENT',
      mediaUrl: 'https://example.com/files/invoice-77.pdf',
      filename: 'invoice-77.pdf',
      caption: 'Your invoice',
    });
    const link = bubble(doc.waId).getByRole('link', { name: 'invoice-77.pdf' });
    await link.waitFor();
    assert.equal(await link.getAttribute('href'), 'https://example.com/files/invoice-77.pdf');

    // Every business message of this chat has ended read.
    await eventually(async () => {
      const statuses = await page
        .locator('li.message.in')
        .evaluateAll((items) =>
          items.map((i) => (i as unknown as { dataset: { status: string } }).dataset.status),
        );
      return statuses.length > 0 && statuses.every((s) => s === 'read');
    });
    assert.deepEqual(errors, []);

    await page.locator('#messages').evaluate((list) => {
      (list as unknown as { scrollTop: number; scrollHeight: number }).scrollTop = 0;
    });
    await page.screenshot({ path: screenshotPath('phone-desktop.png') });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.locator('#messages').evaluate((list) => {
      const l = list as unknown as { scrollTop: number; scrollHeight: number };
      l.scrollTop = l.scrollHeight;
    });
    await page.screenshot({ path: screenshotPath('phone-mobile.png') });
    // At phone width the page is the phone: no frame around it, nothing wider than the screen.
    const width = await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth);
    assert.equal(width, 390);
  });
});
