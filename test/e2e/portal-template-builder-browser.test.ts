/**
 * A template with an image header and buttons built in the portal's form, in a real headless Chromium
 * (docs/portal.md, "Templates"): the preview follows the form as it is filled (the chosen picture, the body
 * with its examples, the buttons); a link button whose address is not absolute comes back with the API's words next to
 * its field; submitted, the template reaches the network with the image as its header example and its
 * buttons, and is approved. A form sent without its token is refused before its file is read.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { seriousViolations } from '../support/axe.ts';
import { openBrowser, type SuiteBrowser } from '../support/browser.ts';
import { call, eventually, portalAccount, startGateway, type TestGateway } from '../support/gateway.ts';
import { screenshotPath } from '../support/screenshots.ts';

const chromium = process.env.SWITCHBOARD_CHROMIUM ?? '';
const skip = chromium
  ? false
  : 'SWITCHBOARD_CHROMIUM is empty (no chromium installed): browser check skipped';
const EMAIL = 'owner@bloom.example';
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

describe('the template form in a browser', { skip }, () => {
  let t: TestGateway;
  let browser: SuiteBrowser;
  let page: any;
  const errors: string[] = [];

  before(async () => {
    t = await startGateway();
    browser = await openBrowser(chromium);
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
    page = await context.newPage();
    page.on('pageerror', (e: Error) => errors.push(e.message));
    await page.goto(`${t.url}/app/sign-up`);
    await page.getByLabel('Business name').fill('Bloom');
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByRole('button', { name: /Create/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  async function fillForm(urlButton: string, example?: string): Promise<void> {
    await page.getByLabel('Name').fill('spring_bouquets');
    await page.getByLabel('Category').selectOption('MARKETING');
    await page.getByLabel('Header kind').selectOption('IMAGE');
    await page.getByLabel('Header file (for an image, video or document header)').setInputFiles({
      name: 'bouquet.png',
      mimeType: 'image/png',
      buffer: PNG,
    });
    await page
      .getByLabel('Body', { exact: true })
      .fill('Hi {{1}}, spring bouquets are in: {{2}} off this week.');
    await page.getByLabel('Body examples, one per line (one per variable)').fill('Ana\n15%');
    await page.getByLabel('Footer (optional)').fill('Reply STOP to opt out');
    const row = (n: number) => page.getByRole('group', { name: `Button ${n}` });
    await row(1).getByLabel('Kind').selectOption('QUICK_REPLY');
    await row(1).getByLabel('Label').fill('Not now');
    await row(2).getByLabel('Kind').selectOption('URL');
    await row(2).getByLabel('Label').fill('Order');
    await row(2).getByLabel('Link or number').fill(urlButton);
    if (example) await row(2).getByLabel('Example link (for a link ending with {{1}})').fill(example);
  }

  test('the preview follows the form; a bad link comes back at its field; the template is created and approved', async () => {
    await page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'Templates' }).click();
    await fillForm('bloom.example/order');
    const preview = page.locator('[data-template-preview] .preview');
    assert.match(await preview.textContent(), /Hi Ana, spring bouquets are in: 15% off this week\./);
    assert.equal(await preview.getByRole('img', { name: 'The header image' }).count(), 1);
    assert.deepEqual(
      await preview.getByRole('list', { name: 'Buttons' }).getByRole('listitem').allTextContents(),
      ['Not now', 'Order'],
    );
    assert.deepEqual(await seriousViolations(page), []);
    await page.screenshot({ path: screenshotPath('portal-template-builder.png'), fullPage: true });

    await page.getByRole('button', { name: 'Submit for review' }).click();
    const linkError = page.getByRole('group', { name: 'Button 2' }).locator('.field-error');
    await linkError.waitFor();
    assert.match(await linkError.textContent(), /^Button 2's link must be an absolute http or https URL/);
    // Nothing was kept of a template that was not created, its file included.
    const kept = await t.gateway.store.db.selectFrom('template_media').select('handle').execute();
    assert.deepEqual(kept, []);

    // A link with a variable, and the example link the network reviews it by.
    await fillForm('https://bloom.example/order/{{1}}', 'https://bloom.example/order/4521');
    await page.getByRole('button', { name: 'Submit for review' }).click();
    await page.getByText('The template was submitted for review').waitFor();

    const key = (await portalAccount(t, EMAIL)).apiKey;
    const sandbox = t.gateway.config.sandboxNumber;
    const template = await eventually(async () => {
      const list = await call(t.url, 'GET', `/api/v1/template/${sandbox}`, { key });
      const found = list.body.data.data.find((x: any) => x.name === 'spring_bouquets');
      return found?.status === 'APPROVED' ? found : undefined;
    });
    const part = (type: string) => template.components.find((c: any) => c.type === type);
    assert.equal(part('HEADER').format, 'IMAGE');
    assert.equal(part('HEADER').example.header_handle.length, 1);
    assert.deepEqual(
      part('BUTTONS').buttons.map((b: any) => [b.type, b.text, b.url, b.example]),
      [
        ['QUICK_REPLY', 'Not now', undefined, undefined],
        ['URL', 'Order', 'https://bloom.example/order/{{1}}', ['https://bloom.example/order/4521']],
      ],
    );
    // Its buttons and image are more than the edit form shows: the list says where it is edited instead.
    await page.goto(`${t.url}/app/templates`);
    const listed = page.getByRole('row', { name: /spring_bouquets/ });
    await listed.getByText('Edit through the API').waitFor();
    assert.equal(await listed.getByRole('link', { name: /^Edit/ }).count(), 0);
    assert.deepEqual(errors, []);
  });

  test('a multipart form without its token is refused before its file is stored', async () => {
    const before = await t.gateway.store.db.selectFrom('template_media').select('handle').execute();
    const response = await page.request.post(`${t.url}/app/templates`, {
      multipart: {
        headerFile: { name: 'x.png', mimeType: 'image/png', buffer: PNG },
        name: 'sneaky',
      },
    });
    assert.equal(response.status(), 403);
    const after = await t.gateway.store.db.selectFrom('template_media').select('handle').execute();
    assert.equal(after.length, before.length);
  });

  test('a header file of the wrong kind comes back at its field, with what was typed kept', async () => {
    await page.goto(`${t.url}/app/templates`);
    await page.getByLabel('Name', { exact: true }).fill('wrong_file');
    // Each header kind shows its own field only.
    const fileInput = page.getByLabel('Header file (for an image, video or document header)');
    const textInput = page.getByLabel('Header text (optional)');
    const exampleInput = page.getByLabel('Header example (if the header has {{1}})');
    const shown = () => Promise.all([fileInput, textInput, exampleInput].map((input) => input.isVisible()));
    assert.deepEqual(await shown(), [false, true, true]);
    await page.getByLabel('Header kind').selectOption('IMAGE');
    assert.deepEqual(await shown(), [true, false, false]);
    await page.getByLabel('Header file (for an image, video or document header)').setInputFiles({
      name: 'setup.exe',
      mimeType: 'application/octet-stream',
      buffer: Buffer.from('MZ this is no image'),
    });
    await page.getByLabel('Body', { exact: true }).fill('Our opening hours change next week.');
    await page.getByRole('button', { name: 'Submit for review' }).click();
    const fileError = page.locator('#f-headerFile-error');
    await fileError.waitFor();
    assert.match(await fileError.textContent(), /must be a JPEG or PNG image/);
    assert.equal(
      await page.getByLabel('Body', { exact: true }).inputValue(),
      'Our opening hours change next week.',
    );
  });
});
