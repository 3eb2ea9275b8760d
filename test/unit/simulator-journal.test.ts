/**
 * The simulator's state journal (src/simulator/state/journal.ts) over an in-memory store: changes are
 * written in batches, a record noted twice is written once as it last was, `settled` waits for exactly
 * the changes noted before it, and a failed write is retried without losing a change (a newer value
 * noted meanwhile wins). A journal without a store writes nothing and never waits.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { StateJournal } from '../../src/simulator/state/journal.ts';
import type { SimulatorStateStore, StateChange, StateRecord } from '../../src/simulator/state/store-port.ts';

/** Records in a Map; `failNext` makes the next write throw before it changes anything. */
function memoryStore() {
  const records = new Map<string, StateRecord>();
  const batches: StateChange[][] = [];
  let failNext = 0;
  const store: SimulatorStateStore = {
    async load() {
      return [...records.values()];
    },
    async write(changes) {
      if (failNext > 0) {
        failNext--;
        throw new Error('database unavailable');
      }
      batches.push([...changes]);
      for (const c of changes) {
        const id = `${c.kind}/${c.key}`;
        if (c.value === null) records.delete(id);
        else records.set(id, { kind: c.kind, key: c.key, value: c.value });
      }
    },
  };
  return {
    store,
    batches,
    value: (kind: string, key: string) => records.get(`${kind}/${key}`)?.value,
    failWrites: (n: number) => {
      failNext = n;
    },
  };
}

describe('the simulator state journal', () => {
  test('changes of one turn are one batch; a record changed twice is written once, as it last was', async () => {
    const m = memoryStore();
    const journal = new StateJournal(m.store);
    const flow = { status: 'DRAFT' };
    journal.put('flow', '1', flow);
    journal.put('window', 'a:b', { openedAt: 1 });
    flow.status = 'PUBLISHED';
    journal.put('flow', '1', flow);
    await journal.settled();
    assert.equal(m.batches.length, 1);
    assert.deepEqual(
      m.batches[0]?.map((c) => c.kind),
      ['window', 'flow'],
    );
    assert.equal(m.value('flow', '1'), '{"status":"PUBLISHED"}');
  });

  test('a function is called when its batch is written; a removal deletes', async () => {
    const m = memoryStore();
    const journal = new StateJournal(m.store);
    let calls = 0;
    journal.put('media', '9', () => {
      calls++;
      return { base64: 'AA==' };
    });
    assert.equal(calls, 0, 'nothing is serialized while the request runs');
    await journal.settled();
    assert.equal(calls, 1);
    journal.remove('media', '9');
    await journal.settled();
    assert.equal(m.value('media', '9'), undefined);
  });

  test('settled waits for the changes noted before it, not for later ones', async () => {
    const m = memoryStore();
    const journal = new StateJournal(m.store);
    journal.put('window', 'x', 1);
    const first = journal.settled();
    journal.put('window', 'y', 2);
    await first;
    assert.equal(m.value('window', 'x'), '1');
    await journal.settled();
    assert.equal(m.value('window', 'y'), '2');
    assert.equal(await journal.settled(), undefined, 'nothing pending: resolves at once');
  });

  test('a failed write rejects its waiters, then is retried; a newer value noted meanwhile wins', async () => {
    const m = memoryStore();
    const warnings: string[] = [];
    const journal = new StateJournal(m.store, { warn: (_o, msg) => warnings.push(msg) });
    m.failWrites(1);
    journal.put('faults', 'current', { latencyMs: 1 });
    journal.put('window', 'kept', 1);
    await assert.rejects(journal.settled(), /database unavailable/);
    assert.deepEqual(warnings, ['simulator state not written; retrying']);
    journal.put('faults', 'current', { latencyMs: 2 });
    await journal.settled();
    assert.equal(m.value('faults', 'current'), '{"latencyMs":2}');
    assert.equal(m.value('window', 'kept'), '1', 'the failed batch was written with the retry');
  });

  test('without a store nothing is written and nothing waits', async () => {
    const journal = new StateJournal(null);
    journal.put('flow', '1', { status: 'DRAFT' });
    assert.equal(journal.durable, false);
    await journal.settled();
  });
});
