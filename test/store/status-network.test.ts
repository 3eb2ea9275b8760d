/**
 * A network status carries the network's status object (`network`, JSON) to the hook that writes its
 * `message.status` event, on SQLite and PostgreSQL: when the message is known, and when the status
 * arrived first and waited for the send to record its network id. A status that arrives while this node
 * is writing its send's network id waits for that write rather than being parked as unmatched. A status
 * that skips a step applies first the step another node parked, so that both move the message in order.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { KyselyPlugin } from 'kysely';
import { createAccount } from '../../src/domain/accounts.ts';
import type { Store } from '../../src/store/connect.ts';
import { createRepositories } from '../../src/store/repositories.ts';
import { openForSuite, storeTargets as targets } from '../support/store-targets.ts';

const claim = (accountId: string, clientId: string) => ({
  id: `msg_${clientId}_${Math.random().toString(36).slice(2)}`,
  accountId,
  clientMessageId: clientId,
  requestHash: 'h',
  kind: 'text',
  fromPhone: '14155550100',
  toPhone: '254712345678',
  content: '{}',
  createdAt: Date.now(),
  updatedAt: Date.now(),
});

for (const target of targets) {
  describe(`the network's status object reaches the event hook, on ${target.name}`, async () => {
    const skip = await target.skip();
    const seen: { status: string; network: string | null | undefined }[] = [];
    let repos: ReturnType<typeof createRepositories>;
    /** Statuses parked in unmatched_statuses, counted from the statements themselves. */
    let parked = 0;
    const countParked: KyselyPlugin = {
      transformQuery({ node }) {
        if (node.kind === 'InsertQueryNode' && JSON.stringify(node.into).includes('"unmatched_statuses"'))
          parked++;
        return node;
      },
      transformResult: async ({ result }) => result,
    };

    let db: Store['db'];
    openForSuite(target, skip, (store) => {
      db = store.db;
      repos = createRepositories(
        { ...store, db: store.db.withPlugin(countParked) },
        {
          onStatusChange: async (_trx, _message, status, _at, _error, network) => {
            seen.push({ status, network });
          },
        },
      );
    });

    test('for a known message, and for a status that waited for its send', { skip }, async () => {
      const account = await createAccount(repos.accounts, 'Network Co');
      const known = claim(account.id, 'known');
      await repos.messages.reserve(known);
      await repos.messages.markAccepted(known, 'wamid.KNOWN', 1000);
      const delivered = {
        id: 'wamid.KNOWN',
        status: 'delivered',
        pricing: { category: 'service' },
      };
      await repos.messages.applyNetworkStatus('wamid.KNOWN', 'DELIVERED', 2000, null, delivered);

      const early = claim(account.id, 'early');
      await repos.messages.reserve(early);
      const read = { id: 'wamid.EARLY', status: 'read' };
      assert.equal(await repos.messages.applyNetworkStatus('wamid.EARLY', 'READ', 2000, null, read), false);
      await repos.messages.markAccepted(early, 'wamid.EARLY', 1000);

      assert.deepEqual(seen, [
        { status: 'SENT', network: undefined },
        { status: 'DELIVERED', network: JSON.stringify(delivered) },
        { status: 'SENT', network: undefined },
        { status: 'READ', network: JSON.stringify(read) },
      ]);
    });

    test('a status arriving while its send writes the network id waits for the write', { skip }, async () => {
      const account = await createAccount(repos.accounts, 'Racing Co');
      const busy = claim(account.id, 'busy');
      const racing = claim(account.id, 'racing');
      await repos.messages.reserve(busy);
      await repos.messages.reserve(racing);
      const before = parked;
      // Another send's outcome is being written: on PostgreSQL this one's goes in the next batch, while
      // the status's read goes at once.
      const writes = [
        repos.messages.markAccepted(busy, 'wamid.BUSY', 1000),
        repos.messages.markAccepted(racing, 'wamid.RACING', 1000),
      ];
      const applied = repos.messages.applyNetworkStatus('wamid.RACING', 'DELIVERED', 2000, null, {});
      await Promise.all(writes);
      assert.equal(await applied, true);
      assert.equal(parked - before, 0, 'the status was applied, not parked as unmatched');
      const message = await repos.messages.findByClientId(account.id, 'racing');
      assert.equal(message?.status, 'DELIVERED');
    });

    test('a step another node parked before the id was recorded is applied before a later one skips it', {
      skip,
    }, async () => {
      const account = await createAccount(repos.accounts, 'Parked Co');
      const message = claim(account.id, 'parked');
      await repos.messages.reserve(message);
      await repos.messages.markAccepted(message, 'wamid.PARKED', 1000);
      // Another node took DELIVERED while the id was not recorded yet, and parked it; the sending node has
      // recorded the id but not yet looked for parked statuses when READ reaches a third node.
      await db
        .insertInto('unmatched_statuses')
        .values({
          id: 'ust_parked',
          wa_id: 'wamid.PARKED',
          status: 'DELIVERED',
          at: 2000,
          error: null,
          network: '{}',
        })
        .execute();
      seen.length = 0;
      assert.equal(await repos.messages.applyNetworkStatus('wamid.PARKED', 'READ', 2000, null, {}), true);
      assert.deepEqual(
        seen.map((s) => s.status),
        ['DELIVERED', 'READ'],
        'each step moved the message, with its event',
      );
      const left = await db
        .selectFrom('unmatched_statuses')
        .select('id')
        .where('wa_id', '=', 'wamid.PARKED')
        .execute();
      assert.deepEqual(left, []);
    });
  });
}
