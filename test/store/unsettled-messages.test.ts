/**
 * Open messages in the store, on SQLite and PostgreSQL (docs/adr/0013): the guarded moves that let a status
 * report settle an unknown outcome and a sweep fail it, on any number of nodes, each exactly once.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createAccount } from '../../src/domain/accounts.ts';
import { sweepUnsettled } from '../../src/domain/unknown-outcomes.ts';
import { createRepositories, type Repositories } from '../../src/store/repositories.ts';
import { openForSuite, storeTargets as targets } from '../support/store-targets.ts';

const BUSINESS = '14155550100';
const UNKNOWN = JSON.stringify({ httpStatus: 504, code: 'network_timeout', message: 'not yet known' });

for (const target of targets) {
  describe(`open messages on ${target.name}`, async () => {
    const skip = await target.skip();
    let repos: Repositories;
    /** Every status change the hooks saw, as `<message id>:<status>`. */
    const changes: string[] = [];

    openForSuite(target, skip, (store) => {
      repos = createRepositories(store, {
        onStatusChange: async (_trx, message, status) => {
          changes.push(`${message.id}:${status}`);
        },
      });
    });

    let n = 0;
    /** A claim made by `claim`, as its outcome is recorded. */
    const subject = (accountId: string, id: string) => ({
      id,
      accountId,
      clientMessageId: id,
      fromPhone: BUSINESS,
      toPhone: '254712345678',
    });

    async function claim(accountId: string, createdAt = Date.now()) {
      const id = `msg_open_${target.name}_${++n}`;
      const row = {
        id,
        accountId: accountId,
        clientMessageId: id,
        requestHash: 'h',
        kind: 'text',
        fromPhone: BUSINESS,
        toPhone: '254712345678',
        content: '{}',
        createdAt: createdAt,
        updatedAt: createdAt,
      };
      assert.equal(await repos.messages.reserve(row), null);
      return id;
    }
    const stored = async (accountId: string, id: string) =>
      (await repos.messages.findByClientId(accountId, id))!;
    const statuses = async (id: string) => (await repos.messages.timeline(id)).map((e) => e.status);

    test('an unknown outcome is marked once, keeps its reason, and is not marked once settled', {
      skip,
    }, async () => {
      const a = await createAccount(repos.accounts, 'Marked');
      const id = await claim(a.id);
      assert.equal(await repos.messages.markUnknown(id, 5000, UNKNOWN), true);
      assert.equal(
        await repos.messages.markUnknown(id, 6000, '{"other":1}'),
        false,
        'the first reason stands',
      );
      const row = await stored(a.id, id);
      assert.equal(row.status, 'PENDING');
      assert.equal(row.error, UNKNOWN);
      assert.equal(row.updatedAt, 5000);

      const settled = await claim(a.id);
      await repos.messages.markAccepted(subject(a.id, settled), 'wamid.MARKED', 1000);
      assert.equal(await repos.messages.markUnknown(settled, 2000, UNKNOWN), false);
      assert.equal((await stored(a.id, settled)).error, null);
    });

    test('a status settles only an open message from its number and account, once, and is applied', {
      skip,
    }, async () => {
      const a = await createAccount(repos.accounts, 'Owner');
      const b = await createAccount(repos.accounts, 'Stranger');
      const id = await claim(a.id);
      await repos.messages.markUnknown(id, 1000, UNKNOWN);
      // The status arrives first and waits: no message has its network id yet.
      assert.equal(await repos.messages.applyNetworkStatus('wamid.OPEN', 'DELIVERED', 3000, null), false);

      const own = { phone: BUSINESS, accountId: a.id };
      assert.equal(
        await repos.messages.findOpenFor(id, { phone: '14155550199', accountId: null }),
        undefined,
      );
      assert.equal(await repos.messages.findOpenFor(id, { phone: BUSINESS, accountId: b.id }), undefined);
      assert.equal((await repos.messages.findOpenFor(id, own))?.id, id);
      assert.equal(
        await repos.messages.settleFromNetwork(
          id,
          { phone: '14155550199', accountId: null },
          'wamid.X',
          2000,
        ),
        false,
      );
      assert.equal(
        await repos.messages.settleFromNetwork(id, { phone: BUSINESS, accountId: b.id }, 'wamid.X', 2000),
        false,
      );
      assert.deepEqual(await statuses(id), [], 'nothing moved');

      assert.equal(await repos.messages.settleFromNetwork(id, own, 'wamid.OPEN', 2000), true);
      const row = await stored(a.id, id);
      assert.equal(row.waId, 'wamid.OPEN');
      assert.equal(row.status, 'DELIVERED', 'the status that waited is applied');
      assert.equal(row.error, null);
      assert.deepEqual(await statuses(id), ['SENT', 'DELIVERED']);
      assert.equal(await repos.messages.settleFromNetwork(id, own, 'wamid.OTHER', 4000), false, 'once');
      assert.equal((await stored(a.id, id)).waId, 'wamid.OPEN');
      // A sandbox sender (no account) matches any account's message from the sandbox number.
      const shared = await claim(b.id);
      assert.equal(
        await repos.messages.settleFromNetwork(
          shared,
          { phone: BUSINESS, accountId: null },
          'wamid.SB',
          2000,
        ),
        true,
      );
    });

    test('the sweep lists abandoned claims and expired unknown outcomes only', { skip }, async () => {
      const a = await createAccount(repos.accounts, 'Listed');
      const now = 10_000_000;
      const abandoned = await claim(a.id, now - 70_000);
      const inFlight = await claim(a.id, now - 1000);
      const expired = await claim(a.id, now - 400_000);
      await repos.messages.markUnknown(expired, now - 301_000, UNKNOWN);
      const waiting = await claim(a.id, now - 400_000);
      await repos.messages.markUnknown(waiting, now - 100_000, UNKNOWN);
      const done = await claim(a.id, now - 400_000);
      await repos.messages.markAccepted(subject(a.id, done), 'wamid.LISTED', now - 399_000);

      const due = await repos.messages.listUnsettled(now - 60_000, now - 300_000, 100);
      const ids = due
        .map((m) => m.id)
        .filter((id) => [abandoned, inFlight, expired, waiting, done].includes(id));
      assert.deepEqual(ids.sort(), [abandoned, expired].sort());
    });

    test('an unknown outcome is FAILED once, with its event; a settled one never', { skip }, async () => {
      const a = await createAccount(repos.accounts, 'Failing');
      const open = await claim(a.id);
      assert.equal(
        await repos.messages.failUnsettled(open, 2000, '{"final":1}'),
        false,
        'not marked unknown',
      );
      await repos.messages.markUnknown(open, 1000, UNKNOWN);
      assert.equal(await repos.messages.failUnsettled(open, 2000, '{"final":1}'), true);
      assert.equal(await repos.messages.failUnsettled(open, 3000, '{"final":2}'), false);
      assert.equal((await stored(a.id, open)).error, '{"final":1}');
      assert.deepEqual(await statuses(open), ['FAILED']);
      assert.deepEqual(
        changes.filter((c) => c.startsWith(`${open}:`)),
        [`${open}:FAILED`],
      );

      const settled = await claim(a.id);
      await repos.messages.markUnknown(settled, 1000, UNKNOWN);
      await repos.messages.settleFromNetwork(settled, { phone: BUSINESS, accountId: a.id }, 'wamid.FS', 1500);
      assert.equal(await repos.messages.failUnsettled(settled, 2000, '{"final":1}'), false);
      assert.equal((await stored(a.id, settled)).status, 'SENT');
    });

    test('sweeps on several nodes and status reports racing them move each message once', {
      skip,
    }, async () => {
      const a = await createAccount(repos.accounts, 'Racing');
      const longAgo = Date.now() - 3_600_000;
      const ids: string[] = [];
      for (let i = 0; i < 20; i++) {
        const id = await claim(a.id, longAgo);
        await repos.messages.markUnknown(id, longAgo, UNKNOWN);
        ids.push(id);
      }
      const sweep = () =>
        sweepUnsettled({
          messages: repos.messages,
          abandonedClaimMs: 60_000,
          unknownOutcomeMs: 1000,
          now: Date.now,
        });
      const own = { phone: BUSINESS, accountId: a.id };
      // Three nodes sweep while the network's reports for every other message arrive.
      await Promise.all([
        sweep(),
        sweep(),
        sweep(),
        ...ids
          .filter((_, i) => i % 2 === 0)
          .map((id, i) => repos.messages.settleFromNetwork(id, own, `wamid.RACE${i}`, Date.now())),
      ]);
      for (const id of ids) {
        const moves = changes.filter((c) => c.startsWith(`${id}:`));
        const timeline = await statuses(id);
        assert.ok(
          (moves.length === 1 && moves[0] === `${id}:FAILED`) ||
            (moves.length === 1 && moves[0] === `${id}:SENT`),
          `${id} moved ${JSON.stringify(moves)}`,
        );
        assert.equal(timeline.length, 1, `${id}: ${JSON.stringify(timeline)}`);
      }
    });
  });
}
