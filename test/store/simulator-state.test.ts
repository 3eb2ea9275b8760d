/**
 * The simulator's state store over the gateway's database (src/store/simulator-state-repo.ts), on SQLite
 * and PostgreSQL: a batch upserts and deletes in one transaction, large batches are split into several
 * statements, and what was written is what loads.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Store } from '../../src/store/connect.ts';
import { simulatorStateRepo } from '../../src/store/simulator-state-repo.ts';
import { openForSuite, storeTargets as targets } from '../support/store-targets.ts';

for (const target of targets) {
  describe(`simulator state on ${target.name}`, async () => {
    const skip = await target.skip();
    let store: Store;

    openForSuite(target, skip, (opened) => {
      store = opened;
    });

    test('writes, overwrites and deletes records by kind and key', { skip }, async () => {
      const repo = simulatorStateRepo(store.db);
      await repo.write([
        { kind: 'flow', key: '1', value: '{"status":"DRAFT"}' },
        { kind: 'window', key: '1', value: '{"openedAt":5}' },
      ]);
      await repo.write([
        { kind: 'flow', key: '1', value: '{"status":"PUBLISHED"}' },
        { kind: 'window', key: '1', value: null },
      ]);
      const rows = await repo.load();
      assert.deepEqual(rows, [{ kind: 'flow', key: '1', value: '{"status":"PUBLISHED"}' }]);
    });

    test('a batch larger than one statement holds is written whole', { skip }, async () => {
      const repo = simulatorStateRepo(store.db);
      const many = Array.from({ length: 1000 }, (_, i) => ({
        kind: 'phone.sent',
        key: `u/${i}`,
        value: `${i}`,
      }));
      await repo.write(many);
      assert.equal((await repo.load()).filter((r) => r.kind === 'phone.sent').length, 1000);
      await repo.write(many.map((c) => ({ ...c, value: null })));
      assert.equal((await repo.load()).filter((r) => r.kind === 'phone.sent').length, 0);
    });
  });
}
