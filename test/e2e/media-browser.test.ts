/**
 * Files users send, opened in a real headless Chromium by a signed-in portal user: a virtual user sends an
 * HTML page and an SVG drawing whose scripts would take the portal's CSRF token and create an API key for
 * the sender (and call a marker the test exposes to every page), and a photo. From the message log, the
 * HTML and SVG links download and run nothing; the photo is shown. No new API key exists afterwards.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_SANDBOX_NUMBER } from '../../src/config/config.ts';
import { openBrowser } from '../support/browser.ts';
import { call, eventually, startGateway, type TestGateway } from '../support/gateway.ts';

const chromium = process.env.SWITCHBOARD_CHROMIUM ?? '';
const USER = '254712300902';
const SANDBOX = `+${DEFAULT_SANDBOX_NUMBER}`;
/** A valid 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** What an attacker's file runs if it gets the chance: report, then take the CSRF token and make a key. */
const ATTACK = `
  try { window.mediaScriptRan(document.title || 'svg'); } catch (e) {}
  fetch('/app/settings')
    .then((r) => r.text())
    .then((page) => {
      const token = /name="_csrf" value="([^"]+)"/.exec(page)[1];
      return fetch('/app/settings/keys', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: '_csrf=' + encodeURIComponent(token) + '&name=stolen',
      });
    });`;
const HTML_PAGE = `<!doctype html><title>html</title><p>Invoice</p><script>${ATTACK}</script>`;
const SVG_IMAGE = `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script><![CDATA[${ATTACK}]]></script></svg>`;

describe('media in a browser', () => {
  let t: TestGateway;
  before(async () => {
    t = await startGateway();
  });
  after(async () => {
    await t?.close();
  });

  test('an HTML page and an SVG drawing a user sent run no script when opened from the message log', {
    skip: chromium ? false : 'SWITCHBOARD_CHROMIUM is empty (no chromium installed): browser check skipped',
  }, async () => {
    const browser = await openBrowser(chromium);
    try {
      const context = await browser.newContext({ acceptDownloads: true });
      const ran: string[] = [];
      await context.exposeBinding('mediaScriptRan', (_source, what: string) => ran.push(what));
      const page = await context.newPage();

      await page.goto(`${t.url}/app/sign-up`);
      await page.getByLabel('Business name').fill('Careful Clinic');
      await page.getByLabel('Email').fill('desk@clinic.example.org');
      await page.getByLabel('Password').fill('a long and careful password');
      await page.getByLabel('Password').press('Enter');
      await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
      const joinCode = (await page.locator('#join-code code').textContent()) ?? '';
      const accountId = (await t.gateway.repos.accounts.listAccounts())[0]!.id;
      const keysBefore = (await t.gateway.repos.accounts.listKeysOfAccount(accountId)).length;

      const userSends = async (body: Record<string, unknown>) => {
        const r = await call(t.url, 'POST', `/simulator/users/${USER}/messages`, {
          body: { to: SANDBOX, ...body },
        });
        assert.equal(r.status, 202, JSON.stringify(r.body));
      };
      await userSends({ text: `join ${joinCode}` });
      await eventually(
        async () =>
          (await t.gateway.repos.conversations.sandboxAccountOf(DEFAULT_SANDBOX_NUMBER, USER)) === accountId,
      );
      const document = (mimeType: string, content: string, filename: string) => ({
        media: { type: 'document', mimeType, filename, dataBase64: Buffer.from(content).toString('base64') },
      });
      await userSends(document('text/html', HTML_PAGE, 'invoice.html'));
      await userSends(document('image/svg+xml', SVG_IMAGE, 'drawing.svg'));
      await userSends({
        media: { type: 'image', mimeType: 'image/png', dataBase64: PNG.toString('base64') },
      });
      await eventually(
        async () => (await t.gateway.store.db.selectFrom('media_files').selectAll().execute()).length === 3,
      );

      await page.goto(`${t.url}/app/messages?tab=in`);
      const documentLinks = page.getByRole('link', { name: 'Open the document' });
      assert.equal(await documentLinks.count(), 2);
      for (const link of await documentLinks.all()) {
        const href = (await link.getAttribute('href')) ?? '';
        const answer = await page.request.get(t.url + href);
        assert.equal(answer.headers()['content-disposition'], 'attachment', href);
        assert.equal(answer.headers()['x-content-type-options'], 'nosniff', href);
        assert.match(answer.headers()['content-security-policy'] ?? '', /(^|; )sandbox($|;)/, href);

        const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
        assert.ok(await download.path(), 'the file is downloaded');
        assert.match(page.url(), /\/app\/messages\?tab=in$/, 'the portal stays where it was');
      }

      // The photo is shown in the browser, still without any script or request of its own.
      const image = page.getByRole('link', { name: 'Open the image' });
      await image.click();
      await page.waitForURL(/\/media\/med_/);
      const shown = await page.evaluate(() => {
        const img = (globalThis as any).document.querySelector('img');
        return img ? img.naturalWidth : 0;
      });
      assert.equal(shown, 1, 'the PNG is displayed inline');

      await page.goto(`${t.url}/app/settings`);
      assert.deepEqual(ran, [], 'no script in the files ran');
      const keysAfter = await t.gateway.repos.accounts.listKeysOfAccount(accountId);
      assert.equal(keysAfter.length, keysBefore, 'no API key was created');
      assert.equal(keysAfter.filter((k) => k.name === 'stolen').length, 0);
      await context.close();
    } finally {
      await browser.close();
    }
  });
});
