/**
 * One store suite, run against SQLite and PostgreSQL: the repositories must behave the same on both.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createAccount } from '../../src/domain/accounts.ts';
import { createApiKey } from '../../src/domain/api-keys.ts';
import { hashApiKey } from '../../src/domain/secrets.ts';
import type { Store } from '../../src/store/connect.ts';
import { inboundRepo } from '../../src/store/inbound-repo.ts';
import { migrateToLatest } from '../../src/store/migrate.ts';
import { createRepositories, type Repositories } from '../../src/store/repositories.ts';
import { openForSuite, storeTargets as targets } from '../support/store-targets.ts';

function messageRow(accountId: string, clientId: string, hash = 'h1') {
  const now = Date.now();
  return {
    id: `msg_${clientId}_${Math.random().toString(36).slice(2)}`,
    accountId: accountId,
    clientMessageId: clientId,
    requestHash: hash,
    kind: 'text',
    fromPhone: '14155550100',
    toPhone: '254712345678',
    content: '{}',
    createdAt: now,
    updatedAt: now,
  };
}

for (const target of targets) {
  describe(`store on ${target.name}`, async () => {
    const skip = await target.skip();
    let store: Store;
    let repos: Repositories;

    openForSuite(target, skip, async (opened) => {
      store = opened;
      await migrateToLatest(store); // a second run is a no-op
      repos = createRepositories(store);
    });

    test('API keys are found by hash only while not revoked', { skip }, async () => {
      const account = await createAccount(repos.accounts, 'Acme');
      const { key: row, plainKey: key } = await createApiKey(repos.accounts, account.id, 'k');
      assert.match(key, /^sb_live_[0-9A-Za-z]{32}$/);
      assert.equal(row.prefix, key.slice(0, 14));
      assert.deepEqual(await repos.accounts.findLiveKeyOwner(hashApiKey(key)), {
        accountId: account.id,
        keyId: row.id,
      });
      const other = await createAccount(repos.accounts, 'Other');
      assert.equal(
        await repos.accounts.revokeKeyOfAccount(other.id, row.id),
        false,
        'another account cannot revoke it',
      );
      assert.equal(await repos.accounts.revokeKeyOfAccount(account.id, row.prefix), true);
      assert.equal(await repos.accounts.findLiveKeyOwner(hashApiKey(key)), undefined);
      assert.equal(await repos.accounts.revokeKeyOfAccount(account.id, row.id), false, 'already revoked');
    });

    test('join codes find their account', { skip }, async () => {
      const account = await createAccount(repos.accounts, 'Joiner');
      assert.match(account.joinCode, /^[a-z]+-[a-z]+-[a-z]+-\d{6}$/);
      assert.equal((await repos.accounts.findAccountByJoinCode(account.joinCode))?.id, account.id);
    });

    test('a messageId is claimed once per account; other accounts have their own', { skip }, async () => {
      const a = await createAccount(repos.accounts, 'A');
      const b = await createAccount(repos.accounts, 'B');
      assert.equal(await repos.messages.reserve(messageRow(a.id, 'dup')), null);
      const holder = await repos.messages.reserve(messageRow(a.id, 'dup', 'h2'));
      assert.equal(holder?.requestHash, 'h1');
      assert.equal(holder?.status, 'PENDING');
      assert.equal(await repos.messages.reserve(messageRow(b.id, 'dup')), null);
    });

    test('concurrent claims of one messageId: exactly one wins', { skip }, async () => {
      const a = await createAccount(repos.accounts, 'Race');
      const results = await Promise.all(
        Array.from({ length: 20 }, () => repos.messages.reserve(messageRow(a.id, 'race'))),
      );
      assert.equal(results.filter((r) => r === null).length, 1);
    });

    test('a released claim can be taken again', { skip }, async () => {
      const a = await createAccount(repos.accounts, 'Release');
      const row = messageRow(a.id, 'rel');
      assert.equal(await repos.messages.reserve(row), null);
      await repos.messages.release(row.id);
      assert.equal(await repos.messages.reserve(messageRow(a.id, 'rel')), null);
    });

    test('statuses only move forward, a late one joins the timeline once, and FAILED is final', {
      skip,
    }, async () => {
      const a = await createAccount(repos.accounts, 'Status');
      const row = messageRow(a.id, 'st');
      await repos.messages.reserve(row);
      await repos.messages.markAccepted(row, 'wamid.ST1', 1000);
      await repos.messages.applyNetworkStatus('wamid.ST1', 'READ', 3000, null);
      await repos.messages.applyNetworkStatus('wamid.ST1', 'DELIVERED', 2000, null); // late: timeline only
      await repos.messages.applyNetworkStatus('wamid.ST1', 'DELIVERED', 2000, null); // twice: once
      await repos.messages.applyNetworkStatus('wamid.ST1', 'FAILED', 4000, '{"code":1}'); // after READ: ignored
      const stored = await repos.messages.findByClientId(a.id, 'st');
      assert.equal(stored?.status, 'READ');
      assert.deepEqual(
        (await repos.messages.timeline(row.id)).map((e) => e.status),
        ['SENT', 'DELIVERED', 'READ'],
      );

      const row2 = messageRow(a.id, 'st2');
      await repos.messages.reserve(row2);
      await repos.messages.markAccepted(row2, 'wamid.ST2', 1000);
      await repos.messages.applyNetworkStatus('wamid.ST2', 'FAILED', 2000, '{"code":131026}');
      await repos.messages.applyNetworkStatus('wamid.ST2', 'DELIVERED', 3000, null);
      assert.equal((await repos.messages.findByClientId(a.id, 'st2'))?.status, 'FAILED');
      assert.deepEqual(
        (await repos.messages.timeline(row2.id)).map((e) => e.status),
        ['SENT', 'FAILED'],
      );
    });

    test('a status that arrives before the send recorded its network id is applied afterwards', {
      skip,
    }, async () => {
      const a = await createAccount(repos.accounts, 'Early');
      const row = messageRow(a.id, 'early');
      await repos.messages.reserve(row);
      await repos.messages.applyNetworkStatus('wamid.EARLY', 'DELIVERED', 2000, null);
      await repos.messages.markAccepted(row, 'wamid.EARLY', 1000);
      assert.equal((await repos.messages.findByClientId(a.id, 'early'))?.status, 'DELIVERED');
      assert.deepEqual(
        (await repos.messages.timeline(row.id)).map((e) => e.status),
        ['SENT', 'DELIVERED'],
      );
    });

    test('conversation windows keep the latest inbound time', { skip }, async () => {
      await repos.conversations.recordInbound('14155550100', '254712345678', 5000);
      await repos.conversations.recordInbound('14155550100', '254712345678', 4000);
      assert.equal(await repos.conversations.lastInboundAt('14155550100', '254712345678'), 5000);
      await repos.conversations.recordInbound('14155550100', '254712345678', 6000);
      assert.equal(await repos.conversations.lastInboundAt('14155550100', '254712345678'), 6000);
    });

    test('a business-scoped user id keeps the phone number a message gave with it', { skip }, async () => {
      const c = repos.conversations;
      const id = 'KE.13491208655302741918';
      assert.equal(await c.phoneOfUser('14155550100', id), undefined);
      await c.linkUser('14155550100', { userId: id, phone: null, username: 'jane' }, 1);
      assert.equal(await c.phoneOfUser('14155550100', id), undefined);
      await c.linkUser('14155550100', { userId: id, phone: '254712345678', username: 'jane' }, 2);
      // A later message that withholds the number does not forget it.
      await c.linkUser('14155550100', { userId: id, phone: null, username: 'jane_d' }, 3);
      assert.equal(await c.phoneOfUser('14155550100', id), '254712345678');
      assert.equal(await c.phoneOfUser('14155550199', id), undefined, 'per business number');
    });

    test("what was kept under one key of a user moves to their number; the number's own wins", {
      skip,
    }, async () => {
      const c = repos.conversations;
      const a = await createAccount(repos.accounts, 'Moves A');
      const b = await createAccount(repos.accounts, 'Moves B');
      await c.joinSandbox('14155550100', 'KE.777', a.id, 1);
      await c.recordInbound('14155550100', 'KE.777', 9000);
      await c.adoptUser('14155550100', 'KE.777', '254700000777');
      assert.equal(await c.sandboxAccountOf('14155550100', '254700000777'), a.id);
      assert.equal(await c.sandboxAccountOf('14155550100', 'KE.777'), undefined);
      assert.equal(await c.lastInboundAt('14155550100', '254700000777'), 9000);
      // The number had its own: it keeps its membership and the later of the two windows.
      await c.joinSandbox('14155550100', 'KE.778', b.id, 2);
      await c.recordInbound('14155550100', 'KE.778', 5000);
      await c.adoptUser('14155550100', 'KE.778', '254700000777');
      assert.equal(await c.sandboxAccountOf('14155550100', '254700000777'), a.id);
      assert.equal(await c.sandboxAccountOf('14155550100', 'KE.778'), undefined);
      assert.equal(await c.lastInboundAt('14155550100', '254700000777'), 9000);
    });

    test('sandbox membership moves with the latest join and ends on leave', { skip }, async () => {
      const a = await createAccount(repos.accounts, 'SA');
      const b = await createAccount(repos.accounts, 'SB');
      await repos.conversations.joinSandbox('14155550100', '254700000001', a.id, 1);
      await repos.conversations.joinSandbox('14155550100', '254700000001', b.id, 2);
      assert.equal(await repos.conversations.sandboxAccountOf('14155550100', '254700000001'), b.id);
      assert.equal(await repos.conversations.leaveSandbox('14155550100', '254700000001'), true);
      assert.equal(await repos.conversations.sandboxAccountOf('14155550100', '254700000001'), undefined);
    });

    test("accounts and keys read back in the domain's terms, scoped by account", { skip }, async () => {
      const account = await createAccount(repos.accounts, 'Mapped');
      assert.deepEqual(await repos.accounts.findAccount(account.id), account);
      assert.deepEqual(
        (await repos.accounts.listAccounts()).find((a) => a.id === account.id),
        account,
      );
      const { key } = await createApiKey(repos.accounts, account.id, 'mapped key');
      assert.deepEqual(await repos.accounts.listKeysOfAccount(account.id), [key]);
      assert.equal(await repos.accounts.revokeKeyOfAccount(account.id, key.id), true);
      const [revoked] = await repos.accounts.listKeysOfAccount(account.id);
      assert.equal(typeof revoked?.revokedAt, 'number');
      assert.deepEqual({ ...revoked, revokedAt: null }, key);
      const other = await createAccount(repos.accounts, 'Unmapped');
      assert.deepEqual(await repos.accounts.listKeysOfAccount(other.id), []);
    });

    test("numbers read back in the domain's terms, scoped by account", { skip }, async () => {
      const a = await createAccount(repos.accounts, 'NA');
      const b = await createAccount(repos.accounts, 'NB');
      const input = {
        accountId: a.id,
        phone: '14155550911',
        phoneNumberId: '900911',
        sealedAccessToken: 'sealed-token',
        sessionCheck: false,
        wabaId: '123456',
        maxSendsPerSecond: null,
        messagingLimit: 2000,
      };
      const added = await repos.numbers.addNumber(input);
      assert.deepEqual({ ...added, id: 'x', createdAt: 0 }, { ...input, id: 'x', createdAt: 0 });
      assert.deepEqual(await repos.numbers.findNumberOfAccount(a.id, input.phone), added);
      assert.equal(await repos.numbers.findNumberOfAccount(b.id, input.phone), undefined);
      assert.deepEqual(await repos.numbers.findNumberByPhoneNumberId('900911'), added);
      assert.deepEqual(await repos.numbers.findNumberByPhone(input.phone), added);
      assert.deepEqual(await repos.numbers.listNumbersOfAccount(a.id), [added]);
      assert.deepEqual(await repos.numbers.listNumbersOfAccount(b.id), []);
      const checked = await repos.numbers.addNumber({
        ...input,
        phone: '14155550912',
        phoneNumberId: '900912',
        sessionCheck: true,
        wabaId: null,
      });
      assert.deepEqual(await repos.numbers.findNumberByPhone('14155550912'), checked);
      // A number's own throughput tier, set and cleared by its account only.
      assert.equal(await repos.numbers.setThroughput(b.id, '14155550912', 1000), false);
      assert.equal(await repos.numbers.setThroughput(a.id, '14155550912', 1000), true);
      assert.equal((await repos.numbers.findNumberByPhone('14155550912'))?.maxSendsPerSecond, 1000);
      assert.equal(await repos.numbers.setThroughput(a.id, '14155550912', null), true);
      assert.equal((await repos.numbers.findNumberByPhone('14155550912'))?.maxSendsPerSecond, null);
    });

    test('a sandbox membership is read with the window of its user', { skip }, async () => {
      const a = await createAccount(repos.accounts, 'SW');
      await repos.conversations.joinSandbox('14155550100', '254700000077', a.id, 1);
      assert.deepEqual(await repos.conversations.sandboxMembership('14155550100', '254700000077'), {
        accountId: a.id,
        lastInboundAt: undefined,
      });
      await repos.conversations.recordInbound('14155550100', '254700000077', 7000);
      assert.deepEqual(await repos.conversations.sandboxMembership('14155550100', '254700000077'), {
        accountId: a.id,
        lastInboundAt: 7000,
      });
    });

    test('an inbound message is stored once per network id and handled once', { skip }, async () => {
      const row = {
        id: 'in_1',
        accountId: null,
        waId: 'wamid.IN1',
        businessPhone: '14155550100',
        userPhone: '254712345678',
        userId: 'KE.13491208655302741918',
        username: 'jane',
        profileName: 'Jane',
        type: 'text',
        payload: '{}',
        receivedAt: 1,
        handledAt: null,
      };
      assert.deepEqual(await repos.inbound.storeOnce(row), row);
      // A redelivery before the message was handled gets the row the first delivery stored.
      assert.deepEqual({ ...(await repos.inbound.storeOnce({ ...row, id: 'in_2', receivedAt: 2 })) }, row);
      assert.equal(await repos.inbound.markHandled('wamid.IN1', null, 3), true);
      assert.equal(await repos.inbound.markHandled('wamid.IN1', null, 4), false);
      assert.equal(await repos.inbound.storeOnce({ ...row, id: 'in_3' }), null);
    });

    test('of two deliveries marking one message at once, exactly one succeeds', { skip }, async () => {
      const account = await createAccount(repos.accounts, 'Inbound Co');
      const row = {
        id: 'in_race',
        accountId: null,
        waId: 'wamid.RACE',
        businessPhone: '14155550100',
        userPhone: '254712345678',
        userId: null,
        username: null,
        profileName: null,
        type: 'text',
        payload: '{}',
        receivedAt: 1,
        handledAt: null,
      };
      await repos.inbound.storeOnce(row);
      // Two transactions at once (two connections on PostgreSQL): the second waits for the first's row
      // lock, then finds the row marked.
      const marks = await Promise.all(
        [1, 2].map((at) =>
          store.db.transaction().execute((trx) => inboundRepo(trx).markHandled('wamid.RACE', account.id, at)),
        ),
      );
      assert.deepEqual(marks.toSorted(), [false, true]);
      const stored = await store.db
        .selectFrom('inbound_messages')
        .select(['account_id', 'handled_at'])
        .where('wa_id', '=', 'wamid.RACE')
        .executeTakeFirstOrThrow();
      assert.equal(stored.account_id, account.id);
      assert.ok(stored.handled_at === 1 || stored.handled_at === 2);
    });
  });
}
