/**
 * Campaigns (src/store/campaigns-repo.ts, campaign-recipients.ts), on SQLite and PostgreSQL: a status moves
 * only from the states it names, with its events; recipients are claimed lowest first under a lease, each
 * by one claimer even when claims race, an expired lease is taken over (and said so); a finished recipient
 * stays finished; counts join each recipient's message and the user's reply; everything is per account.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Campaign, NewRecipient } from '../../src/domain/ports/campaigns.ts';
import { expiredOutcome, INTERRUPTED, storedUnknown } from '../../src/domain/unknown-outcomes.ts';
import type { Store } from '../../src/store/connect.ts';
import { createRepositories } from '../../src/store/repositories.ts';
import { openForSuite, storeTargets as targets } from '../support/store-targets.ts';

const AT = Date.UTC(2026, 10, 26, 9);
const FROM = '14155550123';

function campaign(id: string, accountId = 'acc_a'): Campaign {
  return {
    id,
    accountId,
    name: 'Winter sale',
    from: FROM,
    template: { name: 'winter_sale', language: 'en_US' },
    parameters: [{ field: 'name', fallback: 'there' }],
    audience: { tags: ['vip'] },
    status: 'DRAFT',
    statusReason: null,
    startAt: null,
    timeZone: null,
    total: null,
    createdAt: AT,
    updatedAt: AT,
    startedAt: null,
    completedAt: null,
  };
}

const queued = (n: number, from = 0): NewRecipient[] =>
  Array.from({ length: n }, (_, i) => ({
    contactId: null,
    recipient: String(447911000000 + from + i),
    line: null,
    variables: [`user ${from + i}`],
    state: 'QUEUED',
    reason: null,
  }));

for (const target of targets) {
  describe(`campaigns on ${target.name}`, async () => {
    const skip = await target.skip();
    let store: Store;
    let repos: ReturnType<typeof createRepositories>;
    const campaigns = () => repos.campaigns;

    openForSuite(target, skip, async (opened) => {
      store = opened;
      repos = createRepositories(store);
      await store.db
        .insertInto('accounts')
        .values({ id: 'acc_a', name: 'A', join_code: 'a-b-1', created_at: AT })
        .execute();
    });

    test('a status moves only from the states named, once, and is per account', { skip }, async () => {
      await campaigns().insert(campaign('cmp_moves'));
      const events = () => [];
      assert.equal(await campaigns().find('acc_b', 'cmp_moves'), undefined, "another account's is not found");
      const start = { status: 'RUNNING' as const, reason: null, at: AT + 1, total: 3 };
      assert.equal(await campaigns().transition('acc_b', 'cmp_moves', ['DRAFT'], start, events), undefined);
      const running = await campaigns().transition('acc_a', 'cmp_moves', ['DRAFT'], start, events);
      assert.equal(running?.status, 'RUNNING');
      assert.equal(running?.total, 3);
      assert.equal(running?.startedAt, AT + 1);
      assert.equal(await campaigns().transition('acc_a', 'cmp_moves', ['DRAFT'], start, events), undefined);
      const racing = await Promise.all(
        [1, 2, 3].map(() =>
          campaigns().transition(
            'acc_a',
            'cmp_moves',
            ['RUNNING'],
            { status: 'PAUSED', reason: 'x', at: AT + 2 },
            events,
          ),
        ),
      );
      assert.equal(racing.filter(Boolean).length, 1, 'of racing pauses one moves it');
      // Resumed, it keeps the time it first started: its chart over time begins there.
      const resume = { status: 'RUNNING' as const, reason: null, at: AT + 5 };
      const resumed = await campaigns().transition('acc_a', 'cmp_moves', ['PAUSED'], resume, events);
      assert.equal(resumed?.startedAt, AT + 1);
      await campaigns().transition(
        'acc_a',
        'cmp_moves',
        ['RUNNING'],
        { status: 'PAUSED', reason: 'x', at: AT + 6 },
        events,
      );
      assert.deepEqual(
        (await campaigns().runningFrom(FROM)).map((c) => c.id).filter((id) => id === 'cmp_moves'),
        [],
      );
      assert.equal(await campaigns().updateDraft({ ...campaign('cmp_moves'), name: 'late' }), undefined);
    });

    test('claims take the lowest first, each recipient once, and an expired lease is taken over', {
      skip,
    }, async () => {
      const c = campaign('cmp_claims');
      await campaigns().insert(c);
      await campaigns().appendRecipients(c, 0, queued(250), AT);
      const claims = await Promise.all([1, 2, 3].map(() => campaigns().claim(c, AT, AT + 1000, 100)));
      const seqs = claims.flat().map((r) => r.seq);
      assert.equal(seqs.length, 250, 'every recipient claimed');
      assert.equal(new Set(seqs).size, 250, 'no recipient claimed twice');
      assert.ok(claims.flat().every((r) => !r.reclaimed));
      assert.equal(claims.flat().find((r) => r.seq === 7)?.messageId, 'cmp_claims-7');
      assert.deepEqual(claims.flat().find((r) => r.seq === 7)?.variables, ['user 7']);
      assert.deepEqual(await campaigns().claim(c, AT + 500, AT + 1500, 10), [], 'nothing while leases hold');
      for (const r of claims.flat().filter((r) => r.seq >= 10)) {
        await campaigns().finish(c.id, [{ seq: r.seq, state: 'DONE', reason: null, sentAt: AT }], AT);
      }
      await campaigns().release(c.id, 5, AT);
      assert.equal(await campaigns().remaining(c.id), 10);
      const takenOver = await campaigns().claim(c, AT + 1001, AT + 2000, 100);
      assert.deepEqual(
        takenOver.map((r) => [r.seq, r.reclaimed]),
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map((s) => [s, s !== 5]),
        'the expired leases first (taken over), then the released one',
      );
      await campaigns().finish(c.id, [{ seq: 0, state: 'SKIPPED', reason: 'opted_out', sentAt: null }], AT);
      await campaigns().finish(c.id, [{ seq: 0, state: 'DONE', reason: null, sentAt: AT }], AT);
      const [first] = await campaigns().recipients(c, undefined, { afterSeq: -1, offset: 0, limit: 1 });
      assert.equal(first?.state, 'SKIPPED', 'a finished recipient stays finished');
    });

    test('a claim takes at most its limit, whatever plan the database picks', { skip }, async () => {
      // A campaign's recipients as a new install has them: just written, never analyzed. PostgreSQL may
      // then run a claim's picking subquery again for every row it updates, each run finding the next rows.
      const c = campaign('cmp_plan');
      await campaigns().insert(c);
      await campaigns().appendRecipients(c, 0, queued(300), AT);
      const claimed = await campaigns().claim(c, AT, AT + 1000, 20);
      assert.deepEqual(
        claimed.map((r) => r.seq),
        Array.from({ length: 20 }, (_, i) => i),
      );
      const sending = await store.db
        .selectFrom('campaign_recipients')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('campaign_id', '=', c.id)
        .where('state', '=', 'SENDING')
        .executeTakeFirstOrThrow();
      assert.equal(Number(sending.n), 20, 'no more taken than claimed');
    });

    test("counts join the recipients' messages and replies", { skip }, async () => {
      const c = campaign('cmp_counts');
      await campaigns().insert(c);
      await campaigns().appendRecipients(c, 0, queued(4, 100), AT);
      await campaigns().appendRecipients(
        c,
        4,
        [
          {
            contactId: null,
            recipient: '447911000100',
            line: 9,
            variables: null,
            state: 'SKIPPED',
            reason: 'duplicate',
          },
        ],
        AT,
      );
      const batch = await campaigns().claim(c, AT, AT + 1000, 10);
      assert.equal(batch.length, 4);
      const statuses = ['DELIVERED', 'READ', 'FAILED'] as const;
      for (const [i, status] of statuses.entries()) {
        const r = batch[i]!;
        const claim = {
          id: `msg_${c.id}_${i}`,
          accountId: 'acc_a',
          clientMessageId: r.messageId,
          requestHash: 'h',
          kind: 'template',
          fromPhone: FROM,
          toPhone: r.recipient,
          content: '{}',
          createdAt: AT,
          updatedAt: AT,
        };
        await repos.messages.reserve(claim);
        await repos.messages.markAccepted(claim, `wamid.${c.id}.${i}`, AT);
        // The network's times are whole seconds: the first of these it timed before the send was recorded.
        const statusAt = i === 0 ? AT - 400 : AT + 1500;
        await repos.messages.applyNetworkStatus(`wamid.${c.id}.${i}`, status, statusAt, null, {});
        await campaigns().finish(c.id, [{ seq: r.seq, state: 'DONE', reason: null, sentAt: AT }], AT);
      }
      await campaigns().finish(
        c.id,
        [{ seq: batch[3]!.seq, state: 'FAILED', reason: 'refused', sentAt: null }],
        AT,
      );
      await repos.conversations.recordInbound(FROM, batch[1]!.recipient, AT + 60_000);
      const tally = await campaigns().tally(c);
      const count = (state: string, status: string | null) =>
        tally.find((t) => t.state === state && t.messageStatus === status)?.count ?? 0;
      assert.equal(count('DONE', 'DELIVERED'), 1);
      assert.equal(count('DONE', 'READ'), 1);
      assert.equal(count('DONE', 'FAILED'), 1);
      assert.equal(count('FAILED', null), 1);
      assert.equal(count('SKIPPED', null), 1);
      assert.equal(
        tally.reduce((n, t) => n + t.replied, 0),
        1,
      );
      assert.equal(await campaigns().countRecipients(c, 'delivered'), 2, 'read counts as delivered');
      assert.equal(await campaigns().countRecipients(c, 'failed'), 2);
      assert.equal(await campaigns().countRecipients(c, 'replied'), 1);
      // Their steps over time, per second from a second before they were sent; a step the network timed
      // before its send counts from the send.
      const steps = await campaigns().statusesOverTime(c, AT - 1000, 1000);
      const stepsOf = (status: string) =>
        steps.filter((b) => b.status === status).map((b) => [b.bucket, b.count]);
      assert.deepEqual(stepsOf('SENT'), [[1, 3]]);
      assert.deepEqual(stepsOf('DELIVERED'), [[1, 1]]);
      assert.deepEqual(stepsOf('READ'), [[2, 1]]);
      // One failed by the network's report; one refused before any message, counted when it was refused.
      assert.deepEqual(stepsOf('FAILED').sort(), [
        [1, 1],
        [2, 1],
      ]);
      const replied = await campaigns().recipients(c, 'replied', { afterSeq: -1, offset: 0, limit: 10 });
      assert.deepEqual(
        replied.map((r) => [r.recipient, r.replied, r.messageStatus]),
        [[batch[1]!.recipient, true, 'READ']],
      );
      assert.equal(await campaigns().delete('acc_b', c.id), false);
      assert.equal(await campaigns().delete('acc_a', c.id), true);
      assert.equal(await campaigns().countRecipients(c, undefined), 0, 'its recipients went with it');
    });

    test('a send interrupted and never confirmed is queued again once, under a new messageId', {
      skip,
    }, async () => {
      const c = campaign('cmp_retry');
      await campaigns().insert(c);
      await campaigns().appendRecipients(c, 0, queued(2, 200), AT);
      const batch = await campaigns().claim(c, AT, AT + 1000, 10);
      const expired = expiredOutcome(storedUnknown(INTERRUPTED, 1000), 1000);
      const refused = JSON.stringify({ httpStatus: 422, code: 'network_rejected', message: 'no' });
      for (const [i, error] of [expired, refused].entries()) {
        const r = batch[i]!;
        await store.db
          .insertInto('messages')
          .values({
            id: `msg_retry_${i}`,
            account_id: 'acc_a',
            client_message_id: r.messageId,
            request_hash: 'h',
            kind: 'template',
            from_phone: FROM,
            to_phone: r.recipient,
            content: '{}',
            wa_id: null,
            status: 'FAILED',
            status_rank: 3,
            error,
            created_at: AT,
            updated_at: AT,
          })
          .execute();
        await campaigns().finish(c.id, [{ seq: r.seq, state: 'DONE', reason: null, sentAt: AT }], AT);
      }
      assert.equal(await campaigns().requeueInterrupted(c, AT + 1), 1, 'only the interrupted one');
      const [again] = await campaigns().claim(c, AT + 2, AT + 1000, 10);
      assert.equal(again?.seq, batch[0]!.seq);
      assert.equal(again?.messageId, `${batch[0]!.messageId}-r`);
      await campaigns().finish(c.id, [{ seq: again!.seq, state: 'DONE', reason: null, sentAt: AT }], AT);
      await store.db
        .updateTable('messages')
        .set({ client_message_id: again!.messageId })
        .where('id', '=', 'msg_retry_0')
        .execute();
      assert.equal(await campaigns().requeueInterrupted(c, AT + 3), 0, 'never a third time');
    });
  });
}
