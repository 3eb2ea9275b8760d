/**
 * How an import stores its batches (src/domain/contact-import.ts), over an in-memory store that records
 * what it was given and when: two batches that name their contacts by phone alone and share no number are
 * stored at once, never more than two; a batch that shares a number with one being stored, or names a
 * user id, waits for those before it, so a person in two batches ends as the later row says; a failure
 * of a batch stops the import.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type ImportRow, importContacts } from '../../src/domain/contact-import.ts';
import type { ContactChanges, ContactsStore } from '../../src/domain/ports/contacts.ts';

const phone = (i: number) => `+4479112${String(i).padStart(5, '0')}`;

async function* rowsOf(cells: Record<string, string>[]): AsyncIterable<ImportRow> {
  for (const [i, row] of cells.entries()) yield { cells: row, line: i + 2 };
}

/** A store whose batches finish only when the test lets them, in any order it likes. */
function heldStore() {
  const names = new Map<string, string>();
  const started: ContactChanges[][] = [];
  const waiting: (() => void)[] = [];
  let open = 0;
  let mostOpen = 0;
  const upsertMany = async (_account: string, changes: ContactChanges[]) => {
    started.push(changes);
    open++;
    mostOpen = Math.max(mostOpen, open);
    await new Promise<void>((resolve) => waiting.push(resolve));
    for (const c of changes) if (c.phone && c.name) names.set(c.phone, c.name);
    open--;
    return changes.map(() => 'created' as const);
  };
  const store: Pick<ContactsStore, 'upsertMany'> = { upsertMany };
  return {
    store,
    names,
    started,
    mostOpen: () => mostOpen,
    /** Lets the newest waiting batch finish first, then the others: the worst order for the file's. */
    async drain(until: Promise<unknown>) {
      let done = false;
      void until.then(
        () => (done = true),
        () => (done = true),
      );
      while (!done) {
        await new Promise((r) => setImmediate(r));
        waiting.pop()?.();
      }
    },
  };
}

const deps = (store: Pick<ContactsStore, 'upsertMany'>) => ({
  contacts: store as ContactsStore,
  now: () => 0,
});

test('batches with different numbers are stored two at a time', async () => {
  const held = heldStore();
  const cells = Array.from({ length: 2000 }, (_, i) => ({ phone: phone(i), name: `P${i}` }));
  const importing = importContacts(deps(held.store), 'acc', rowsOf(cells));
  await held.drain(importing);
  const report = await importing;
  assert.equal(report.created, 2000);
  assert.equal(held.started.length, 4);
  assert.equal(held.mostOpen(), 2);
});

test('a number in two batches, or a user id, makes the later batch wait: the later row wins', async () => {
  const held = heldStore();
  const cells: Record<string, string>[] = Array.from({ length: 1500 }, (_, i) => ({
    phone: phone(i),
    name: `P${i}`,
  }));
  cells[700] = { phone: phone(3), name: 'Second batch says' }; // also in the first batch
  cells[1200] = { user_id: 'US.1', phone: phone(1200), name: 'By id' };
  const importing = importContacts(deps(held.store), 'acc', rowsOf(cells));
  await held.drain(importing);
  await importing;
  assert.equal(held.mostOpen(), 1, 'each batch waited for the one before');
  assert.equal(held.names.get(phone(3).slice(1)), 'Second batch says');
});

test("a batch's failure is the import's", async () => {
  let calls = 0;
  const store: Pick<ContactsStore, 'upsertMany'> = {
    upsertMany: async (_a, changes) => {
      calls++;
      if (calls === 1) throw new Error('the database went away');
      return changes.map(() => 'created' as const);
    },
  };
  const cells = Array.from({ length: 1200 }, (_, i) => ({ phone: phone(i) }));
  await assert.rejects(importContacts(deps(store), 'acc', rowsOf(cells)), /the database went away/);
});
