/**
 * Data retention in the store (src/store/retention-repo.ts), on SQLite and PostgreSQL: everything made before
 * the cutoff goes, children with their parents, in batches; what is newer stays, and so do messages whose
 * outcome is still open and events a receiver has not had yet. Rows are written as the gateway writes them,
 * with ids made at their time (src/lib/ids.ts), which is what retention reads.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { createAccount } from '../../src/domain/accounts.ts';
import { newId } from '../../src/lib/ids.ts';
import type { Store } from '../../src/store/connect.ts';
import { createRepositories } from '../../src/store/repositories.ts';
import { retentionRepo } from '../../src/store/retention-repo.ts';
import { openForSuite, storeTargets as targets } from '../support/store-targets.ts';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 24, 12);
const OLD = NOW - 40 * DAY;
const CUTOFF = NOW - 30 * DAY;

/** One of everything retention looks at, made at `at`; returns the ids. */
async function traffic(store: Store, dataDir: string, accountId: string, at: number, status = 'READ') {
  const db = store.db;
  const msg = newId('msg', at);
  await db
    .insertInto('messages')
    .values({
      id: msg,
      account_id: accountId,
      client_message_id: msg,
      request_hash: 'h',
      kind: 'text',
      from_phone: '14155550100',
      to_phone: '254712345678',
      content: '{}',
      wa_id: `wamid.${msg}`,
      status,
      status_rank: 3,
      error: null,
      created_at: at,
      updated_at: at,
    })
    .execute();
  const statusEvent = newId('mse', at + 1000);
  await db
    .insertInto('message_status_events')
    .values({ id: statusEvent, message_id: msg, status: 'SENT', at: at + 1000, error: null })
    .execute();
  const inbound = newId('in', at);
  await db
    .insertInto('inbound_messages')
    .values({
      id: inbound,
      account_id: accountId,
      wa_id: `wamid.${inbound}`,
      business_phone: '14155550100',
      user_phone: '254712345678',
      profile_name: null,
      type: 'text',
      payload: '{}',
      received_at: at,
      handled_at: at,
    })
    .execute();
  const unmatched = newId('ust', at);
  await db
    .insertInto('unmatched_statuses')
    .values({ id: unmatched, wa_id: 'wamid.x', status: 'SENT', at, error: null })
    .execute();
  const media = newId('med', at);
  const relative = path.join('media', media);
  mkdirSync(path.join(dataDir, 'media'), { recursive: true });
  writeFileSync(path.join(dataDir, relative), 'bytes');
  await db
    .insertInto('media_files')
    .values({
      id: media,
      account_id: accountId,
      network_media_id: media,
      mime_type: 'image/jpeg',
      size: 5,
      sha256: 'x',
      path: relative,
      created_at: at,
    })
    .execute();
  return { msg, statusEvent, inbound, unmatched, media, mediaFile: path.join(dataDir, relative) };
}

/** An event with one delivery in `status` and one attempt; returns the ids. */
async function event(store: Store, accountId: string, endpointId: string, at: number, status: string) {
  const db = store.db;
  const evt = newId('evt', at);
  const dlv = newId('dlv', at);
  await db
    .insertInto('events')
    .values({ id: evt, account_id: accountId, type: 'message.status', payload: '{}', created_at: at })
    .execute();
  await db
    .insertInto('deliveries')
    .values({
      id: dlv,
      account_id: accountId,
      event_id: evt,
      endpoint_id: endpointId,
      status,
      attempt_count: 1,
      next_attempt_at: at,
      locked_until: null,
      last_status_code: 200,
      created_at: at,
      updated_at: at,
    })
    .execute();
  await db
    .insertInto('delivery_attempts')
    .values({
      id: newId('att', at),
      delivery_id: dlv,
      attempted_at: at,
      status_code: 200,
      latency_ms: 3,
      response_body: null,
      error: null,
    })
    .execute();
  return { evt, dlv };
}

const ids = (rows: { id: string }[]) => rows.map((r) => r.id).sort();

