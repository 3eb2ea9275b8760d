/** The operator CLI: a real process where the process is under test, in the suite's own process elsewhere, against a real SQLite file. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { optOutEvent } from '../../src/domain/opt-outs.ts';
import { openStore } from '../../src/store/connect.ts';
import { createRepositories } from '../../src/store/repositories.ts';
import { startGateway } from '../support/gateway.ts';
import { cliInProcess, runCli } from '../support/process.ts';

const dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-cli-'));
const env = {
  DATA_DIR: dataDir,
  DATABASE_URL: `sqlite:${path.join(dataDir, 'cli.db')}`,
  NETWORK: 'simulator',
};
after(() => rmSync(dataDir, { recursive: true, force: true }));

test('accounts create --json prints one JSON line with the four documented keys', () => {
  const r = runCli(['accounts', 'create', '--name', 'Acme', '--json'], env);
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.trim().split('\n');
  assert.equal(lines.length, 1);
  const out = JSON.parse(lines[0]!);
  assert.deepEqual(Object.keys(out), ['accountId', 'apiKey', 'joinCode', 'sandboxNumber']);
  assert.match(out.accountId, /^acc_/);
  assert.match(out.apiKey, /^sb_live_/);
  assert.equal(out.sandboxNumber, '+14155550100');

  const list = JSON.parse(runCli(['accounts', 'list', '--json'], env).stdout);
  assert.equal(list[0].accountId, out.accountId);
  assert.equal(JSON.stringify(list).includes(out.apiKey), false, 'keys are never listed');
});

test('keys: create, list by prefix, revoke; numbers: add and list', async () => {
  const { accountId } = JSON.parse(
    (await cliInProcess(['accounts', 'create', '--name', 'Keys Co', '--json'], env)).stdout,
  );
  const key = JSON.parse(
    (await cliInProcess(['keys', 'create', '--account', accountId, '--name', 'ci', '--json'], env)).stdout,
  );
  assert.ok(key.apiKey.startsWith(key.prefix));
  const keys = JSON.parse(
    (await cliInProcess(['keys', 'list', '--account', accountId, '--json'], env)).stdout,
  );
  assert.equal(keys.length, 2);
  assert.equal(
    (await cliInProcess(['keys', 'revoke', '--account', accountId, '--key', key.prefix], env)).status,
    0,
  );
  const again = await cliInProcess(['keys', 'revoke', '--account', accountId, '--key', key.prefix], env);
  assert.equal(again.status, 2);
  assert.match(again.stderr, /no active key/);

  const added = JSON.parse(
    (
      await cliInProcess(
        ['numbers', 'add', '--account', accountId, '--phone', '+1 415 555 0123', '--json'],
        env,
      )
    ).stdout,
  );
  assert.deepEqual(added.phone, '+14155550123');
  assert.equal(added.phoneNumberId, '14155550123');
  assert.equal(added.wabaId, null);
  const withWaba = JSON.parse(
    (
      await cliInProcess(
        [
          'numbers',
          'add',
          '--account',
          accountId,
          '--phone',
          '+14155550124',
          '--waba-id',
          '102290129340398',
          '--json',
        ],
        env,
      )
    ).stdout,
  );
  assert.equal(withWaba.wabaId, '102290129340398');
  const listed = JSON.parse(
    (await cliInProcess(['numbers', 'list', '--account', accountId, '--json'], env)).stdout,
  );
  assert.deepEqual(listed.map((n: { phone: string; wabaId: string | null }) => [n.phone, n.wabaId]).sort(), [
    ['+14155550123', null],
    ['+14155550124', '102290129340398'],
  ]);
  const badWaba = await cliInProcess(
    ['numbers', 'add', '--account', accountId, '--phone', '+14155550125', '--waba-id', 'waba-1'],
    env,
  );
  assert.equal(badWaba.status, 2);
  assert.match(badWaba.stderr, /--waba-id must be the numeric id/);
  const dup = await cliInProcess(['numbers', 'add', '--account', accountId, '--phone', '+14155550123'], env);
  assert.equal(dup.status, 2);
  assert.match(dup.stderr, /registered already/);
  const bad = await cliInProcess(['numbers', 'add', '--account', accountId, '--phone', '123'], env);
  assert.match(bad.stderr, /--phone must be a valid phone number/);

  // The number's throughput tier: set, refused out of range, back to the default.
  const tier = (perSecond: string) =>
    cliInProcess(
      ['numbers', 'throughput', '--account', accountId, '--phone', '+14155550123', '--per-second', perSecond],
      env,
    );
  const raised = await tier('1000');
  assert.equal(raised.status, 0, raised.stderr);
  assert.match(raised.stdout, /paced to 1000 per second/);
  const tooHigh = await tier('5000');
  assert.equal(tooHigh.status, 2);
  assert.match(tooHigh.stderr, /--per-second must be a whole number from 1 to 1000/);
  assert.match((await tier('default')).stdout, /paced to 80 per second \(the default\)/);

  // The number's messaging limit: one of Meta's, or unlimited; anything else names the option.
  const limit = (value: string) =>
    cliInProcess(
      ['numbers', 'messaging-limit', '--account', accountId, '--phone', '+14155550123', '--limit', value],
      env,
    );
  const capped = await limit('1,000');
  assert.equal(capped.status, 0, capped.stderr);
  assert.match(capped.stdout, /campaigns from \+14155550123 reach at most 1000 new users in 24 hours/);
  const unknown = await limit('300');
  assert.equal(unknown.status, 2);
  assert.match(
    unknown.stderr,
    /--limit must be one of Meta's limits: 250, 1000, 2000, 10000, 100000, or unlimited/,
  );
  assert.match((await limit('unlimited')).stdout, /may reach any number of users \(unlimited\)/);
});

test('portal links: accounts create --email and users invite print a one-time link; rules name the option', async () => {
  const envWithUrl = { ...env, PUBLIC_URL: 'https://gw.example' };
  const created = await cliInProcess(
    ['accounts', 'create', '--name', 'Linked', '--email', 'Owner@Linked.example', '--json'],
    envWithUrl,
  );
  assert.equal(created.status, 0, created.stderr);
  const out = JSON.parse(created.stdout);
  assert.match(out.portalLink, /^https:\/\/gw\.example\/app\/invite\/[A-Za-z0-9_-]{43}$/);
  assert.ok(Date.parse(out.expiresAt) > Date.now());

  const invited = await cliInProcess(['users', 'invite', '--account', out.accountId, '--json'], envWithUrl);
  assert.equal(invited.status, 0, invited.stderr);
  const link = JSON.parse(invited.stdout);
  assert.deepEqual(Object.keys(link), ['portalLink', 'expiresAt']);
  assert.notEqual(link.portalLink, out.portalLink, 'every link is new');
  const text = await cliInProcess(
    ['users', 'invite', '--account', out.accountId, '--email', 'ops@linked.example'],
    env,
  );
  assert.match(text.stdout, /^portal link http:\/\/localhost:3000\/app\/invite\/\S+ \(works once, until /);

  const before = JSON.parse((await cliInProcess(['accounts', 'list', '--json'], env)).stdout).length;
  const bad = await cliInProcess(['accounts', 'create', '--name', 'Bad', '--email', 'not-an-email'], env);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--email must be an email address/);
  assert.equal(
    JSON.parse((await cliInProcess(['accounts', 'list', '--json'], env)).stdout).length,
    before,
    'no account made',
  );
  const unknown = await cliInProcess(['users', 'invite', '--account', 'acc_nope'], env);
  assert.equal(unknown.status, 2);
  assert.match(unknown.stderr, /no account acc_nope/);
});

test("opt-outs list: the account's latest, as the API lists them; a bad filter names its option", async () => {
  const { accountId } = JSON.parse(
    (await cliInProcess(['accounts', 'create', '--name', 'Stops Co', '--json'], env)).stdout,
  );
  const empty = JSON.parse(
    (await cliInProcess(['opt-outs', 'list', '--account', accountId, '--json'], env)).stdout,
  );
  assert.deepEqual(empty, { optOuts: [], total: 0 });
  // An opt-out as the gateway records one (a user's STOP), written to the same database.
  const store = openStore(env.DATABASE_URL);
  const at = Date.UTC(2026, 10, 26, 21, 0, 0);
  const stop = {
    businessPhone: '14155550123',
    user: '447911123456',
    at,
    source: 'keyword' as const,
    keyword: 'STOP',
  };
  await createRepositories(store).optOuts.optOut(accountId, stop, optOutEvent);
  await store.close();
  const listed = JSON.parse(
    (
      await cliInProcess(
        ['opt-outs', 'list', '--account', accountId, '--number', '+14155550123', '--json'],
        env,
      )
    ).stdout,
  );
  assert.deepEqual(listed, { optOuts: [optOutEvent(stop)], total: 1 });
  const text = (await cliInProcess(['opt-outs', 'list', '--account', accountId], env)).stdout;
  assert.equal(text.trim(), '2026-11-26T21:00:00.000Z  +447911123456  +14155550123  keyword STOP');
  const bad = await cliInProcess(['opt-outs', 'list', '--account', accountId, '--number', 'shop'], env);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--number must be a phone number with country code/);
});

test("simulator access-token prints the Bearer token this install's simulated Graph API takes", async () => {
  const t = await startGateway();
  try {
    const printed = await cliInProcess(['simulator', 'access-token', '--json'], { DATA_DIR: t.dataDir });
    assert.equal(printed.status, 0, printed.stderr);
    const { accessToken } = JSON.parse(printed.stdout);
    const send = (token: string) =>
      fetch(`${t.url}/simulator/v23.0/14155550100/messages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          messaging_product: 'whatsapp',
          to: '254712340001',
          type: 'text',
          text: { body: 'hi' },
        }),
      });
    const accepted = await send(accessToken);
    assert.equal(accepted.status, 200, await accepted.clone().text());
    const sent = (await accepted.json()) as { messages: { id: string }[] };
    assert.match(sent.messages[0]!.id, /^wamid\./);
    const refused = await send(`${accessToken}x`);
    assert.equal(refused.status, 401);
    assert.equal(((await refused.json()) as { error: { code: number } }).error.code, 190);
  } finally {
    await t.close();
  }
});

test('usage errors exit 2 and say what is wrong', () => {
  const r = runCli(['accounts', 'create'], env);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--name is required/);
  const unknown = runCli(['frobnicate'], env);
  assert.equal(unknown.status, 2);
  assert.match(unknown.stderr, /unknown command "frobnicate"/);
  const cloud = runCli(['numbers', 'add', '--account', 'acc_x', '--phone', '+14155550123'], {
    ...env,
    NETWORK: 'cloud',
  });
  assert.equal(cloud.status, 2);
  assert.match(cloud.stderr, /NETWORK=cloud needs/);
});
