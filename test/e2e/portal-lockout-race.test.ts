/**
 * The sign-in lockout under a burst of parallel guesses (docs/portal.md, Lockout): each attempt is counted
 * before its password is checked, in one atomic statement, so of 150 guesses sent at once only the allowed
 * few get a password check, and the right password that follows them is refused. The guesses arrive while
 * no hash can finish (the hashing threads are held), as they would against a busy server. On SQLite (one
 * process whose hashing runs concurrently) and on PostgreSQL with the guesses spread over two nodes.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { MAX_FAILURES } from '../../src/portal/auth/lockout.ts';
import {
  eventually,
  type PostgresNodes,
  startGateway,
  startPostgresNodes,
  type TestGateway,
} from '../support/gateway.ts';
import { PortalClient } from '../support/portal-client.ts';
import { postgresSkipReason } from '../support/postgres.ts';
import { holdThreadPool } from '../support/thread-pool.ts';

const PASSWORD = 'correct horse battery staple';
const GUESSES = 150;
const LOCKED = /Too many failed sign-ins for this email: sign-in is locked for 15 more minutes/;

function tally(statuses: number[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const status of statuses) counts.set(status, (counts.get(status) ?? 0) + 1);
  return counts;
}

async function assertBurstLocksOut(urls: string[], email: string): Promise<void> {
  await new PortalClient(urls[0]!).signUp(email, PASSWORD, 'Burst Co');
  const clients = urls.map((url) => new PortalClient(url));
  // One sign-in page each for the CSRF cookie and token; the guesses reuse them, as a script would.
  for (const client of clients) await client.get('/app/sign-in');
  const owner = new PortalClient(urls.at(-1)!);
  await owner.get('/app/sign-in');

  const release = await holdThreadPool();
  let answered = 0;
  let statuses: Promise<number[]> | undefined;
  try {
    statuses = Promise.all(
      Array.from({ length: GUESSES }, async (_, i) => {
        const client = clients[i % clients.length]!;
        const page = await client.post('/app/sign-in', { email, password: `wrong guess number ${i}` });
        answered++;
        return page.status;
      }),
    );
    // Past the limit a guess is refused at once: it never waits for a password check.
    await eventually(() => answered >= GUESSES - MAX_FAILURES, 30_000).catch(() => {
      throw new Error(`only ${answered} of ${GUESSES} guesses were refused while no hash could finish`);
    });
    const right = await owner.post('/app/sign-in', { email, password: PASSWORD });
    assert.equal(right.status, 429, 'the right password after the burst is refused');
    assert.match(right.html, LOCKED);
  } finally {
    await release();
  }
  const counts = tally(await statuses);
  // The first MAX_FAILURES - 1 guesses are told "wrong"; the MAX_FAILURES-th starts the lockout.
  assert.equal(counts.get(401), MAX_FAILURES - 1, `statuses: ${JSON.stringify([...counts])}`);
  assert.equal(counts.get(429), GUESSES - (MAX_FAILURES - 1), `statuses: ${JSON.stringify([...counts])}`);
  for (const url of urls) {
    const later = await new PortalClient(url).signIn(email, PASSWORD);
    assert.equal(later.status, 429, 'still locked once every guess was checked');
    assert.match(later.html, LOCKED);
  }
  assert.equal(owner.cookies.has('sb_session'), false);
}

describe('sign-in lockout under parallel guesses on SQLite', () => {
  let t: TestGateway;
  before(async () => {
    t = await startGateway();
  });
  after(async () => {
    await t?.close();
  });

  test('150 parallel wrong passwords, then the right one: refused, locked', async () => {
    await assertBurstLocksOut([t.url], 'burst-sqlite@example.org');
  });
});

describe('sign-in lockout under parallel guesses on PostgreSQL, two nodes', async () => {
  const skip = await postgresSkipReason();
  let cluster: PostgresNodes | undefined;
  let a: TestGateway;
  let b: TestGateway;
  before(async () => {
    if (skip) return;
    cluster = await startPostgresNodes(2);
    [a, b] = cluster.nodes as [TestGateway, TestGateway];
  });
  after(async () => {
    await cluster?.close();
  });

  test('150 parallel wrong passwords over both nodes, then the right one: refused, locked', {
    skip,
  }, async () => {
    await assertBurstLocksOut([a.url, b.url], 'burst-pg@example.org');
  });
});
