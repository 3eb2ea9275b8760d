/**
 * Contacts (src/store/contacts-repo.ts), on SQLite and PostgreSQL: an upsert finds by phone number, else by
 * user id; tags are replaced and listed by, attributes merged (null removes one); concurrent upserts of
 * one person make one contact; a number that is another contact's is refused; a sender is remembered
 * without overwriting what the business set; everything is scoped by account.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ContactKeyTaken } from '../../src/domain/ports/contacts.ts';
import type { Store } from '../../src/store/connect.ts';
import { createRepositories } from '../../src/store/repositories.ts';
import { openForSuite, storeTargets as targets } from '../support/store-targets.ts';

const AT = Date.UTC(2026, 10, 25, 12);

for (const target of targets) {
  describe(`contacts on ${target.name}`, async () => {
    const skip = await target.skip();
    let store: Store;
    let repos: ReturnType<typeof createRepositories>;
    const contacts = () => repos.contacts;

    openForSuite(target, skip, (opened) => {
      store = opened;
      repos = createRepositories(store);
    });

    test('an upsert makes, then changes: tags replaced, attributes merged, null removes', {
      skip,
    }, async () => {
      const made = await contacts().upsert(
        'acc_a',
        {
          phone: '447911000001',
          name: 'Amina',
          tags: ['vip', 'vip', 'nairobi'],
          attributes: { city: 'Nairobi', plan: 'gold' },
        },
        AT,
      );
      assert.equal(made.created, true);
      assert.deepEqual(made.contact.tags, ['nairobi', 'vip']);
      const changed = await contacts().upsert(
        'acc_a',
        { phone: '447911000001', userId: 'GB.100', tags: ['vip'], attributes: { plan: null, size: 'M' } },
        AT + 1,
      );
      assert.equal(changed.created, false);
      assert.equal(changed.contact.id, made.contact.id);
      assert.equal(changed.contact.name, 'Amina', 'a name not given is kept');
      assert.equal(changed.contact.userId, 'GB.100', 'a missing user id is learned');
      assert.deepEqual(changed.contact.tags, ['vip']);
      assert.deepEqual(changed.contact.attributes, { city: 'Nairobi', size: 'M' });
      const byUserId = await contacts().upsert('acc_a', { userId: 'GB.100', name: 'Amina O.' }, AT + 2);
      assert.equal(byUserId.contact.id, made.contact.id, 'found by user id');
      assert.equal(await contacts().find('acc_b', made.contact.id), undefined, 'scoped by account');
    });

    test('lists by tag, a page at a time, with the total', { skip }, async () => {
      for (let i = 0; i < 5; i++) {
        await contacts().upsert(
          'acc_list',
          { phone: `25471200000${i}`, tags: i % 2 ? ['odd'] : ['even'] },
          AT + i,
        );
      }
      const all = await contacts().list('acc_list', {}, { offset: 0, limit: 2 });
      assert.equal(all.total, 5);
      assert.deepEqual(
        all.contacts.map((c) => c.phone),
        ['254712000000', '254712000001'],
      );
      const odd = await contacts().list('acc_list', { tag: 'odd' }, { offset: 1, limit: 10 });
      assert.equal(odd.total, 2);
      assert.deepEqual(
        odd.contacts.map((c) => c.phone),
        ['254712000003'],
      );
      assert.equal((await contacts().list('acc_other', { tag: 'odd' }, { offset: 0, limit: 10 })).total, 0);
      // The tags in use, the most used first, up to the limit; another account has none of them.
      assert.deepEqual(await contacts().tagsInUse('acc_list', 10), [
        { tag: 'even', contacts: 3 },
        { tag: 'odd', contacts: 2 },
      ]);
      assert.deepEqual(await contacts().tagsInUse('acc_list', 1), [{ tag: 'even', contacts: 3 }]);
      assert.deepEqual(await contacts().tagsInUse('acc_other', 10), []);
    });

    test("a batch upserts in order: a person twice is one contact, a taken key is that row's only", {
      skip,
    }, async () => {
      await contacts().upsert(
        'acc_batch',
        { phone: '447911000040', tags: ['old'], attributes: { a: '1' } },
        AT,
      );
      await contacts().upsert('acc_batch', { userId: 'GB.500' }, AT);
      const outcomes = await contacts().upsertMany(
        'acc_batch',
        [
          { phone: '447911000041', name: 'New', tags: ['x'] },
          { phone: '447911000041', attributes: { b: '2' } },
          { phone: '447911000040', tags: ['new'], attributes: { a: null, c: '3' } },
          { phone: '447911000040', userId: 'GB.500' },
          { userId: 'GB.501', name: 'By id' },
        ],
        AT + 1,
      );
      assert.deepEqual(outcomes, ['created', 'updated', 'updated', 'taken', 'created']);
      const all = (await contacts().list('acc_batch', {}, { offset: 0, limit: 10 })).contacts;
      assert.equal(all.length, 4);
      const byPhone = (phone: string) => all.find((c) => c.phone === phone);
      assert.deepEqual(
        [byPhone('447911000041')?.name, byPhone('447911000041')?.tags, byPhone('447911000041')?.attributes],
        ['New', ['x'], { b: '2' }],
      );
      assert.deepEqual(
        [byPhone('447911000040')?.tags, byPhone('447911000040')?.attributes, byPhone('447911000040')?.userId],
        [['new'], { c: '3' }, null],
      );
      assert.equal((await contacts().list('acc_batch', { tag: 'old' }, { offset: 0, limit: 10 })).total, 0);
    });

    test('concurrent upserts of one person make one contact', { skip }, async () => {
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          contacts().upsert('acc_race', { phone: '447911000099', tags: [`t${i}`] }, AT),
        ),
      );
      assert.equal(results.filter((r) => r.created).length, 1);
      assert.equal(new Set(results.map((r) => r.contact.id)).size, 1);
      assert.equal((await contacts().list('acc_race', {}, { offset: 0, limit: 10 })).total, 1);
    });

    test("another contact's number is refused; a deleted contact's tags go with it", { skip }, async () => {
      const first = await contacts().upsert('acc_keys', { phone: '447911000010', tags: ['a'] }, AT);
      const second = await contacts().upsert('acc_keys', { phone: '447911000011' }, AT);
      await assert.rejects(
        contacts().update('acc_keys', second.contact.id, { phone: '447911000010' }, AT),
        ContactKeyTaken,
      );
      assert.equal(await contacts().delete('acc_keys', first.contact.id), true);
      assert.equal(await contacts().delete('acc_keys', first.contact.id), false);
      assert.equal((await contacts().list('acc_keys', { tag: 'a' }, { offset: 0, limit: 10 })).total, 0);
      const tags = await store.db
        .selectFrom('contact_tags')
        .selectAll()
        .where('contact_id', '=', first.contact.id)
        .execute();
      assert.deepEqual(tags, []);
    });

    test('a sender is made a contact once, and only what the contact lacks is learned', {
      skip,
    }, async () => {
      await contacts().rememberSender('acc_in', { phone: '447911000020', userId: null, name: 'Grace' }, AT);
      await contacts().rememberSender(
        'acc_in',
        { phone: '447911000020', userId: 'GB.200', name: 'Grace W.' },
        AT + 1,
      );
      const [only] = (await contacts().list('acc_in', {}, { offset: 0, limit: 10 })).contacts;
      assert.equal(only?.name, 'Grace', 'the first name stays');
      assert.equal(only?.userId, 'GB.200', 'the user id is learned');
      await contacts().update('acc_in', only!.id, { name: 'Grace Wanjiru' }, AT + 2);
      await contacts().rememberSender(
        'acc_in',
        { phone: '447911000020', userId: 'GB.200', name: 'G' },
        AT + 3,
      );
      assert.equal(
        (await contacts().find('acc_in', only!.id))?.name,
        'Grace Wanjiru',
        "the business's name stays",
      );
      await contacts().rememberSender('acc_in', { phone: null, userId: 'GB.300', name: null }, AT);
      assert.equal(
        (await contacts().list('acc_in', {}, { offset: 0, limit: 10 })).total,
        2,
        'known by user id only',
      );
      // The number of one contact and the user id of another: refused, and nothing changes.
      await contacts().rememberSender('acc_in', { phone: '447911000030', userId: null, name: 'X' }, AT);
      await assert.rejects(
        contacts().rememberSender('acc_in', { phone: '447911000030', userId: 'GB.300', name: null }, AT + 4),
        ContactKeyTaken,
      );
      assert.equal((await contacts().list('acc_in', {}, { offset: 0, limit: 10 })).total, 3);
    });
  });
}
