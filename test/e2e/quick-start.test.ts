/**
 * The README's five-minute quick start, run verbatim: the gateway started as `npm start` starts it (the
 * demo account printed on first start), then every `sh` block of the quick start executed in order by
 * bash with the printed key and code, right after one another, with no waiting in between. Step 3
 * right after step 2 must work: the simulator answers a user's message once the gateway took it. Then
 * step 5 in a real headless Chromium: the printed one-time link sets the demo account's portal password,
 * and the portal's message log shows `hello-1`; the link does not work twice.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openBrowser } from '../support/browser.ts';
import { type GatewayProcess, spawnGateway } from '../support/process.ts';

const chromium = process.env.SWITCHBOARD_CHROMIUM ?? '';
const README = readFileSync(path.join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');

/** The `sh` blocks of the quick start, in order. */
function quickStartBlocks(): string[] {
  const start = README.indexOf('## Five-minute quick start');
  const section = README.slice(start, README.indexOf('\n## ', start + 1));
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!.replace(/^ {3}/gm, ''));
}

describe('the README quick start, verbatim', () => {
  let dataDir: string;
  let gateway: GatewayProcess;
  let key: string;
  let code: string;
  let portalPath: string;

  before(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-quick-start-'));
    gateway = await spawnGateway({ DATA_DIR: dataDir, SEED_DEMO_ACCOUNT: 'true', LOG_LEVEL: 'info' });
    const printed = gateway.output.join('\n');
    key = /apiKey\s+(sb_live_\S+)/.exec(printed)?.[1] ?? '';
    code = /joinCode\s+(\S+)/.exec(printed)?.[1] ?? '';
    portalPath = /portalLink\s+https?:\/\/[^/\s]+(\/app\/invite\/\S+)/.exec(printed)?.[1] ?? '';
  });
  after(async () => {
    await gateway?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  test('the first start prints the key, the join code and the portal link the README names', () => {
    assert.match(key, /^sb_live_[0-9A-Za-z]{32}$/);
    assert.match(code, /^[a-z]+-[a-z]+-[a-z]+-\d{6}$/);
    assert.match(portalPath, /^\/app\/invite\/[A-Za-z0-9_-]{43}$/);
  });

  test('steps 2 to 4 run as written, one right after the other', () => {
    const blocks = quickStartBlocks();
    assert.equal(blocks.length, 3, 'steps 2, 3 and 4');
    const port = new URL(gateway.url).port;
    const run = (block: string) =>
      execFileSync('bash', ['-e', '-c', block.replaceAll('localhost:3000', `127.0.0.1:${port}`)], {
        env: { ...process.env, KEY: key, CODE: code },
        encoding: 'utf8',
      });
    const joined = JSON.parse(run(blocks[0]!));
    assert.match(joined.id, /^wamid\./);
    const sent = JSON.parse(run(blocks[1]!));
    assert.equal(sent.status, 'success', JSON.stringify(sent));
    assert.equal(sent.data.messageId, 'hello-1');
    assert.equal(sent.data.status, 'SENT');
    // Step 4 is two commands, one per line; curl prints each answer without a line break after it.
    const [phoneCommand, statusCommand] = blocks[2]!.trim().split('\n');
    const phone = JSON.parse(run(phoneCommand!));
    assert.ok(phone.messages.some((m: { rendered: string }) => m.rendered === 'Hello from Switchboard'));
    const lookup = JSON.parse(run(statusCommand!));
    assert.equal(lookup.data.messageId, 'hello-1');
    assert.match(lookup.data.status, /^(SENT|DELIVERED|READ)$/);
  });

  // After the steps above, which sent hello-1 (a file's tests run in order).
  test('step 5: the portal link sets a password once, and the message log shows hello-1', {
    skip: chromium ? false : 'SWITCHBOARD_CHROMIUM is empty (no chromium installed): browser check skipped',
  }, async () => {
    const browser = await openBrowser(chromium);
    try {
      const page = await browser.newPage();
      await page.goto(gateway.url + portalPath);
      await page.getByRole('heading', { level: 1, name: 'Set your password' }).waitFor();
      await page.getByLabel('Email').fill('owner@demo.example');
      await page.getByLabel('Password').fill('a long demo password');
      await page.getByRole('button', { name: 'Set password' }).click();
      await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
      assert.match((await page.getByRole('status').first().textContent()) ?? '', /Your password is set/);
      await page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'Messages' }).click();
      const row = page.getByRole('row', { name: /Hello from Switchboard/ });
      await row.waitFor();
      assert.match((await row.textContent()) ?? '', /hello-1/);

      // The link is used up: opening it again says so, in a fresh browser with no session.
      const again = await (await browser.newContext()).newPage();
      const response = await again.goto(gateway.url + portalPath);
      assert.equal(response?.status(), 410);
      // The password chosen signs in from now on.
      await again.goto(`${gateway.url}/app/sign-in`);
      await again.getByLabel('Email').fill('owner@demo.example');
      await again.getByLabel('Password').fill('a long demo password');
      await again.getByRole('button', { name: 'Sign in' }).click();
      await again.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    } finally {
      await browser.close();
    }
  });
});
