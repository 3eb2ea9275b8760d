/**
 * A campaign made in the portal in a real headless Chromium (docs/portal.md, "Campaigns"): sign up, then
 * the wizard step by step (number, template with its preview, tags with their count, placeholders with the
 * first recipients' messages, the schedule defaulting to the browser's time zone, the review), "Create and
 * start", and the campaign's page following it live to COMPLETED with the right counts, its recipients and
 * its CSV export. The network holds the sends at first (the simulator's `timeout` fault), so the page is
 * seen RUNNING and its script (portal.js) is what brings it to COMPLETED. Phone width (375 px) is checked,
 * and screenshots are saved (docs/images/ with SWITCHBOARD_UPDATE_SCREENSHOTS=1).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { seriousViolations } from '../support/axe.ts';
import { openBrowser, type SuiteBrowser } from '../support/browser.ts';
import {
  addSimulatedNumber,
  call,
  eventually,
  portalAccount,
  startGateway,
  type TestGateway,
} from '../support/gateway.ts';
import { screenshotPath } from '../support/screenshots.ts';

const chromium = process.env.SWITCHBOARD_CHROMIUM ?? '';
const skip = chromium
  ? false
  : 'SWITCHBOARD_CHROMIUM is empty (no chromium installed): browser check skipped';
const NUMBER = '14155550123';
const EMAIL = 'owner@springshop.example';
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 375, height: 812 };

/** How far the page is wider than the screen. */
const overflow = (page: any): Promise<number> =>
  page.evaluate(() => {
    const root = (globalThis as any).document.documentElement;
    return root.scrollWidth - root.clientWidth;
  });

