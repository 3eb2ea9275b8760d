/**
 * Guessing join codes on the sandbox number: after a few attempts from one phone, further ones (even with
 * the right code) are refused for a while, and the refusal names no business; the sandbox as a whole takes
 * a bounded number of attempts a minute. On PostgreSQL the counts are shared by the nodes.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_SANDBOX_NUMBER } from '../../src/config/config.ts';
import {
  createAccount,
  eventually,
  receivedBy,
  startGateway,
  TEST_SECRET_KEY,
  type TestAccount,
  type TestGateway,
  userSays,
} from '../support/gateway.ts';
import { postgresSkipReason } from '../support/postgres.ts';

const SANDBOX = DEFAULT_SANDBOX_NUMBER;
const BUSINESS = 'Hidden Bakery';
const WRONG = [
  'amber-falcon-123',
  'cedar-lotus-oak-000001',
  'pine-crane-937',
  'nova-reef-wren-424242',
  'x-y-1',
];

/** The user writes `join <code>` and waits for the sandbox's answer: the answer's text. */
async function attempt(t: TestGateway, user: string, code: string): Promise<string> {
  const before = (await receivedBy(t, user)).length;
  await userSays(t, user, SANDBOX, { text: `join ${code}` });
  const replies = await eventually(async () => {
    const messages = await receivedBy(t, user);
    return messages.length > before && messages;
  });
  return replies.at(-1).rendered as string;
}

const memberOf = (t: TestGateway, user: string) =>
  t.gateway.repos.conversations.sandboxAccountOf(SANDBOX, user);

for (const database of ['sqlite', 'postgres'] as const) {
  describe(`join attempts are limited (${database})`, async () => {
    const skip = database === 'postgres' ? await postgresSkipReason() : false;
    let t: TestGateway;
    let account: TestAccount;
    before(async () => {
      if (skip) return;
      t = await startGateway({ database, env: { SANDBOX_JOIN_ATTEMPTS_PER_MINUTE: '1000' } });
      account = await createAccount(t, BUSINESS);
    });
    after(() => t?.close());

    test('after five wrong codes from one phone, even the right code is refused, naming nobody', {
      skip,
    }, async () => {
      const user = '254712399201';
      for (const code of WRONG) {
        const reply = await attempt(t, user, code);
        assert.match(reply, /is not a known join code/);
        assert.ok(!reply.includes(BUSINESS));
      }
      const refused = await attempt(t, user, account.joinCode);
      assert.match(refused, /^Too many join attempts\. Wait a minute, then send the code again\.$/);
      assert.ok(!refused.includes(BUSINESS));
      assert.equal(await memberOf(t, user), undefined, 'not joined');
      // A wrong code is refused in the very same words: the refusal tells nothing about the code.
      assert.equal(await attempt(t, user, WRONG[0]!), refused);

      // Another phone is not held by this one's attempts.
      const other = '254712399202';
      assert.match(
        await attempt(t, other, account.joinCode),
        new RegExp(`connected to the ${BUSINESS} sandbox`),
      );
      assert.equal(await memberOf(t, other), account.accountId);
    });
  });
}

describe('the sandbox as a whole takes a bounded number of attempts a minute', () => {
  let t: TestGateway;
  let account: TestAccount;
  before(async () => {
    t = await startGateway({ env: { SANDBOX_JOIN_ATTEMPTS_PER_MINUTE: '3' } });
    account = await createAccount(t, BUSINESS);
  });
  after(() => t.close());

  test('three phones guess once each; a fourth phone with the right code is refused', async () => {
    for (const user of ['254712399301', '254712399302', '254712399303']) {
      assert.match(await attempt(t, user, WRONG[1]!), /is not a known join code/);
    }
    const user = '254712399304';
    const refused = await attempt(t, user, account.joinCode);
    assert.match(refused, /^Too many join attempts\. Wait a minute, then send the code again\.$/);
    assert.equal(await memberOf(t, user), undefined);
  });
});

describe('two nodes on one PostgreSQL count the attempts of a phone together', async () => {
  const skip = await postgresSkipReason();
  let a: TestGateway;
  let b: TestGateway;
  let account: TestAccount;
  before(async () => {
    if (skip) return;
    a = await startGateway({ database: 'postgres' });
    // The second node on the first one's schema and key, with its own simulator.
    b = await startGateway({
      env: { DATABASE_URL: a.gateway.config.databaseUrl, SECRET_KEY: TEST_SECRET_KEY },
    });
    account = await createAccount(a, BUSINESS);
  });
  after(async () => {
    await b?.close();
    await a?.close();
  });

  test('three wrong codes on one node and two on the other: the right code is then refused', {
    skip,
  }, async () => {
    const user = '254712399401';
    for (const code of WRONG.slice(0, 3)) assert.match(await attempt(a, user, code), /not a known join code/);
    for (const code of WRONG.slice(3)) assert.match(await attempt(b, user, code), /not a known join code/);
    assert.match(await attempt(b, user, account.joinCode), /^Too many join attempts/);
    assert.match(await attempt(a, user, account.joinCode), /^Too many join attempts/);
    assert.equal(await memberOf(a, user), undefined);
  });
});
