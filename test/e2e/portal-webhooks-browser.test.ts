/**
 * A webhook endpoint's life in the portal, in a real headless Chromium (docs/portal.md, "Webhooks"): an
 * endpoint added for a local receiver, sent a test event whose signature the receiver checks with the
 * secret shown on the page, its secret rotated after a confirmation, and a second test event that
 * verifies with the new secret (and, for a while, the old). Times are shown in the browser's time zone.
 * The page fits a phone's width; screenshots are saved (docs/images/ with SWITCHBOARD_UPDATE_SCREENSHOTS=1).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openBrowser, type SuiteBrowser } from '../support/browser.ts';
import { verifyAsDocumented } from '../support/documented-verify.ts';
import { eventually, startGateway, type TestGateway } from '../support/gateway.ts';
import { type Receiver, startReceiver } from '../support/receiver.ts';
import { screenshotPath } from '../support/screenshots.ts';

const chromium = process.env.SWITCHBOARD_CHROMIUM ?? '';
const skip = chromium
  ? false
  : 'SWITCHBOARD_CHROMIUM is empty (no chromium installed): browser check skipped';
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 375, height: 812 };

describe('webhooks in a browser', { skip }, () => {
  let t: TestGateway;
  let receiver: Receiver;
  let browser: SuiteBrowser;
  const errors: string[] = [];
  const shot = (name: string) => ({ path: screenshotPath(name), fullPage: true });

  before(async () => {
    t = await startGateway({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } });
    receiver = await startReceiver();
    browser = await openBrowser(chromium);
  });
  after(async () => {
    await browser?.close();
    await t?.close();
    await receiver?.close();
  });

  /** The next test event the receiver gets after `mark` deliveries. */
  const testEventAfter = (mark: number) =>
    eventually(async () => receiver.received.slice(mark).find((r) => r.json.type === 'webhook.test'));

  test('a test event verifies with the secret on the page; after a rotation, with the new one', async () => {
    const context = await browser.newContext({ viewport: DESKTOP, timezoneId: 'Africa/Nairobi' });
    const page = await context.newPage();
    page.on('pageerror', (e: Error) => errors.push(e.message));
    await page.goto(`${t.url}/app/sign-up`);
    await page.getByLabel('Business name').fill('Hook Shop');
    await page.getByLabel('Email').fill('hooks@hookshop.example');
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByLabel('Password').press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();

    await page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'Webhooks' }).click();
    await page.getByLabel('URL').fill(receiver.url);
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByRole('heading', { level: 1, name: 'Webhook endpoint' }).waitFor();

    await page.getByText('Show the secret').click();
    const secret = (await page.locator('.copyable code').first().textContent()) ?? '';
    assert.match(secret, /^whsec_/);
    let mark = receiver.received.length;
    await page.getByRole('button', { name: 'Send a test event' }).click();
    await page.getByText('A test event was queued for the endpoint').waitFor();
    const first = await testEventAfter(mark);
    assert.ok(verifyAsDocumented(secret, first.headers, first.body), 'signed with the secret shown');

    await page.getByRole('link', { name: 'Rotate the secret' }).click();
    await page.getByRole('button', { name: 'Rotate the secret' }).click();
    await page.getByRole('heading', { level: 1, name: 'New signing secret' }).waitFor();
    const rotated = (await page.locator('.copyable code').first().textContent()) ?? '';
    assert.match(rotated, /^whsec_/);
    assert.notEqual(rotated, secret);
    await page.getByRole('link', { name: 'Back to the endpoint' }).click();
    mark = receiver.received.length;
    await page.getByRole('button', { name: 'Send a test event' }).click();
    await page.getByText('A test event was queued for the endpoint').waitFor();
    const second = await testEventAfter(mark);
    assert.ok(verifyAsDocumented(rotated, second.headers, second.body), 'signed with the new secret');
    assert.ok(verifyAsDocumented(secret, second.headers, second.body), 'and, for a while, the old one');

    // Both deliveries are listed as succeeded, with the body that was posted.
    await eventually(async () => {
      await page.reload();
      return (await page.locator('.delivery .badge-succeeded').count()) === 2;
    });
    // Times are shown in the browser's zone (three hours ahead of UTC here), with UTC in their title.
    const created = page.locator('.delivery time').first();
    const [shown, utc, iso] = await Promise.all([
      created.textContent(),
      created.getAttribute('title'),
      created.getAttribute('datetime'),
    ]);
    const local = new Date(Date.parse(iso!) + 3 * 3600_000).toISOString();
    assert.equal(shown?.slice(0, 19), `${local.slice(0, 10)} ${local.slice(11, 19)}`);
    assert.match(shown ?? '', / (GMT\+3|EAT)$/);
    assert.match(utc ?? '', / UTC$/);
    await page.locator('.delivery summary').first().click();
    assert.match((await page.locator('pre.payload').first().textContent()) ?? '', /"type": "webhook.test"/);
    await page.screenshot(shot('portal-webhook-endpoint-desktop.png'));

    await page.setViewportSize(PHONE);
    const wider = await page.evaluate(() => {
      const root = (globalThis as any).document.documentElement;
      return root.scrollWidth - root.clientWidth;
    });
    assert.equal(wider, 0, "the endpoint's page fits a 375 px wide screen");
    await page.screenshot(shot('portal-webhook-endpoint-phone.png'));
    assert.deepEqual(errors, []);
    await context.close();
  });
});