for (const target of targets) {
  describe(`retention on ${target.name}`, async () => {
    const skip = await target.skip();
    let store: Store;
    let dataDir: string;

    openForSuite(target, skip, (opened) => {
      store = opened;
      dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-retention-'));
    });
    after(() => {
      if (skip) return;
      rmSync(dataDir, { recursive: true, force: true });
    });

    test('what was made before the cutoff goes, what is newer or still open stays', { skip }, async () => {
      const repos = createRepositories(store);
      const account = await createAccount(repos.accounts, 'Old Co');
      const endpoint = newId('whk', OLD);
      await store.db
        .insertInto('webhook_endpoints')
        .values({
          id: endpoint,
          account_id: account.id,
          url: 'https://example.com/hook',
          events: '[]',
          secret_enc: 'x',
          previous_secret_enc: null,
          previous_secret_until: null,
          disabled_at: null,
          failing_since: null,
          created_at: OLD,
          updated_at: OLD,
        })
        .execute();
      const old = await traffic(store, dataDir, account.id, OLD);
      const openOutcome = await traffic(store, dataDir, account.id, OLD + 1, 'PENDING');
      const recent = await traffic(store, dataDir, account.id, NOW - DAY);
      const oldDelivered = await event(store, account.id, endpoint, OLD, 'succeeded');
      const oldPending = await event(store, account.id, endpoint, OLD, 'pending');
      const recentEvent = await event(store, account.id, endpoint, NOW - DAY, 'succeeded');
      const conversation = (user: string, at: number) => ({
        id: newId('cnv', at),
        account_id: account.id,
        business_phone: '14155550123',
        user_phone: user,
        profile_name: null,
        preview: 'words of the last message',
        last_activity_at: at,
        unread: 0,
        state: 'open',
        assignee_id: null,
        updated_at: at,
      });
      const quiet = conversation('447911300091', OLD);
      const active = conversation('447911300092', NOW - DAY);
      await store.db.insertInto('inbox_conversations').values([quiet, active]).execute();
      const author = (clientMessageId: string, at: number) => ({
        account_id: account.id,
        client_message_id: clientMessageId,
        user_id: 'usr_someone',
        created_at: at,
      });
      await store.db
        .insertInto('inbox_reply_authors')
        .values([author('inbox-old', OLD), author('inbox-recent', NOW - DAY)])
        .execute();
      const note = (id: string, at: number) => ({
        id,
        account_id: account.id,
        conversation_id: active.id,
        author_id: 'usr_someone',
        text: 'call back',
        created_at: at,
      });
      await store.db
        .insertInto('inbox_notes')
        .values([note('nte_old', OLD), note('nte_recent', NOW - DAY)])
        .execute();

      const retention = retentionRepo(store.db, dataDir);
      assert.equal(await retention.removeBefore(CUTOFF, 1000), 2, 'two of a kind went at most');
      assert.equal(await retention.removeBefore(CUTOFF, 1000), 0, 'nothing expired is left');

      const db = store.db;
      assert.deepEqual(
        ids(await db.selectFrom('messages').select('id').execute()),
        [openOutcome.msg, recent.msg].sort(),
      );
      assert.deepEqual(
        ids(await db.selectFrom('message_status_events').select('id').execute()),
        [openOutcome.statusEvent, recent.statusEvent].sort(),
      );
      assert.deepEqual(ids(await db.selectFrom('inbound_messages').select('id').execute()), [recent.inbound]);
      assert.deepEqual(ids(await db.selectFrom('unmatched_statuses').select('id').execute()), [
        recent.unmatched,
      ]);
      assert.deepEqual(ids(await db.selectFrom('media_files').select('id').execute()), [recent.media]);
      assert.deepEqual(
        ids(await db.selectFrom('inbox_conversations').select('id').execute()),
        [active.id],
        'a conversation quiet since the cutoff goes with its preview',
      );
      assert.deepEqual(
        (await db.selectFrom('inbox_reply_authors').select('client_message_id').execute()).map(
          (r) => r.client_message_id,
        ),
        ['inbox-recent'],
        'who sent a reply goes with the reply',
      );
      assert.deepEqual(
        ids(await db.selectFrom('inbox_notes').select('id').execute()),
        ['nte_recent'],
        'a note goes with the messages of its time',
      );
      assert.equal(existsSync(old.mediaFile), false, 'the stored file went with its row');
      assert.equal(existsSync(recent.mediaFile), true);
      assert.deepEqual(
        ids(await db.selectFrom('events').select('id').execute()),
        [oldPending.evt, recentEvent.evt].sort(),
      );
      assert.deepEqual(
        ids(await db.selectFrom('deliveries').select('id').execute()),
        [oldPending.dlv, recentEvent.dlv].sort(),
      );
      assert.equal(
        (
          await db
            .selectFrom('delivery_attempts')
            .select('id')
            .where('delivery_id', '=', oldDelivered.dlv)
            .execute()
        ).length,
        0,
      );
    });

    test('a large backlog goes in batches of the size asked', { skip }, async () => {
      const repos = createRepositories(store);
      const account = await createAccount(repos.accounts, 'Backlog Co');
      for (let i = 0; i < 25; i++) await traffic(store, dataDir, account.id, OLD + i);
      const retention = retentionRepo(store.db, dataDir);
      assert.equal(await retention.removeBefore(CUTOFF, 10), 10);
      assert.equal(await retention.removeBefore(CUTOFF, 10), 10);
      assert.equal(await retention.removeBefore(CUTOFF, 10), 5);
      const left = await store.db
        .selectFrom('inbound_messages')
        .select('id')
        .where('account_id', '=', account.id)
        .execute();
      assert.equal(left.length, 0);
    });
  });
}
