/**
 * The portal in a real headless Chromium: sign up → settings → create an API key → read the join code →
 * a virtual phone joins the sandbox with it → a text sent with that key through the API → the message log
 * shows it with its status, and its timeline. Checks keyboard access and phone width along the way, and
 * saves screenshots of the main pages (desktop 1280×800, phone 390×844; docs/images/ with
 * SWITCHBOARD_UPDATE_SCREENSHOTS=1).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_SANDBOX_NUMBER } from '../../src/config/config.ts';
import { openBrowser } from '../support/browser.ts';
import { call, eventually, startGateway, type TestGateway } from '../support/gateway.ts';
import { screenshotPath } from '../support/screenshots.ts';

const chromium = process.env.SWITCHBOARD_CHROMIUM ?? '';
const USER = '254712300901';
const SANDBOX = `+${DEFAULT_SANDBOX_NUMBER}`;
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const nav = (page: any) => page.getByRole('navigation', { name: 'Portal' });

describe('portal in a browser', () => {
  let t: TestGateway;
  before(async () => {
    t = await startGateway();
  });
  after(async () => {
    await t?.close();
  });

  test('sign up, create a key, join the sandbox, send, and see the message with its status', {
    skip: chromium ? false : 'SWITCHBOARD_CHROMIUM is empty (no chromium installed): browser check skipped',
  }, async () => {
    const browser = await openBrowser(chromium);
    const shot = (name: string) => ({ path: screenshotPath(name), fullPage: true });
    try {
      const context = await browser.newContext({ viewport: DESKTOP });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));

      await page.goto(`${t.url}/app/sign-up`);
      // The first Tab reaches the skip link, which moves focus to the page's content.
      await page.keyboard.press('Tab');
      assert.equal(
        await page.evaluate(() => (globalThis as any).document.activeElement?.textContent),
        'Skip to content',
      );
      await page.getByLabel('Business name').fill('Browser Bakery');
      await page.getByLabel('Email').fill('baker@example.org');
      await page.getByLabel('Password').fill('flour water salt yeast');
      // What is typed can be shown, so that a typo is seen before it is the password.
      await page.getByLabel('Show the characters').check();
      assert.equal(await page.getByLabel('Password').getAttribute('type'), 'text');
      await page.getByLabel('Show the characters').uncheck();
      assert.equal(await page.getByLabel('Password').getAttribute('type'), 'password');
      await page.getByLabel('Password').press('Enter');
      await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
      assert.equal(
        await page.getByRole('status').first().textContent(),
        'Your account is ready. Create an API key below to start sending.',
      );

      // A form that comes back with a problem puts the focus on the summary at the top, whose link leads to
      // the field: the contacts form with a number that is none.
      const errorsBefore = errors.length;
      await page.goto(`${t.url}/app/contacts`);
      await page.getByLabel('Phone', { exact: false }).first().fill('12345');
      await page.getByLabel('Phone', { exact: false }).first().press('Enter');
      const summary = page.locator('main .alert[role=alert]');
      await summary.waitFor();
      assert.equal(
        await page.evaluate(() => (globalThis as any).document.activeElement?.getAttribute('role')),
        'alert',
      );
      assert.match(
        (await summary.textContent()) ?? '',
        /This form has a problem: see the message next to the field\. Go to the field/,
      );
      await summary.getByRole('link', { name: 'Go to the field' }).click();
      assert.match(page.url(), /#f-[\w-]+$/);
      // The browser logs the page's own 400 as a failed load: that one, and nothing else.
      assert.deepEqual(errors.splice(errorsBefore), [
        'Failed to load resource: the server responded with a status of 400 (Bad Request)',
      ]);
      await page.goto(`${t.url}/app/settings`);

      await page.getByLabel('Key name').fill('browser test');
      await page.getByRole('button', { name: 'Create API key' }).click();
      const key = (await page.locator('#new-key code').textContent()) ?? '';
      assert.match(key, /^sb_live_/);
      const joinCode = (await page.locator('#join-code code').textContent()) ?? '';
      assert.equal(await page.locator('#join-text code').textContent(), `join ${joinCode}`);

      const joined = await call(t.url, 'POST', `/simulator/users/${USER}/messages`, {
        body: { to: SANDBOX, text: `join ${joinCode}` },
      });
      assert.equal(joined.status, 202, JSON.stringify(joined.body));
      await eventually(
        async () =>
          (await t.gateway.repos.conversations.sandboxAccountOf(DEFAULT_SANDBOX_NUMBER, USER)) !== undefined,
      );
      const sent = await call(t.url, 'POST', '/api/v1/msg/message/text', {
        key,
        body: { messageId: 'browser-1', from: SANDBOX, to: `+${USER}`, message: 'Fresh bread at 7' },
      });
      assert.equal(sent.status, 200, JSON.stringify(sent.body));

      await nav(page).getByRole('link', { name: 'Settings' }).click();
      await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
      assert.equal(await page.locator('#new-key').count(), 0, 'the key is shown only once');
      await page.screenshot(shot('portal-settings-desktop.png'));

      await nav(page).getByRole('link', { name: 'Messages' }).click();
      const row = page.getByRole('row', { name: /Fresh bread at 7/ });
      await row.waitFor();
      // Statuses arrive from the simulated network; the log shows the latest on each load.
      await eventually(async () => {
        await page.reload();
        return (await row.textContent())?.includes('READ');
      });
      await page.screenshot(shot('portal-messages-desktop.png'));
      await page.getByRole('link', { name: 'Fresh bread at 7' }).click();
      await page.getByRole('heading', { level: 2, name: 'Status timeline' }).waitFor();
      assert.deepEqual(await page.locator('.timeline .badge').allTextContents(), [
        'SENT',
        'DELIVERED',
        'READ',
      ]);

      await nav(page).getByRole('link', { name: 'Messages' }).click();
      await page.getByRole('link', { name: 'Received' }).click();
      await page.getByRole('row', { name: new RegExp(`join ${joinCode}`) }).waitFor();

      // Phone width: one column, nothing wider than the screen.
      await page.setViewportSize(PHONE);
      for (const [path, name] of [
        ['/app/settings', 'portal-settings-phone.png'],
        ['/app/messages', 'portal-messages-phone.png'],
      ] as const) {
        await page.goto(t.url + path);
        const overflow = await page.evaluate(() => {
          const root = (globalThis as any).document.documentElement;
          return root.scrollWidth - root.clientWidth;
        });
        assert.equal(overflow, 0, `${path} fits a 390 px wide screen`);
        await page.screenshot(shot(name));
      }
      // The contacts page too, after its user became a contact by joining.
      await page.goto(`${t.url}/app/contacts`);
      await page.getByRole('cell', { name: `+${USER}` }).waitFor();
      const contactsOverflow = await page.evaluate(() => {
        const root = (globalThis as any).document.documentElement;
        return root.scrollWidth - root.clientWidth;
      });
      assert.equal(contactsOverflow, 0, '/app/contacts fits a 390 px wide screen');
      assert.deepEqual(errors, [], `no script or content-security-policy errors: ${errors.join('; ')}`);
      await context.close();
    } finally {
      await browser.close();
    }
  });
});
