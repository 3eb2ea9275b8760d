/**
 * WhatsApp Flows end to end over real HTTP: create from the example Flow JSON → the preview page in a real
 * headless Chromium (two screens, inputs, completion) → publish → list → send to a joined sandbox user →
 * the virtual user completes the flow → the completion is stored and arrives at a real local receiver as
 * a `message.received` event with `interactive.type = nfm_reply`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_SANDBOX_NUMBER } from '../../src/config/config.ts';
import { openBrowser } from '../support/browser.ts';
import { verifyAsDocumented } from '../support/documented-verify.ts';
import { createSignUpFlow, FLOWS, onGateway } from '../support/flows.ts';
import {
  call,
  createAccount,
  eventually,
  joinSandbox,
  receivedBy,
  startGateway,
  type TestAccount,
  type TestGateway,
} from '../support/gateway.ts';
import { type Receiver, startReceiver } from '../support/receiver.ts';
import { tampered } from '../support/tamper.ts';

const USER = '254712300077';
const SANDBOX = `+${DEFAULT_SANDBOX_NUMBER}`;
const chromium = process.env.SWITCHBOARD_CHROMIUM ?? '';

describe('flows end to end', () => {
  let t: TestGateway;
  let receiver: Receiver;
  let account: TestAccount;
  let flow: { id: number; waFlowId: string; status: string; updatedAt: string };
  let previewUrl: string;
  let sent: { waId: string };
  let endpointSecret: string;

  before(async () => {
    t = await startGateway({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } });
    receiver = await startReceiver();
    account = await createAccount(t, 'Flow Co');
    const hook = await call(t.url, 'POST', '/api/v1/webhooks', {
      key: account.apiKey,
      body: { url: receiver.url, events: ['message.received'] },
    });
    assert.equal(hook.status, 201, JSON.stringify(hook.body));
    endpointSecret = hook.body.data.secret;
    await joinSandbox(t, account, USER);
  });
  after(async () => {
    await t?.close();
    await receiver?.close();
  });

  test('create answers the Flow record, DRAFT, with ISO dates carrying an offset', async () => {
    flow = await createSignUpFlow(t, account.apiKey, SANDBOX);
    assert.equal(typeof flow.id, 'number');
    assert.match(flow.waFlowId, /^\d+$/);
    assert.equal(flow.status, 'DRAFT');
    assert.match(flow.updatedAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}(Z|[+-]\d\d:\d\d)$/);
  });

  test('the preview link is signed and lives 30 days', async () => {
    const r = await call(t.url, 'GET', `${FLOWS}/${flow.id}/preview/url`, { key: account.apiKey });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(Object.keys(r.body), ['timestamp', 'data', 'status', 'message', 'errors']);
    assert.equal(r.body.data.id, String(flow.id));
    assert.match(r.body.data.preview.expires_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+0000$/);
    const days = (Date.parse(r.body.data.preview.expires_at.replace('+0000', 'Z')) - Date.now()) / 86_400_000;
    assert.ok(days > 29.9 && days <= 30, `expires in ${days} days`);
    previewUrl = onGateway(t, r.body.data.preview.preview_url);
    const page = await fetch(previewUrl);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-security-policy') ?? '', /script-src 'nonce-/);
    const html = await page.text();
    assert.match(html, /<label for="s0-email">Email<\/label>/);

    // A tampered signature, a changed flow id and an expired-looking token are all the same 404 page.
    const [id, expires, signature] = new URL(previewUrl).pathname.split('/').at(-1)!.split('.');
    for (const token of [
      `${id}.${expires}.${tampered(signature!)}`,
      `${Number(id) + 1}.${expires}.${signature}`,
      `${id}.${Date.now() - 1000}.${signature}`,
      'not-a-token',
    ]) {
      const bad = await fetch(`${t.url}/flows/preview/${token}`);
      assert.equal(bad.status, 404, token);
      assert.match(await bad.text(), /not valid/);
    }
  });

  test('the preview page walks both screens in a browser, with labels, required fields and the keyboard', {
    skip: chromium ? false : 'SWITCHBOARD_CHROMIUM is empty (no chromium installed): browser check skipped',
  }, async () => {
    const browser = await openBrowser(chromium);
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      await page.goto(previewUrl);
      await page.getByRole('heading', { level: 1, name: 'Sign up' }).waitFor();

      // Required inputs keep the user on the first screen.
      await page.getByRole('button', { name: 'Continue' }).click();
      assert.equal(
        await page.getByRole('alert').first().textContent(),
        'Some answers are missing or invalid.',
      );
      assert.equal(await page.getByRole('heading', { level: 1, name: 'Preferences' }).isVisible(), false);

      await page.getByLabel('First name').fill('Ana');
      await page.getByLabel('Email').fill('ana@example.org');
      // Enter in the last field submits the screen, as the Footer button would.
      await page.getByLabel('Email').press('Enter');
      const second = page.getByRole('heading', { level: 1, name: 'Preferences' });
      await second.waitFor();
      assert.equal(
        await page.evaluate(() => (globalThis as any).document.activeElement?.textContent),
        'Preferences',
      );

      // Back returns to the first screen with its answers kept; forward again.
      await page.getByRole('button', { name: 'Back to the previous screen' }).click();
      assert.equal(await page.getByLabel('First name').inputValue(), 'Ana');
      await page.getByRole('button', { name: 'Continue' }).click();
      await second.waitFor();

      await page.getByLabel('Plan').selectOption('pro');
      await page.getByLabel('Send me product news').check();
      await page.getByRole('button', { name: 'Sign up' }).click();
      await page.getByRole('heading', { name: 'Flow completed' }).waitFor();
      const response = JSON.parse((await page.locator('#completed pre').textContent()) ?? '{}');
      assert.deepEqual(response, {
        first_name: 'Ana',
        email: 'ana@example.org',
        plan: 'pro',
        marketing: true,
      });
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  });

  test('publish moves DRAFT to PUBLISHED and moves updatedAt; the list shows it', async () => {
    const r = await call(t.url, 'POST', `${FLOWS}/${flow.id}/publish`, { key: account.apiKey });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.ok('timestamp' in r.body && !('timestam' in r.body));
    assert.equal(r.body.data.status, 'PUBLISHED');
    assert.ok(Date.parse(r.body.data.updatedAt) > Date.parse(flow.updatedAt));

    const list = await call(t.url, 'GET', FLOWS, { key: account.apiKey });
    assert.equal(list.status, 200);
    assert.deepEqual(Object.keys(list.body), ['data', 'totalPages', 'totalItemsInPage', 'totalElements']);
    assert.deepEqual(list.body.data, [r.body.data]);
  });

  test('a send opens the published flow on the phone with a flow_token of its own', async () => {
    const r = await call(t.url, 'POST', '/api/v1/msg/interactive/flows', {
      key: account.apiKey,
      body: {
        messageId: 'flow-send-1',
        from: SANDBOX,
        to: `+${USER}`,
        text: 'Sign up in a minute',
        flowId: String(flow.id),
        flowCta: 'Start',
        screen: 'SIGN_UP',
      },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.data.status, 'SENT');
    sent = r.body.data;
    const onPhone = (await receivedBy(t, USER)).find((m) => m.id === sent.waId);
    const parameters = onPhone.content.interactive.action.parameters;
    assert.equal(onPhone.interactive_type, 'flow');
    assert.equal(parameters.flow_id, flow.waFlowId);
    assert.equal(parameters.mode, 'published');
    assert.match(parameters.flow_token, /^flowtok_[A-Za-z0-9_-]{22}$/);
    assert.deepEqual(parameters.flow_action_payload, { screen: 'SIGN_UP' });

    // The network's id works too, and each send has a token of its own.
    const byNetworkId = await call(t.url, 'POST', '/api/v1/msg/interactive/flows', {
      key: account.apiKey,
      body: {
        messageId: 'flow-send-2',
        from: SANDBOX,
        to: `+${USER}`,
        text: 'Again',
        flowId: flow.waFlowId,
        flowCta: 'Start',
        screen: 'SIGN_UP',
      },
    });
    assert.equal(byNetworkId.status, 200, JSON.stringify(byNetworkId.body));
    const second = (await receivedBy(t, USER)).find((m) => m.id === byNetworkId.body.data.waId);
    assert.notEqual(second.content.interactive.action.parameters.flow_token, parameters.flow_token);

    // Opened at a screen with data, given or not: the phone shows what the message gave, never the
    // screen's `__example__` values, which are the preview's.
    const atPreferences = async (messageId: string, data?: Record<string, string>) => {
      const sentAt = await call(t.url, 'POST', '/api/v1/msg/interactive/flows', {
        key: account.apiKey,
        body: {
          messageId,
          from: SANDBOX,
          to: `+${USER}`,
          text: 'Your preferences',
          flowId: String(flow.id),
          flowCta: 'Choose',
          screen: 'PREFERENCES',
          ...(data ? { data } : {}),
        },
      });
      assert.equal(sentAt.status, 200, JSON.stringify(sentAt.body));
      const opened = await call(t.url, 'GET', `/simulator/users/${USER}/flows/${sentAt.body.data.waId}`);
      assert.equal(opened.status, 200, JSON.stringify(opened.body));
      return opened.body.screens.find((screen: { id: string }) => screen.id === 'PREFERENCES').examples;
    };
    assert.deepEqual(await atPreferences('flow-send-3'), {});
    assert.deepEqual(await atPreferences('flow-send-4', { first_name: 'Wanjiru', email: 'w@example.org' }), {
      first_name: 'Wanjiru',
      email: 'w@example.org',
    });
  });

  test('the user completes the flow: stored, and delivered as message.received nfm_reply', async () => {
    const onPhone = (await receivedBy(t, USER)).find((m) => m.id === sent.waId);
    const flowToken = onPhone.content.interactive.action.parameters.flow_token;
    const answer = { first_name: 'Ana', email: 'ana@example.org', plan: 'pro', marketing: true };
    const reply = await call(t.url, 'POST', `/simulator/users/${USER}/messages`, {
      body: { to: SANDBOX, flowReply: { flowToken, response: answer } },
    });
    assert.equal(reply.status, 202, JSON.stringify(reply.body));

    const event = await eventually(async () =>
      receiver.received.find((r) => r.json?.data?.interactive?.type === 'nfm_reply'),
    );
    assert.equal(event.json.type, 'message.received');
    assert.ok(verifyAsDocumented(endpointSecret, event.headers, event.body), 'signed as documented');
    assert.deepEqual(event.json.data.interactive, {
      type: 'nfm_reply',
      name: 'flow',
      body: 'Sent',
      response: { ...answer, flow_token: flowToken },
    });
    assert.equal(event.json.data.type, 'INTERACTIVE');
    assert.equal(event.json.data.messageId, reply.body.id);
    assert.deepEqual(event.json.data.context, { messageId: sent.waId });

    const stored = await t.gateway.repos.inbound.listOfAccount(account.accountId);
    const row = stored.find((m) => m.waId === reply.body.id);
    assert.ok(row, 'the completion is stored under the account');
    assert.equal(row.type, 'interactive');
    const nfm = JSON.parse(row.payload).interactive.nfm_reply;
    assert.deepEqual(JSON.parse(nfm.response_json), { ...answer, flow_token: flowToken });
  });

  test('a DRAFT flow is sent in draft mode; a deprecated one no longer at all', async () => {
    const draft = await createSignUpFlow(t, account.apiKey, SANDBOX, 'Draft sign up');
    const send = (messageId: string, flowId: string, screen = 'SIGN_UP') =>
      call(t.url, 'POST', '/api/v1/msg/interactive/flows', {
        key: account.apiKey,
        body: { messageId, from: SANDBOX, to: `+${USER}`, text: 'Try it', flowId, flowCta: 'Open', screen },
      });
    const r = await send('draft-1', String(draft.id));
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const onPhone = (await receivedBy(t, USER)).find((m) => m.id === r.body.data.waId);
    assert.equal(onPhone.content.interactive.action.parameters.mode, 'draft');

    const wrongScreen = await send('draft-2', String(draft.id), 'WELCOME');
    assert.equal(wrongScreen.status, 400);
    assert.equal(wrongScreen.body.error, 'Bad Request');
    assert.match(
      wrongScreen.body.message,
      /^`screen` must be one of the screens of flow \d+: SIGN_UP, PREFERENCES/,
    );

    const unknown = await send('draft-3', '999999');
    assert.equal(unknown.status, 404);
    assert.match(unknown.body.message, /no flow "999999" in this account/);

    const deprecated = await call(t.url, 'POST', `${FLOWS}/${flow.id}/deprecate`, { key: account.apiKey });
    assert.equal(deprecated.status, 200, JSON.stringify(deprecated.body));
    assert.equal(deprecated.body.data.status, 'DEPRECATED');
    const refused = await send('deprecated-1', String(flow.id));
    assert.equal(refused.status, 409);
    assert.match(refused.body.message, /DEPRECATED and can no longer be sent/);
  });
});
