/**
 * A new user's first ten minutes, in a real headless Chromium with two tabs: the portal and the virtual
 * phone. Sign up → create a key → read the join code → the phone sends `join <code>` → buttons sent with
 * the key over HTTP show on the phone → a tap → the portal's message log shows the reply. Then the
 * refusals: a wrong password, a revoked key, and a second account that sees none of the first one's data.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_SANDBOX_NUMBER } from '../../src/config/config.ts';
import { openBrowser, type SuiteBrowser } from '../support/browser.ts';
import { call, eventually, startGateway, type TestGateway } from '../support/gateway.ts';

const chromium = process.env.SWITCHBOARD_CHROMIUM ?? '';
const skip = chromium
  ? false
  : 'SWITCHBOARD_CHROMIUM is empty (no chromium installed): browser check skipped';
const USER = '254712300777';
const SANDBOX = `+${DEFAULT_SANDBOX_NUMBER}`;
const PASSWORD = 'a long enough password';

describe('the first ten minutes, in a browser', { skip }, () => {
  let t: TestGateway;
  let browser: SuiteBrowser;
  let portal: any;
  let phone: any;
  let key = '';
  let joinCode = '';
  let firstMessagePath = '';
  const errors: string[] = [];

  async function signUp(page: any, business: string, email: string): Promise<void> {
    await page.goto(`${t.url}/app/sign-up`);
    await page.getByLabel('Business name').fill(business);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: /Create/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
  }

  before(async () => {
    t = await startGateway();
    browser = await openBrowser(chromium);
    portal = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    phone = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
    for (const page of [portal, phone]) page.on('pageerror', (e: Error) => errors.push(e.message));
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  test('sign up, create a key and read the join code', async () => {
    await signUp(portal, 'Corner Cafe', 'owner@cornercafe.example');
    await portal.getByLabel('Key name').fill('till');
    await portal.getByRole('button', { name: 'Create API key' }).click();
    key = (await portal.locator('#new-key code').textContent()) ?? '';
    assert.match(key, /^sb_live_/);
    joinCode = (await portal.locator('#join-code code').textContent()) ?? '';
    assert.match(joinCode, /^[a-z]+-[a-z]+-[a-z]+-\d{6}$/);
  });

  test('the virtual phone joins the sandbox with the code', async () => {
    await phone.goto(`${t.url}/simulator/phone?user=%2B${USER}&with=${encodeURIComponent(SANDBOX)}`);
    await phone.getByRole('status').filter({ hasText: 'online' }).waitFor();
    await phone.getByLabel('Message', { exact: true }).fill(`join ${joinCode}`);
    await phone.getByLabel('Message', { exact: true }).press('Enter');
    await phone.locator('li.message.in').filter({ hasText: 'Corner Cafe sandbox' }).waitFor();
  });

  test('buttons sent with the key show on the phone; a tap reaches the message log', async () => {
    const sent = await call(t.url, 'POST', '/api/v1/msg/interactive/buttons', {
      key,
      body: {
        messageId: 'order-ready-1',
        from: SANDBOX,
        to: `+${USER}`,
        text: 'Your flat white is ready. Pick it up now?',
        buttons: [
          { id: 'coming', title: 'On my way' },
          { id: 'later', title: 'In 10 minutes' },
        ],
      },
    });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    const bubble = phone.locator(`li.message[data-id="${sent.body.data.waId}"]`);
    await bubble.waitFor();
    await bubble.getByRole('button', { name: 'In 10 minutes' }).click();

    await portal.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'Messages' }).click();
    await portal.getByRole('row', { name: /Your flat white is ready/ }).waitFor();
    firstMessagePath = new URL(
      await portal.getByRole('link', { name: /Your flat white is ready/ }).evaluate((a: any) => a.href),
    ).pathname;
    await portal.getByRole('link', { name: 'Received' }).click();
    await eventually(async () => {
      await portal.reload();
      return (await portal.getByRole('row', { name: /In 10 minutes/ }).count()) === 1;
    });
  });

  test('a wrong password is refused with a clear message', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${t.url}/app/sign-in`);
    await page.getByLabel('Email').fill('owner@cornercafe.example');
    await page.getByLabel('Password').fill('not the password at all');
    await page.getByRole('button', { name: 'Sign in' }).click();
    assert.equal(await page.getByRole('alert').textContent(), 'The email or the password is not right.');
    assert.equal(await page.getByRole('navigation', { name: 'Portal' }).count(), 0, 'not signed in');
    await context.close();
  });

  test('a key revoked in the portal is refused by the API at once', async () => {
    const before = await call(t.url, 'GET', '/api/v1/msg/message/order-ready-1', { key });
    assert.equal(before.status, 200);
    await portal.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'Settings' }).click();
    await portal.getByRole('link', { name: /Revoke/ }).click();
    await portal.getByRole('button', { name: 'Revoke key' }).click();
    const after = await call(t.url, 'GET', '/api/v1/msg/message/order-ready-1', { key });
    assert.equal(after.status, 401, JSON.stringify(after.body));
  });

  test("another account sees none of the first account's messages", async () => {
    const context = await browser.newContext();
    const other = await context.newPage();
    await signUp(other, 'Bakery Next Door', 'owner@bakery.example');
    await other.goto(`${t.url}/app/messages`);
    assert.equal(await other.getByRole('row', { name: /flat white/ }).count(), 0);
    await other.goto(`${t.url}/app/messages?tab=in`);
    assert.equal(await other.getByRole('row', { name: /In 10 minutes/ }).count(), 0);
    const response = await other.goto(t.url + firstMessagePath);
    assert.equal(response?.status(), 404);
    await context.close();
    assert.deepEqual(errors, [], 'no script errors on either page');
  });
});
