/**
 * Every page of the gateway's own making, checked with axe-core in a real headless Chromium at desktop and
 * phone width: no serious or critical accessibility violation. The portal's pages (signed out and signed
 * in, with an endpoint, a delivery and a contact so that their lists and tables are drawn) and the virtual
 * phone. A violation is reported with its rule, the elements it was found on and axe's words.
 *
 * Not checked: the API reference (/docs), which is Swagger UI's own markup; axe finds contrast, nested
 * controls and an unnamed server select in it, which only a change to Swagger UI would remove.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_SANDBOX_NUMBER } from '../../src/config/config.ts';
import { axeOnEveryPage, seriousViolations } from '../support/axe.ts';
import { openBrowser, type SuiteBrowser } from '../support/browser.ts';
import { createSignUpFlow } from '../support/flows.ts';
import { call, eventually, startGateway, type TestGateway, userSays } from '../support/gateway.ts';
import { screenshotPath } from '../support/screenshots.ts';

const chromium = process.env.SWITCHBOARD_CHROMIUM ?? '';
const skip = chromium
  ? false
  : 'SWITCHBOARD_CHROMIUM is empty (no chromium installed): browser check skipped';
const USER = '254712300951';
const SANDBOX = `+${DEFAULT_SANDBOX_NUMBER}`;
const WIDTHS = { desktop: { width: 1280, height: 800 }, phone: { width: 375, height: 812 } };
describe('accessibility of every page', { skip }, () => {
  let t: TestGateway;
  let browser: SuiteBrowser;

  before(async () => {
    t = await startGateway({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } });
    browser = await openBrowser(chromium);
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  test('no serious or critical violation at desktop and phone width', async () => {
    // axe is loaded into every page as it opens, past the pages' own policy, which allows no script but theirs.
    const context = await browser.newContext({ viewport: WIDTHS.desktop, bypassCSP: true });
    await axeOnEveryPage(context);
    const page = await context.newPage();
    const problems: string[] = [];
    // Each page is loaded once and checked at both widths: no page script reads the width, so resizing
    // the loaded page lays it out as loading it at that width does, for half the loads and axe start-ups.
    const check = async (path: string) => {
      await page.setViewportSize(WIDTHS.desktop);
      await page.goto(`${t.url}${path}`);
      for (const [name, size] of Object.entries(WIDTHS)) {
        await page.setViewportSize(size);
        for (const line of await seriousViolations(page)) problems.push(`${path} (${name}): ${line}`);
      }
    };

    for (const path of ['/app/sign-in', '/app/sign-up', '/app/forgot-password', '/simulator/phone'])
      await check(path);

    await page.goto(`${t.url}/app/sign-up`);
    await page.getByLabel('Business name').fill('Checked Shop');
    await page.getByLabel('Email').fill('a11y@checkedshop.example');
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByLabel('Password').press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    await page.getByLabel('Key name').fill('checks');
    await page.getByRole('button', { name: 'Create API key' }).click();
    const key = (await page.locator('#new-key code').textContent()) ?? '';
    // A conversation, so that the dashboard and the message log have something to draw.
    const joinCode = (await page.locator('#join-code code').textContent()) ?? '';
    await userSays(t, USER, SANDBOX, { text: `join ${joinCode}` });
    await eventually(
      async () =>
        (await t.gateway.repos.conversations.sandboxAccountOf(SANDBOX.slice(1), USER)) !== undefined,
    );
    for (const [i, text] of ['Fresh bread at 7', 'Croissants are out'].entries()) {
      const body = { messageId: `a11y-${i}`, from: SANDBOX, to: `+${USER}`, message: text };
      assert.equal((await call(t.url, 'POST', '/api/v1/msg/message/text', { key, body })).status, 200);
    }
    await userSays(t, USER, SANDBOX, { text: 'Thank you!' });
    const hook = await call(t.url, 'POST', '/api/v1/webhooks', {
      key,
      body: { url: 'http://127.0.0.1:9/hooks', events: ['contact.opted_out'] },
    });
    await call(t.url, 'POST', `/api/v1/webhooks/${hook.body.data.id}/test`, { key });
    await eventually(async () => {
      const listed = await call(t.url, 'GET', `/api/v1/webhooks/${hook.body.data.id}/deliveries`, { key });
      return listed.body.data[0]?.attempts.length > 0;
    });
    await call(t.url, 'POST', '/api/v1/contacts', {
      key,
      body: { phone: '+254712300950', name: 'Amina', tags: ['vip'], attributes: { city: 'Nairobi' } },
    });

    for (const path of [
      '/app/dashboard',
      '/app/settings',
      '/app/team',
      '/app/messages',
      '/app/contacts',
      '/app/templates',
      '/app/flows',
      '/app/campaigns',
      '/app/campaigns/new',
      '/app/webhooks',
      `/app/webhooks/${hook.body.data.id}`,
      `/app/webhooks/${hook.body.data.id}/rotate`,
      '/app/inbox',
      '/app/inbox/replies',
      '/app/profile',
      `/app/flows/${(await createSignUpFlow(t, key, SANDBOX)).id}/edit`,
      `/app/inbox/${(await t.gateway.store.db.selectFrom('inbox_conversations').select('id').executeTakeFirstOrThrow()).id}`,
    ])
      await check(path);
    await page.setViewportSize(WIDTHS.desktop);
    for (const [path, name] of [
      ['/app/dashboard', 'portal-dashboard-desktop.png'],
      ['/app/team', 'portal-team-desktop.png'],
      ['/app/profile', 'portal-profile-desktop.png'],
      [
        `/app/flows/${(await createSignUpFlow(t, key, SANDBOX, 'Screenshot')).id}/edit`,
        'portal-flow-edit-desktop.png',
      ],
    ]) {
      await page.goto(`${t.url}${path}`);
      await page.screenshot({ path: screenshotPath(name!), fullPage: true });
    }
    await context.close();
    assert.deepEqual(problems, []);
  });
});