describe('campaigns in a browser', { skip }, () => {
  let t: TestGateway;
  let browser: SuiteBrowser;
  let page: any;
  /** The page of the campaign the wizard made. */
  let campaignPath = '';
  const errors: string[] = [];
  const shot = (name: string) => ({ path: screenshotPath(name), fullPage: true });

  /** The account the browser signed up, with a number, an approved template and three tagged contacts. */
  async function prepareAccount(): Promise<void> {
    const { accountId, apiKey: key } = await portalAccount(t, EMAIL);
    await addSimulatedNumber(t, accountId, NUMBER);
    const template = await call(t.url, 'POST', `/api/v1/template/${NUMBER}`, {
      key,
      body: {
        name: 'spring_sale',
        language: 'en',
        category: 'MARKETING',
        component: {
          body: { text: 'Hi {{1}}, take {{2}} off everything this week.', examples: ['Jane', '20%'] },
          footer: { text: 'Reply STOP to opt out' },
        },
      },
    });
    assert.equal(template.status, 200, JSON.stringify(template.body));
    await eventually(async () => {
      const list = await call(t.url, 'GET', `/api/v1/template/${NUMBER}`, { key });
      return list.body.data.data[0]?.status === 'APPROVED';
    });
    const people = [
      { phone: '+254712000501', name: 'Amina', attributes: { discount: '30%' } },
      { phone: '+254712000502', name: 'Baraka' },
      { phone: '+254712000503' },
    ];
    for (const person of people) {
      const r = await call(t.url, 'POST', '/api/v1/contacts', { key, body: { ...person, tags: ['spring'] } });
      assert.equal(r.status, 201, JSON.stringify(r.body));
    }
  }

  before(async () => {
    t = await startGateway();
    browser = await openBrowser(chromium);
    // bypassCSP: axe (test/support/axe.ts) is injected as a script.
    const context = await browser.newContext({
      viewport: DESKTOP,
      timezoneId: 'Europe/Paris',
      bypassCSP: true,
    });
    page = await context.newPage();
    page.on('pageerror', (e: Error) => errors.push(e.message));
    page.on('console', (m: any) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(`${t.url}/app/sign-up`);
    await page.getByLabel('Business name').fill('Spring Shop');
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByRole('button', { name: /Create/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    await prepareAccount();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  test('the wizard, step by step, to the review', async () => {
    await page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'Campaigns' }).click();
    await page.getByRole('heading', { level: 1, name: 'Campaigns' }).waitFor();
    await page.getByRole('link', { name: 'New campaign' }).click();

    await page.getByRole('heading', { name: 'Step 1 of 6: Name and number' }).waitFor();
    await page.getByLabel('Campaign name').fill('Spring sale');
    await page.getByLabel('Send from').selectOption(NUMBER);
    await page.getByRole('button', { name: 'Next' }).click();

    await page.getByRole('heading', { name: 'Step 2 of 6: Template' }).waitFor();
    await page.getByText('Hi Jane, take 20% off everything this week.').waitFor();
    await page.getByLabel(/spring_sale/).check();
    await page.getByRole('button', { name: 'Next' }).click();

    await page.getByRole('heading', { name: 'Step 3 of 6: Audience' }).waitFor();
    await page.getByLabel('Contacts with any of these tags').check();
    await page.getByLabel('Tags', { exact: true }).fill('spring');
    await page.getByRole('button', { name: 'Count recipients' }).click();
    await page.getByRole('status').filter({ hasText: '3 contacts have these tags' }).waitFor();
    await page.getByRole('button', { name: 'Next' }).click();

    await page.getByRole('heading', { name: 'Step 4 of 6: Placeholders' }).waitFor();
    await page.locator('#f-source-1').selectOption('name');
    await page.locator('#f-fallback-1').fill('there');
    await page.locator('#f-source-2').selectOption('attribute');
    await page.locator('#f-value-2').fill('discount');
    await page.locator('#f-fallback-2').fill('10%');
    await page.getByRole('button', { name: 'Update preview' }).click();
    const previews = page.locator('ol.recipient-previews > li');
    await previews.first().waitFor();
    assert.deepEqual(
      (await previews.locator('.preview').allTextContents()).map((p: string) => p.split('.')[0]),
      [
        'Hi Amina, take 30% off everything this week',
        'Hi Baraka, take 10% off everything this week',
        'Hi there, take 10% off everything this week',
      ],
    );
    await page.getByRole('button', { name: 'Next' }).click();

    await page.getByRole('heading', { name: 'Step 5 of 6: Schedule' }).waitFor();
    assert.equal(await page.getByLabel('Time zone').inputValue(), 'Europe/Paris', "the browser's own zone");
    await page.getByLabel('Now, as soon as it is created').check();
    await page.getByRole('button', { name: 'Next' }).click();

    await page.getByRole('heading', { name: 'Step 6 of 6: Review' }).waitFor();
    await page.getByText('Contacts tagged spring: 3 contacts').waitFor();
    await page.screenshot(shot('portal-campaign-wizard-desktop.png'));
  });

  test('created and started, its page follows it live to COMPLETED with the right counts', async () => {
    // The network holds the sends: the campaign stays RUNNING until they are let through.
    const held = await call(t.url, 'POST', '/simulator/faults', { body: { timeout: true } });
    assert.equal(held.status, 200, JSON.stringify(held.body));
    await page.getByRole('button', { name: 'Create and start' }).click();
    const status = page.locator('#campaign-live .badge');
    await status.filter({ hasText: 'RUNNING' }).waitFor();
    campaignPath = new URL(page.url()).pathname;
    assert.match(page.url(), /notice=campaign-started/);
    // The page asks for the counts by itself while the campaign runs.
    await page.waitForResponse((r: any) => /\/app\/campaigns\/cmp_\w+\/progress$/.test(r.url()));
    assert.equal(await page.locator('#campaign-live [data-count="handled"]').textContent(), '0');

    assert.equal((await call(t.url, 'DELETE', '/simulator/faults')).status, 200);
    await status.filter({ hasText: 'COMPLETED' }).waitFor();
    assert.doesNotMatch(page.url(), /notice=/, 'portal.js loaded the page again when the status changed');
    const count = (key: string) => page.locator(`svg [data-count="${key}"]`).textContent();
    assert.deepEqual(
      [await count('sent'), await count('failed'), await count('skipped'), await count('queued')],
      ['3', '0', '0', '0'],
    );
    // Delivered and read arrive from the network after the sends; the page shows them when loaded again.
    await eventually(async () => {
      await page.reload();
      return (await count('read')) === '3' && (await count('delivered')) === '3';
    });
    assert.equal(await page.locator('#campaign-progress').getAttribute('value'), '3');
    // The chart over time reads its history at most every few seconds: it shows the reads in a moment.
    const overTime = page.getByRole('img', { name: 'Messages by status over time' });
    await eventually(async () => {
      await page.reload();
      return /sent 3, delivered 3, read 3, failed 0\./.test(
        (await overTime.locator('desc').textContent()) ?? '',
      );
    });
    assert.equal(await page.locator('.timeline-legend li').nth(2).textContent(), ' Read 3');
    const rows = page.getByRole('table').getByRole('row');
    assert.equal(await rows.count(), 4, 'a header row and three recipients');
    assert.deepEqual(await page.locator('td[data-label="Status"]').allTextContents(), [
      'read',
      'read',
      'read',
    ]);
    await page.screenshot(shot('portal-campaign-progress-desktop.png'));
    assert.deepEqual(
      await seriousViolations(page),
      [],
      "the campaign's page has no serious accessibility fault",
    );

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Export all recipients as CSV' }).click(),
    ]);
    const csv = readFileSync(await download.path(), 'utf8')
      .trim()
      .split('\n');
    assert.equal(csv[0], 'seq,to,contactId,line,status,reason,replied,messageId,sentAt');
    assert.deepEqual(
      csv.slice(1).map((line) => {
        const cells = line.split(',');
        return `${cells[1]} ${cells[4]}`;
      }),
      ['+254712000501 read', '+254712000502 read', '+254712000503 read'],
    );
  });

  test('a CSV file chosen in the browser is read into the form and carried to the review', async () => {
    await page.goto(`${t.url}/app/campaigns/new`);
    await page.getByLabel('Campaign name').fill('From a file');
    await page.getByLabel('Send from').selectOption(NUMBER);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByLabel(/spring_sale/).check();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByLabel('The rows of a CSV file').check();
    const file = 'phone,name,discount\r\n+254712000511,"Njeri, Jr.",25%\r\n+254712000512,Kamau,\r\n';
    await page.getByLabel('Read the CSV file from your computer').setInputFiles({
      name: 'people.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(file),
    });
    await eventually(async () =>
      (await page.getByLabel('CSV file', { exact: true }).inputValue()).includes('Kamau'),
    );
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Columns of the file: phone, name, discount.').waitFor();
    await page.locator('#f-fallback-1').fill('there');
    await page.locator('#f-source-2').selectOption('column');
    await page.locator('#f-value-2').fill('discount');
    await page.locator('#f-fallback-2').fill('10%');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('heading', { name: 'Step 6 of 6: Review' }).waitFor();
    await page.getByText('The CSV file: 2 rows').waitFor();
    assert.deepEqual(
      (await page.locator('ol.recipient-previews .preview').allTextContents()).map(
        (p: string) => p.split(' off')[0],
      ),
      ['Hi Njeri, Jr., take 25%', 'Hi Kamau, take 10%'],
    );
  });

  test('at phone width nothing is wider than the screen', async () => {
    await page.setViewportSize(PHONE);
    await page.goto(`${t.url}/app/campaigns`);
    assert.equal(await overflow(page), 0, '/app/campaigns fits a 375 px wide screen');
    await page.goto(`${t.url}/app/campaigns/new`);
    assert.equal(await overflow(page), 0, 'the wizard fits');
    await page.getByLabel('Campaign name').fill('Phone check');
    await page.getByLabel('Send from').selectOption(NUMBER);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('heading', { name: 'Step 2 of 6: Template' }).waitFor();
    assert.equal(await overflow(page), 0, "the wizard's template step fits");
    await page.goto(t.url + campaignPath);
    await page.locator('#campaign-live .badge').filter({ hasText: 'COMPLETED' }).waitFor();
    assert.equal(await overflow(page), 0, "the campaign's page fits");
    assert.deepEqual(await seriousViolations(page), [], "nor at a phone's width");
    await page.screenshot(shot('portal-campaign-progress-phone.png'));
    assert.deepEqual(errors, [], 'no script or content-security-policy errors');
  });
});
