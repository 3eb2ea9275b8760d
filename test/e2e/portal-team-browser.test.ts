/**
 * The team and the dashboard in a real headless Chromium (docs/portal.md, "Team" and "Dashboard"): a member
 * invited as developer sets a password and is refused the inbox; a password link made by the owner sets a
 * new one and signs the member out of the browser they were using; the old password no longer opens the
 * portal. Times follow the time zone a user chose on their profile. After a scripted mix of sends, a failure and replies, the dashboard's figures as the browser
 * shows them equal the counts taken through the API.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_SANDBOX_NUMBER } from '../../src/config/config.ts';
import { openBrowser, type SuiteBrowser } from '../support/browser.ts';
import {
  addSimulatedNumber,
  call,
  eventually,
  joinSandbox,
  portalAccount,
  startGateway,
  type TestGateway,
  userSays,
} from '../support/gateway.ts';

const chromium = process.env.SWITCHBOARD_CHROMIUM ?? '';
const skip = chromium
  ? false
  : 'SWITCHBOARD_CHROMIUM is empty (no chromium installed): browser check skipped';
const OWNER = 'owner@teamshop.example';
const MEMBER = 'dev@teamshop.example';
const OWN = '14155550178';
const FRIEND = '254712300971';
const STRANGER = '254712300972';
const SANDBOX = `+${DEFAULT_SANDBOX_NUMBER}`;

describe('the team and the dashboard in a browser', { skip }, () => {
  let t: TestGateway;
  let browser: SuiteBrowser;
  let owner: any;
  const errors: string[] = [];

  const newPage = async () => {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    page.on('pageerror', (e: Error) => errors.push(e.message));
    return page;
  };
  /** The one-time link shown on the page the owner's button led to, on this gateway. */
  const shownLink = async () =>
    ((await owner.locator('.copyable code').first().textContent()) ?? '').replace(/^https?:\/\/[^/]+/, t.url);

  before(async () => {
    t = await startGateway();
    browser = await openBrowser(chromium);
    owner = await newPage();
    await owner.goto(`${t.url}/app/sign-up`);
    await owner.getByLabel('Business name').fill('Team Shop');
    await owner.getByLabel('Email').fill(OWNER);
    await owner.getByLabel('Password').fill('a long enough password');
    await owner.getByRole('button', { name: /Create/ }).click();
    await owner.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  test('a password link sets a new password and signs the member out where they were', async () => {
    await owner.goto(`${t.url}/app/team`);
    await owner.getByLabel('Their email (optional)').fill(MEMBER);
    await owner.getByLabel('Role').selectOption('developer');
    await owner.getByRole('button', { name: 'Make the link' }).click();
    const member = await newPage();
    await member.goto(await shownLink());
    await member.getByLabel('Password').fill('the first password here');
    await member.getByRole('button', { name: 'Set password' }).click();
    await member.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    assert.equal((await member.goto(`${t.url}/app/inbox`))?.status(), 403, 'a developer has no inbox');

    await owner.goto(`${t.url}/app/team`);
    await owner.getByRole('button', { name: `Password link for ${MEMBER}` }).click();
    const reset = await newPage();
    await reset.goto(await shownLink());
    await reset.getByLabel('Password').fill('the second password here');
    await reset.getByRole('button', { name: 'Set password' }).click();
    await reset.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();

    // The browser the member used before is signed out.
    await member.goto(`${t.url}/app/dashboard`);
    await member.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    await member.getByLabel('Email').fill(MEMBER);
    await member.getByLabel('Password').fill('the first password here');
    await member.getByRole('button', { name: 'Sign in' }).click();
    await member.getByRole('alert').waitFor();
    assert.match(String(await member.getByRole('alert').textContent()), /the password is not right/);
    await member.getByLabel('Password').fill('the second password here');
    await member.getByRole('button', { name: 'Sign in' }).click();
    await member.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
  });

  test("times are shown in the time zone chosen on the profile, whatever the browser's", async () => {
    const page = await (
      await browser.newContext({ viewport: { width: 1280, height: 800 }, timezoneId: 'Europe/Paris' })
    ).newPage();
    await page.goto(`${t.url}/app/sign-in`);
    await page.getByLabel('Email').fill(OWNER);
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    await page.goto(`${t.url}/app/team`);
    assert.match(
      String(await page.locator('time').first().textContent()),
      /GMT\+1$/,
      "the browser's zone at first",
    );
    await page.getByRole('link', { name: 'Your profile' }).click();
    await page.getByLabel('Show times in').selectOption('Asia/Tokyo');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Times are now shown in the time zone chosen.').waitFor();
    await page.goto(`${t.url}/app/team`);
    const shown = page.locator('time').first();
    assert.match(String(await shown.textContent()), /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d GMT\+9$/);
    assert.match(String(await shown.getAttribute('title')), /UTC$/, 'the UTC time stays in its title');
    const refused = await page.request.post(`${t.url}/app/profile`, {
      form: {
        timeZone: 'Mars/Olympus',
        _csrf: (await page.locator('input[name="_csrf"]').first().getAttribute('value')) ?? '',
      },
    });
    assert.equal(refused.status(), 400);
    assert.match(await refused.text(), /`timeZone` must be a time zone such as Europe\/Paris/);
  });

  test("the dashboard's figures equal the counts taken through the API", async () => {
    const account = await portalAccount(t, OWNER);
    const key = account.apiKey;
    // A number whose window the gateway does not judge: the network fails a text to someone who never wrote.
    await addSimulatedNumber(t, account.accountId, OWN, { sessionCheck: false });
    await joinSandbox(t, account, FRIEND);
    await userSays(t, FRIEND, SANDBOX, { text: 'Do you have it in blue?' });
    const sends = [
      { messageId: 'team-1', from: SANDBOX, to: `+${FRIEND}`, message: 'We do' },
      { messageId: 'team-2', from: SANDBOX, to: `+${FRIEND}`, message: 'Shall I keep one?' },
      { messageId: 'team-3', from: `+${OWN}`, to: `+${STRANGER}`, message: 'Hello' },
    ];
    for (const body of sends)
      assert.equal((await call(t.url, 'POST', '/api/v1/msg/message/text', { key, body })).status, 200);
    await userSays(t, FRIEND, SANDBOX, { text: 'Yes please' });
    const statuses: string[] = await eventually(async () => {
      const read = await Promise.all(
        sends.map(
          async (s) =>
            (await call(t.url, 'GET', `/api/v1/msg/message/${s.messageId}`, { key })).body.data.status,
        ),
      );
      return read.every((s) => s === 'READ' || s === 'FAILED') ? read : undefined;
    });
    const received = await eventually(async () => {
      const count = (await t.gateway.repos.inbound.listOfAccount(account.accountId)).length;
      return count === 3 ? count : undefined; // the join, the question and the answer
    });
    const expected: Record<string, number> = {
      Sent: statuses.filter((s) => s !== 'FAILED').length,
      Delivered: statuses.filter((s) => s === 'DELIVERED' || s === 'READ').length,
      Read: statuses.filter((s) => s === 'READ').length,
      Failed: statuses.filter((s) => s === 'FAILED').length,
      Received: received,
    };

    await owner.goto(`${t.url}/app`);
    await owner.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    for (const [label, n] of Object.entries(expected)) {
      const figure = await owner
        .locator('dt', { hasText: new RegExp(`^${label}$`) })
        .locator('+ dd')
        .textContent();
      assert.equal(Number(/^\d+/.exec(figure.trim())?.[0]), n, label);
    }
    assert.match(
      String(await owner.getByText(/network error 131047/).textContent()),
      /more than 24 hours passed/,
    );
    assert.deepEqual(errors, []);
  });
});
