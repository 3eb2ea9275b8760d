/**
 * The private simulator's phone page in a real headless Chromium: without the token the page asks for it;
 * once entered, the cookie it sets carries the page's own requests (the chat, the live stream, the user's
 * messages), the token is neither in the address bar nor readable by scripts, and the page works as on
 * loopback.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_SANDBOX_NUMBER } from '../../src/config/config.ts';
import { openBrowser, type SuiteBrowser } from '../support/browser.ts';
import {
  createAccount,
  eventually,
  startGateway,
  type TestAccount,
  type TestGateway,
} from '../support/gateway.ts';

const USER = '254712300199';
const chromium = process.env.SWITCHBOARD_CHROMIUM ?? '';

describe('the private phone page in a browser', {
  skip: chromium ? false : 'SWITCHBOARD_CHROMIUM is empty (no chromium installed): browser check skipped',
}, () => {
  let t: TestGateway;
  let account: TestAccount;
  let browser: SuiteBrowser;
  let page: import('playwright-core').Page;
  const errors: string[] = [];

  before(async () => {
    t = await startGateway({ env: { HOST: '0.0.0.0' } });
    account = await createAccount(t, 'Private Phone Co');
    browser = await openBrowser(chromium);
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on('pageerror', (e) => errors.push(e.message));
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  test('the page asks for the token; a wrong one is refused', async () => {
    const response = await page.goto(`${t.url}/simulator/phone?user=%2B${USER}`);
    assert.equal(response?.status(), 401);
    await page.getByRole('heading', { name: 'This simulator is private' }).waitFor();
    await page.getByLabel('Simulator token').fill('not-the-token-at-all');
    await page.getByRole('button', { name: 'Open the phone' }).click();
    await page.getByText('That token is not this simulator’s.').waitFor();
  });

  test('with the token the phone opens, live, and a user joins the sandbox from it', async () => {
    await page.getByLabel('Simulator token').fill(t.gateway.config.simulator.token);
    await page.getByRole('button', { name: 'Open the phone' }).click();
    await page.getByLabel('Your number').waitFor();
    assert.doesNotMatch(page.url(), /token/, 'the token is not left in the address bar');
    assert.equal(await page.evaluate('document.cookie'), '', 'scripts cannot read the cookie');
    // The live stream (an EventSource: no header of its own) is carried by the cookie.
    await page.getByRole('status').filter({ hasText: 'online' }).waitFor();

    await page.getByLabel('Message', { exact: true }).fill(`join ${account.joinCode}`);
    await page.getByLabel('Message', { exact: true }).press('Enter');
    await page
      .locator('li.message.in')
      .filter({ hasText: 'You are connected to the Private Phone Co sandbox' })
      .waitFor();
    await eventually(
      async () =>
        (await t.gateway.repos.conversations.sandboxAccountOf(DEFAULT_SANDBOX_NUMBER, USER)) ===
        account.accountId,
    );
    assert.deepEqual(errors, []);
  });
});
