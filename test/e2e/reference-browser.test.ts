/**
 * The API reference page (`/docs`) in a real headless Chromium: Swagger UI renders every operation of the
 * served document from assets the gateway serves itself (no request leaves the gateway's origin), a
 * filter narrows the list, and "Try it out" with an API key calls this gateway and shows its answer.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openBrowser } from '../support/browser.ts';
import { createAccount, startGateway, type TestAccount, type TestGateway } from '../support/gateway.ts';
import { screenshotPath } from '../support/screenshots.ts';

const chromium = process.env.SWITCHBOARD_CHROMIUM ?? '';

describe('the API reference page in a browser', () => {
  let t: TestGateway;
  let account: TestAccount;
  before(async () => {
    t = await startGateway();
    account = await createAccount(t, 'Reference Co');
  });
  after(async () => {
    await t?.close();
  });

  test('every operation is listed offline, and Try it out calls the gateway with the key', {
    skip: chromium ? false : 'SWITCHBOARD_CHROMIUM is empty (no chromium installed): browser check skipped',
  }, async () => {
    const doc = (await t.gateway.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const operations = Object.values(doc.paths as Record<string, object>).flatMap((m) =>
      Object.keys(m),
    ).length;
    const browser = await openBrowser(chromium);
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const origin = new URL(t.url).origin;
      const elsewhere: string[] = [];
      const errors: string[] = [];
      page.on('request', (r) => {
        const url = r.url();
        if (!url.startsWith(origin) && !url.startsWith('data:')) elsewhere.push(url);
      });
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));

      await page.goto(`${t.url}/docs`);
      await page.locator('.opblock').first().waitFor();
      assert.equal(await page.locator('.opblock').count(), operations, 'every operation of the document');
      assert.ok(await page.getByRole('heading', { name: /Switchboard API/ }).isVisible());

      await page.getByPlaceholder('Filter by tag').fill('webhooks');
      // The filter hides the other tags' operations.
      await page.locator('#operations-messages-sendText').waitFor({ state: 'detached' });
      await page.locator('#operations-webhooks-listWebhookEndpoints').waitFor();

      // Authorize with the account's key, then call GET /api/v1/webhooks from the page.
      await page.getByRole('button', { name: 'Authorize' }).first().click();
      await page.getByLabel('Value:').fill(account.apiKey);
      await page.getByRole('button', { name: 'Apply credentials' }).click();
      await page.locator('.modal-ux .btn-done').click();
      const operation = page.locator('#operations-webhooks-listWebhookEndpoints');
      await operation.locator('.opblock-summary').click();
      await operation.getByRole('button', { name: 'Try it out' }).click();
      await operation.getByRole('button', { name: 'Execute' }).click();
      const answer = operation.locator('.live-responses-table tr.response .response-col_status').first();
      await answer.waitFor();
      assert.equal((await answer.textContent())?.trim(), '200');
      assert.match(
        (await operation.locator('.live-responses-table .microlight').first().textContent()) ?? '',
        /"status": "success"/,
      );
      await page.screenshot({ path: screenshotPath('api-reference.png'), fullPage: false });

      assert.deepEqual(elsewhere, [], 'nothing is fetched from another origin');
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  });
});
