/**
 * The inbox in a real headless Chromium (docs/inbox.md): a customer writes to the account's number, sends
 * a photo and a location and completes a flow, all through the simulator's phone over HTTP; the owner
 * sees the conversation with its unread count, opens it and finds each message drawn as what it is (the
 * flow's answers as a labelled table, the photo from the gateway's copy, the location with a map link);
 * a new message appears while the thread is open (server-sent events, no reload); a reply inside the
 * window reaches the phone, and so does a file chosen on the computer; once the window has closed, the reply box offers the number's approved
 * template, which is sent with its values. A member invited as agent opens the inbox and is refused keys
 * and webhooks. Phone width is checked and screenshots are saved (docs/images/ with
 * SWITCHBOARD_UPDATE_SCREENSHOTS=1).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { seriousViolations } from '../support/axe.ts';
import { openBrowser, type SuiteBrowser } from '../support/browser.ts';
import { createSignUpFlow, FLOWS } from '../support/flows.ts';
import {
  addSimulatedNumber,
  call,
  eventually,
  portalAccount,
  receivedBy,
  startGateway,
  type TestGateway,
  userSays,
} from '../support/gateway.ts';
import { screenshotPath } from '../support/screenshots.ts';

const chromium = process.env.SWITCHBOARD_CHROMIUM ?? '';
const skip = chromium
  ? false
  : 'SWITCHBOARD_CHROMIUM is empty (no chromium installed): browser check skipped';
const NUMBER = '14155550177';
const USER = '254712300451';
const EMAIL = 'owner@cornershop.example';
const PASSWORD = 'a long enough password';
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 375, height: 812 };
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

const overflow = (page: any): Promise<number> =>
  page.evaluate(() => {
    const root = (globalThis as any).document.documentElement;
    return root.scrollWidth - root.clientWidth;
  });

describe('the inbox in a browser', { skip }, () => {
  let t: TestGateway;
  let browser: SuiteBrowser;
  let page: any;
  let key = '';
  const errors: string[] = [];
  const shot = (name: string) => ({ path: screenshotPath(name), fullPage: true });

  /** The account the browser signed up, with a number, an approved template and a published flow. */
  async function prepareAccount(): Promise<void> {
    const account = await portalAccount(t, EMAIL);
    key = account.apiKey;
    await addSimulatedNumber(t, account.accountId, NUMBER);
    const template = await call(t.url, 'POST', `/api/v1/template/${NUMBER}`, {
      key,
      body: {
        name: 'order_update',
        language: 'en',
        category: 'UTILITY',
        component: {
          body: { text: 'Hi {{1}}, order {{2}} is on its way.', examples: ['Jane', 'A-100'] },
          buttons: [
            {
              type: 'URL',
              text: 'Track',
              url: 'https://shop.example.com/t/{{1}}',
              example: 'https://shop.example.com/t/A1',
            },
          ],
        },
      },
    });
    assert.equal(template.status, 200, JSON.stringify(template.body));
    await eventually(async () => {
      const list = await call(t.url, 'GET', `/api/v1/template/${NUMBER}`, { key });
      return list.body.data.data[0]?.status === 'APPROVED';
    });
  }

  /** The gateway has published `count` of the customer's messages into their conversation. */
  async function published(count: number): Promise<void> {
    await eventually(async () => {
      const row = await t.gateway.store.db
        .selectFrom('inbox_conversations')
        .select('unread')
        .where('user_phone', '=', USER)
        .executeTakeFirst();
      return Number(row?.unread) === count;
    });
  }

  /**
   * The customer writes, sends a photo and a location, and completes the flow the business sent. Each
   * step waits for the gateway to publish the one before: the network dates messages to the second only,
   * and the thread's order within a second is the order the gateway handled them in.
   */
  async function customerWrites(): Promise<void> {
    await userSays(t, USER, `+${NUMBER}`, { text: 'Hello, where is my order?' });
    await published(1);
    await userSays(t, USER, `+${NUMBER}`, {
      media: {
        type: 'image',
        mimeType: 'image/png',
        dataBase64: PNG.toString('base64'),
        caption: 'my receipt',
      },
    });
    await published(2);
    await userSays(t, USER, `+${NUMBER}`, {
      location: { latitude: -1.2921, longitude: 36.8219, name: 'Home', address: 'Moi Avenue, Nairobi' },
    });
    await published(3);
    const flow = await createSignUpFlow(t, key, `+${NUMBER}`);
    const publishedFlow = await call(t.url, 'POST', `${FLOWS}/${flow.id}/publish`, { key });
    assert.equal(publishedFlow.status, 200, JSON.stringify(publishedFlow.body));
    const sent = await call(t.url, 'POST', '/api/v1/msg/interactive/flows', {
      key,
      body: {
        messageId: 'inbox-flow-1',
        from: `+${NUMBER}`,
        to: `+${USER}`,
        text: 'Tell us about you',
        flowId: String(flow.id),
        flowCta: 'Start',
        screen: 'SIGN_UP',
      },
    });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    const onPhone = (await receivedBy(t, USER)).find((m) => m.id === sent.body.data.waId);
    const flowToken = onPhone.content.interactive.action.parameters.flow_token;
    await userSays(t, USER, `+${NUMBER}`, {
      flowReply: { flowToken, response: { first_name: 'Ana', email: 'ana@example.org', plan: 'pro' } },
    });
    await published(4);
  }

  before(async () => {
    t = await startGateway();
    browser = await openBrowser(chromium);
    // bypassCSP: axe (test/support/axe.ts) is injected as a script.
    const context = await browser.newContext({
      viewport: DESKTOP,
      timezoneId: 'Africa/Nairobi',
      bypassCSP: true,
    });
    page = await context.newPage();
    page.on('pageerror', (e: Error) => errors.push(e.message));
    await page.goto(`${t.url}/app/sign-up`);
    await page.getByLabel('Business name').fill('Corner Shop');
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: /Create/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    await prepareAccount();
    await customerWrites();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  test('the conversation is listed with its unread messages, and its thread shows each kind of message', async () => {
    const nav = page.getByRole('navigation', { name: 'Portal' });
    await nav.getByRole('link', { name: 'Inbox' }).click();
    await page.getByRole('heading', { level: 1, name: 'Inbox' }).waitFor();
    // The navigation counts what is unread on every page, in words for screen readers.
    await nav.getByRole('link', { name: /^Inbox\s+4 unread$/ }).waitFor();
    const row = page.getByRole('row', { name: new RegExp(`\\+${USER}`) });
    assert.match(await row.textContent(), /Flow answers/);
    await row.getByLabel('4 unread').waitFor();
    // A new message while the list is open: the row and the menu's count follow without a reload.
    await userSays(t, USER, `+${NUMBER}`, { text: 'One more thing' });
    await row.getByLabel('5 unread').waitFor();
    await nav.getByRole('link', { name: /^Inbox\s+5 unread$/ }).waitFor();
    assert.deepEqual(await seriousViolations(page), []);
    await page.screenshot(shot('portal-inbox.png'));

    await row.getByRole('link').click();
    await page.getByRole('heading', { level: 1, name: new RegExp(`\\+${USER}`) }).waitFor();
    const thread = page.getByRole('list', { name: 'Messages, oldest first' });
    await thread.getByText('Hello, where is my order?').waitFor();
    // The photo, from the gateway's copy, which the browser loads (its size is the PNG's).
    const photo = thread.getByRole('img', { name: 'my receipt' });
    await photo.waitFor();
    assert.equal(await photo.evaluate((img: any) => img.complete && img.naturalWidth), 1);
    const map = thread.getByRole('link', { name: /Open on a map/ });
    assert.match(await map.getAttribute('href'), /openstreetmap\.org\/\?mlat=-1\.2921&mlon=36\.8219/);
    await thread.getByText('Moi Avenue, Nairobi').waitFor();
    // The flow's answers as a labelled table; its token is not an answer.
    const answers = thread.getByRole('table', { name: 'Answers to the flow' });
    assert.equal(
      await answers
        .getByRole('row', { name: /First name/ })
        .getByRole('cell')
        .textContent(),
      'Ana',
    );
    assert.equal(await answers.getByRole('row', { name: /Plan/ }).getByRole('cell').textContent(), 'pro');
    assert.equal(await answers.getByText(/flow.token/i).count(), 0);
    // The flow message the business sent, with its status as ticks.
    await thread.getByText('Tell us about you', { exact: true }).waitFor();
    // In the order they happened, though the network dates them to the second only.
    const order = await thread
      .locator('li.bubble')
      .evaluateAll((items: any[]) => items.map((li) => li.querySelector('.text, .kind')?.textContent));
    assert.deepEqual(order, [
      'Hello, where is my order?',
      'Photo',
      'Location',
      'Tell us about you',
      'Flow answers',
      'One more thing',
    ]);
    // Opened: nothing unread any more, in the navigation as in the store.
    await nav.getByRole('link', { name: 'Inbox', exact: true }).waitFor();
    const unread = await t.gateway.store.db
      .selectFrom('inbox_conversations')
      .select('unread')
      .executeTakeFirst();
    assert.equal(Number(unread?.unread), 0);
    assert.deepEqual(await seriousViolations(page), []);
  });

  test('a message the customer sends while the thread is open appears without a reload', async () => {
    const before = await page.evaluate(
      () => (globalThis as any).performance.getEntriesByType('navigation').length,
    );
    await userSays(t, USER, `+${NUMBER}`, { text: 'Are you still there?' });
    await page
      .getByRole('list', { name: 'Messages, oldest first' })
      .getByText('Are you still there?')
      .waitFor();
    const navigations = await page.evaluate(
      () => (globalThis as any).performance.getEntriesByType('navigation').length,
    );
    assert.equal(navigations, before, 'the page was not loaded again');
  });

  test('a reply inside the window reaches the phone and shows in the thread with its ticks', async () => {
    await page.getByText(/Open for \d+ h/).waitFor();
    // A refused reply comes back on the form's own address: the page still follows the conversation.
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.waitForURL(/\/reply$/);
    await userSays(t, USER, `+${NUMBER}`, { text: 'Hello again?' });
    await page.getByRole('list', { name: 'Messages, oldest first' }).getByText('Hello again?').waitFor();
    await page.getByRole('textbox', { name: 'Message' }).fill('Yes! It leaves the shop today.');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByText('Your reply was sent').waitFor();
    const onPhone = await eventually(async () =>
      (await receivedBy(t, USER)).find((m) => m.content.text?.body === 'Yes! It leaves the shop today.'),
    );
    assert.equal(onPhone.from, NUMBER);
    const bubble = page.locator('li.bubble.out', { hasText: 'Yes! It leaves the shop today.' });
    await bubble.locator('.ticks').waitFor();
    // The reply names the member who sent it; the flow the business sent through the API does not.
    assert.equal(await bubble.locator('.who').textContent(), EMAIL);
    const fromApi = page.locator('li.bubble.out', { hasText: 'Tell us about you' });
    assert.equal(await fromApi.locator('.who').textContent(), 'You');
    await page.screenshot(shot('portal-inbox-thread.png'));
  });

  test('a file chosen on the computer is uploaded for the number and sent inside the window', async () => {
    await page.getByText('Send a file').click();
    await page.getByLabel('Kind of file').selectOption('IMAGE');
    await page
      .getByLabel('File from this computer')
      .setInputFiles({ name: 'map.png', mimeType: 'image/png', buffer: PNG });
    await page.getByLabel('Caption (optional)').fill('How to find us');
    await page.getByRole('button', { name: 'Send the file' }).click();
    await page.getByText('Your reply was sent').waitFor();
    const onPhone = await eventually(async () =>
      (await receivedBy(t, USER)).find((m) => m.content.image?.caption === 'How to find us'),
    );
    assert.match(onPhone.content.image.id, /\S/, 'sent by the id of the upload, not by a link');
    assert.equal(onPhone.content.image.link, undefined);
    await page.locator('li.bubble.out', { hasText: 'How to find us' }).waitFor();
  });

  test('a saved reply is put in the message and sent; a note for the team appears for others without a reload', async () => {
    const conversation = page.url();
    await page.getByRole('link', { name: 'Saved replies' }).click();
    await page.getByLabel('Shortcut').fill('hours');
    await page.getByRole('textbox', { name: 'Text' }).fill('We are open from 9 to 18, Monday to Saturday.');
    await page.getByRole('button', { name: 'Add' }).click();
    await page.getByText('The saved reply was added').waitFor();
    await page.goto(conversation);
    // What was typed stays: the saved reply goes where the cursor is.
    const message = page.getByRole('textbox', { name: 'Message' });
    await message.fill('Hello! ');
    await page.getByLabel('Saved reply').selectOption({ label: 'hours' });
    await page.getByRole('button', { name: 'Put in the message' }).click();
    await page.waitForFunction(() =>
      (globalThis as any).document.querySelector('#f-message')?.value.includes('We are open'),
    );
    assert.equal(await message.inputValue(), 'Hello! We are open from 9 to 18, Monday to Saturday.');
    await message.fill(`${(await message.inputValue()).slice('Hello! '.length)} See you!`);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByText('Your reply was sent').waitFor();
    await eventually(async () =>
      (await receivedBy(t, USER)).find(
        (m) => m.content.text?.body === 'We are open from 9 to 18, Monday to Saturday. See you!',
      ),
    );

    await page.getByLabel('Add a note for the team').fill('Told her our opening hours.');
    await page.getByRole('button', { name: 'Add the note' }).click();
    await page.getByText('The note was added').waitFor();
    const notes = page.getByRole('list', { name: 'Notes, oldest first' });
    await notes.getByText('Told her our opening hours.').waitFor();
    // A note another member writes (stored here as their node would) appears without a reload.
    const before = await page.evaluate(
      () => (globalThis as any).performance.getEntriesByType('navigation').length,
    );
    const row = await t.gateway.store.db
      .selectFrom('inbox_conversations')
      .select(['id', 'account_id'])
      .where('user_phone', '=', USER)
      .executeTakeFirstOrThrow();
    await t.gateway.store.db
      .insertInto('inbox_notes')
      .values({
        id: 'nte_from_another_member',
        account_id: row.account_id,
        conversation_id: row.id,
        author_id: 'usr_not_a_member',
        text: 'She called back: all good.',
        created_at: Date.now(),
      })
      .execute();
    await notes.getByText('She called back: all good.').waitFor();
    assert.equal(
      await page.evaluate(() => (globalThis as any).performance.getEntriesByType('navigation').length),
      before,
      'the page was not loaded again',
    );
    assert.equal(await notes.locator('li.note .who').last().textContent(), 'A former member');
    assert.ok(
      (await receivedBy(t, USER)).every((m) => !JSON.stringify(m.content).includes('opening hours')),
      'a note never reaches the customer',
    );
    await page.screenshot(shot('portal-inbox-tools.png'));
  });

  test('outside the window the reply box offers the approved template, which is sent with its values', async () => {
    // A day and more since the customer last wrote.
    const dayAgo = Date.now() - 25 * 60 * 60 * 1000;
    await t.gateway.store.db
      .updateTable('conversation_windows')
      .set({ last_inbound_at: dayAgo })
      .where('user_phone', '=', USER)
      .execute();
    await page.reload();
    await page.getByText('only an approved template can be sent').waitFor();
    assert.equal(await page.getByRole('textbox', { name: 'Message' }).count(), 0);
    await page.getByLabel('Approved template').selectOption({ label: 'order_update · en' });
    await page.getByRole('button', { name: 'Choose' }).click();
    await page.getByLabel('Value of {{1}}').fill('Ana');
    await page.getByLabel('Value of {{2}}').fill('B-204');
    // The link button's value is asked for too: without it, the send is refused with words that say so.
    await page.getByRole('button', { name: 'Send the template' }).click();
    await page.getByText('Enter the end of the link of the button "Track"').waitFor();
    await page.getByLabel('End of the link of the button "Track"').fill('B-204');
    await page.getByRole('button', { name: 'Send the template' }).click();
    await page.getByText('Your reply was sent').waitFor();
    const onPhone = await eventually(async () =>
      (await receivedBy(t, USER)).find((m) => m.content.type === 'template'),
    );
    const parts = onPhone.content.template.components;
    const values = parts[0].parameters.map((p: any) => p.text);
    assert.deepEqual(values, ['Ana', 'B-204']);
    assert.deepEqual(parts[1], {
      type: 'button',
      sub_type: 'url',
      index: '0',
      parameters: [{ type: 'text', text: 'B-204' }],
    });
    await page.locator('li.bubble.out', { hasText: 'order_update' }).waitFor();

    // A text is refused by the pipeline with the network's rule in words, not sent.
    const refused = await page.request.post(`${t.url}${new URL(page.url()).pathname}/reply`, {
      form: { kind: 'text', message: 'hello?', messageId: 'inbox-late-1', _csrf: await csrfOf(page) },
    });
    assert.equal(refused.status(), 422);
    assert.match(await refused.text(), /24 hours/);

    // The customer writes again: the window opens, and the reply box offers a message without a reload.
    const before = await page.evaluate(
      () => (globalThis as any).performance.getEntriesByType('navigation').length,
    );
    await userSays(t, USER, `+${NUMBER}`, { text: 'Still there?' });
    await page.getByRole('textbox', { name: 'Message' }).waitFor();
    assert.equal(
      await page.evaluate(() => (globalThis as any).performance.getEntriesByType('navigation').length),
      before,
      'the page was not loaded again',
    );
  });

  test('at phone width the thread fits the screen', async () => {
    await page.setViewportSize(PHONE);
    await page.reload();
    assert.ok((await overflow(page)) <= 1, 'no sideways scrolling');
    assert.deepEqual(await seriousViolations(page), []);
    await page.setViewportSize(DESKTOP);
  });

  test('a member invited as agent works in the inbox and cannot open keys or webhooks', async () => {
    await page.goto(`${t.url}/app/team`);
    await page.getByLabel('Their email (optional)').fill('agent@cornershop.example');
    await page.getByLabel('Role').selectOption('agent');
    await page.getByRole('button', { name: 'Make the link' }).click();
    const link = (await page.locator('.copyable code').first().textContent()) ?? '';
    const agent = await (await browser.newContext({ viewport: DESKTOP })).newPage();
    await agent.goto(link.replace(/^https?:\/\/[^/]+/, t.url));
    await agent.getByLabel('Password').fill('the agent password here');
    await agent.getByRole('button', { name: 'Set password' }).click();
    await agent.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    const nav = agent.getByRole('navigation', { name: 'Portal' });
    await nav.getByRole('link', { name: 'Inbox' }).click();
    await agent
      .getByRole('row', { name: new RegExp(`\\+${USER}`) })
      .getByRole('link')
      .click();
    await agent.getByText('Hello, where is my order?').waitFor();
    assert.equal(await nav.getByRole('link', { name: 'Settings' }).count(), 0);
    assert.equal(await nav.getByRole('link', { name: 'Webhooks' }).count(), 0);
    for (const path of ['/app/settings', '/app/webhooks']) {
      const response = await agent.goto(`${t.url}${path}`);
      assert.equal(response?.status(), 403, path);
    }
    // The agent takes the conversation; the owner's list shows it as theirs.
    await agent.goBack();
    await agent.goto(`${t.url}/app/inbox?state=all&who=anyone`);
    await agent
      .getByRole('row', { name: new RegExp(`\\+${USER}`) })
      .getByRole('link')
      .click();
    await agent.getByLabel('Assigned to').selectOption({ label: 'agent@cornershop.example (me)' });
    await agent.getByRole('button', { name: 'Assign' }).click();
    await agent.getByText('The conversation was assigned.').waitFor();
    await page.goto(`${t.url}/app/inbox`);
    const row = page.getByRole('row', { name: new RegExp(`\\+${USER}`) });
    assert.match(await row.textContent(), /agent@cornershop\.example/);
    // The owner closes it: the agent's open page shows its new state and the button that reopens it.
    await row.getByRole('link').click();
    await page.getByRole('button', { name: 'Close the conversation' }).click();
    await agent.getByRole('button', { name: 'Reopen the conversation' }).waitFor();
    assert.deepEqual(errors, []);
  });
});

/** The CSRF token of the signed-in page (the portal's forms carry it). */
async function csrfOf(page: any): Promise<string> {
  return (await page.locator('input[name="_csrf"]').first().getAttribute('value')) ?? '';
}
