/**
 * The inbox's store (src/store/inbox-repo.ts, written by the publisher of received messages in
 * src/store/event-outbox.ts), on SQLite and PostgreSQL: a received message opens its conversation once
 * however often it is delivered, later ones move it up and count as unread, a closed conversation opens
 * again when the customer writes; the list filters by state, assignee and words, in this account only;
 * the thread holds both directions; the version moves with every change a reader would see.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createAccount } from '../../src/domain/accounts.ts';
import type { InboundMessage } from '../../src/domain/ports/inbound.ts';
import type { Store } from '../../src/store/connect.ts';
import { receivedMessagePublisher } from '../../src/store/event-outbox.ts';
import { inboxRepo } from '../../src/store/inbox-repo.ts';
import { createRepositories } from '../../src/store/repositories.ts';
import { openForSuite, storeTargets as targets } from '../support/store-targets.ts';

const NUMBER = '14155550123';
const ANA = '447911300011';
const BEN = '447911300012';
const AT = Date.UTC(2026, 10, 26, 9);

for (const target of targets) {
  describe(`inbox on ${target.name}`, async () => {
    const skip = await target.skip();
    let store: Store;
    let repos: ReturnType<typeof createRepositories>;
    let inbox: ReturnType<typeof inboxRepo>;
    let publish: ReturnType<typeof receivedMessagePublisher>;
    let seq = 0;

    /** A message from `user` stored and published as the inbound handler does, to `accountId`. */
    async function receive(
      accountId: string,
      user: string,
      text: string,
      at: number,
      waId = `wamid.${++seq}`,
    ) {
      const message: InboundMessage = {
        id: `in_${String(++seq).padStart(6, '0')}`,
        accountId: null,
        waId,
        businessPhone: NUMBER,
        userPhone: user,
        userId: null,
        username: null,
        profileName: user === ANA ? 'Ana' : null,
        type: 'text',
        payload: JSON.stringify({ from: user, id: waId, type: 'text', text: { body: text } }),
        receivedAt: at,
        handledAt: null,
      };
      const row = await repos.inbound.storeOnce(message);
      if (row) await publish(row, accountId);
      await repos.conversations.recordInbound(NUMBER, user, at);
    }

    openForSuite(target, skip, (opened) => {
      store = opened;
      repos = createRepositories(store);
      inbox = inboxRepo(store.db);
      publish = receivedMessagePublisher(store.db, () => {}, { status: () => ({}), received: () => ({}) });
    });

    test('messages open one conversation per user, counted once each, newest first', { skip }, async () => {
      const account = await createAccount(repos.accounts, 'Shop');
      await receive(account.id, ANA, 'Hello', AT, 'wamid.ana-1');
      // The network delivers the same message again: nothing more is counted.
      await receive(account.id, ANA, 'Hello', AT, 'wamid.ana-1');
      await receive(account.id, BEN, 'Is the shop open?', AT + 1000);
      await receive(account.id, ANA, 'Where is my order?', AT + 2000);
      // A message the network delivers late keeps the newest preview.
      await receive(account.id, ANA, 'an older one', AT + 500);

      const { rows, hasMore } = await inbox.list(account.id, {}, 0, 10);
      assert.equal(hasMore, false);
      assert.deepEqual(
        rows.map((c) => [c.userPhone, c.unread, c.preview, c.profileName, c.lastActivityAt]),
        [
          [ANA, 3, 'Where is my order?', 'Ana', AT + 2000],
          [BEN, 1, 'Is the shop open?', null, AT + 1000],
        ],
      );
      assert.equal(rows[0]!.lastInboundAt, AT + 2000);
      assert.equal(await inbox.unreadTotal(account.id), 4);

      const other = await createAccount(repos.accounts, 'Other');
      assert.deepEqual((await inbox.list(other.id, {}, 0, 10)).rows, []);
      assert.equal(await inbox.find(other.id, rows[0]!.id), undefined);
    });

    test('read, assigned, closed and opened again by the customer; the version moves each time', {
      skip,
    }, async () => {
      const account = await createAccount(repos.accounts, 'Bakery');
      await receive(account.id, ANA, 'One loaf please', AT);
      const [conversation] = (await inbox.list(account.id, {}, 0, 10)).rows;
      const versions = new Set([await inbox.version(account.id)]);
      const threadVersions = new Set([await inbox.version(account.id, conversation)]);

      await inbox.markRead(account.id, conversation!.id, AT + 1);
      assert.equal((await inbox.find(account.id, conversation!.id))!.unread, 0);
      versions.add(await inbox.version(account.id));
      assert.ok(await inbox.assign(account.id, conversation!.id, 'usr_agent', AT + 2));
      assert.ok(await inbox.setState(account.id, conversation!.id, 'closed', AT + 3));
      versions.add(await inbox.version(account.id));
      assert.equal((await inbox.list(account.id, { state: 'open' }, 0, 10)).rows.length, 0);
      assert.equal((await inbox.list(account.id, { assignee: 'usr_agent' }, 0, 10)).rows.length, 1);
      assert.equal((await inbox.list(account.id, { assignee: 'unassigned' }, 0, 10)).rows.length, 0);

      await receive(account.id, ANA, 'And a cake', AT + 60_000);
      const reopened = (await inbox.find(account.id, conversation!.id))!;
      assert.deepEqual([reopened.state, reopened.unread, reopened.assigneeId], ['open', 1, 'usr_agent']);
      versions.add(await inbox.version(account.id));
      threadVersions.add(await inbox.version(account.id, reopened));
      assert.equal(versions.size, 4, 'each change moved the list version');
      assert.equal(threadVersions.size, 2, 'a new message moved the thread version');

      // Another account cannot change it.
      const other = await createAccount(repos.accounts, 'Other bakery');
      assert.equal(await inbox.assign(other.id, conversation!.id, null, AT), false);
      assert.equal(await inbox.setState(other.id, conversation!.id, 'closed', AT), false);
    });

    test('the thread holds both directions; a search finds words of either, and the number', {
      skip,
    }, async () => {
      const account = await createAccount(repos.accounts, 'Florist');
      await receive(account.id, BEN, 'Do you deliver roses?', AT);
      const sentRow = {
        id: 'msg_florist_1',
        account_id: account.id,
        client_message_id: 'reply-1',
        request_hash: 'x',
        kind: 'text',
        from_phone: NUMBER,
        to_phone: BEN,
        content: JSON.stringify({ type: 'text', text: { body: 'Yes, tulips_too 100%' } }),
        wa_id: 'wamid.out-1',
        status: 'DELIVERED',
        status_rank: 2,
        error: null,
        created_at: AT + 1000,
        updated_at: AT + 2000,
      };
      await store.db.insertInto('messages').values(sentRow).execute();
      const [conversation] = (await inbox.list(account.id, {}, 0, 10)).rows;
      const thread = await inbox.thread(account.id, NUMBER, BEN, 50);
      assert.deepEqual(thread.received.map((m) => m.waId).length, 1);
      assert.deepEqual(
        thread.sent.map((m) => m.clientMessageId),
        ['reply-1'],
      );

      const found = async (search: string) =>
        (await inbox.list(account.id, { search }, 0, 10)).rows.map((c) => c.id);
      assert.deepEqual(await found('ROSES'), [conversation!.id]);
      assert.deepEqual(await found('tulips_too'), [conversation!.id]);
      assert.deepEqual(await found('100%'), [conversation!.id]);
      assert.deepEqual(await found(`+${BEN.slice(0, 6)}`), [conversation!.id]);
      // Written as people write numbers: spaces, dashes, brackets.
      const spaced = `+${BEN.slice(0, 3)} ${BEN.slice(3, 6)}-${BEN.slice(6, 9)}`;
      assert.deepEqual(await found(spaced), [conversation!.id]);
      assert.deepEqual(await found('( )'), [], 'separators alone are no number that every one holds');
      // LIKE's own wildcards are words here, not patterns.
      assert.deepEqual(await found('tulips%'), []);

      const member = { id: 'usr_ana', account_id: account.id, email: 'ana@example.com', password_hash: 'x' };
      await store.db
        .insertInto('portal_users')
        .values({ ...member, created_at: AT })
        .execute();
      const reply = {
        preview: 'Yes, tulips too',
        at: AT + 5000,
        clientMessageId: 'reply-1',
        authorId: member.id,
      };
      await inbox.recordReply(account.id, conversation!.id, reply);
      // A form sent twice records its author once, and the first one stays.
      await inbox.recordReply(account.id, conversation!.id, { ...reply, authorId: 'usr_other' });
      const moved = (await inbox.find(account.id, conversation!.id))!;
      assert.deepEqual([moved.preview, moved.lastActivityAt], ['Yes, tulips too', AT + 5000]);
      const authored = await inbox.thread(account.id, NUMBER, BEN, 50);
      assert.deepEqual([...authored.authors], [['reply-1', 'ana@example.com']]);
      // The same messageId in another account, its author recorded as this account's member: a member is
      // only ever named in their own account.
      const other = await createAccount(repos.accounts, 'Other Co');
      await store.db
        .insertInto('messages')
        .values({ ...sentRow, id: 'msg_other_1', account_id: other.id, wa_id: 'wamid.out-2' })
        .execute();
      await inbox.recordReply(other.id, 'conv_none', { ...reply, authorId: member.id });
      const otherThread = await inbox.thread(other.id, NUMBER, BEN, 50);
      assert.deepEqual([otherThread.sent.length, otherThread.authors.size], [1, 0]);
    });
  });
}
