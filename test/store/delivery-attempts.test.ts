/**
 * Webhook attempts recorded in batches (src/store/delivery-attempts.ts), on SQLite and PostgreSQL: every
 * attempt's row and its delivery's new state are written, whatever the answers held; an endpoint's run of
 * failures is ended or started by its latest attempt in the batch, and disables it once long enough.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createAccount } from '../../src/domain/accounts.ts';
import type { AttemptOutcome } from '../../src/domain/ports/webhook-deliveries.ts';
import type { Store } from '../../src/store/connect.ts';
import { createRepositories, type Repositories } from '../../src/store/repositories.ts';
import { insertEvent } from '../../src/store/webhooks-repo.ts';
import { openForSuite, storeTargets } from '../support/store-targets.ts';

const HOUR = 3_600_000;

for (const target of storeTargets) {
  describe(`webhook attempts recorded in batches on ${target.name}`, async () => {
    const skip = await target.skip();
    let store: Store;
    let repos: Repositories;

    openForSuite(target, skip, (opened) => {
      store = opened;
      repos = createRepositories(store);
    });

    /** An account with one endpoint and `n` pending deliveries to it. */
    async function deliveriesTo(name: string, n: number) {
      const accountId = (await createAccount(repos.accounts, name)).id;
      const endpoint = await repos.webhooks.createEndpoint(
        {
          account_id: accountId,
          url: `https://hooks.example.com/${name}`,
          events: JSON.stringify(['message.received']),
          secret_enc: 'sealed',
        },
        Date.now(),
      );
      for (let i = 0; i < n; i++) {
        await insertEvent(store.db, accountId, 'message.received', { n: i }, Date.now());
      }
      const rows = await store.db
        .selectFrom('deliveries')
        .select('id')
        .where('endpoint_id', '=', endpoint.id)
        .orderBy('id')
        .execute();
      return { endpointId: endpoint.id, deliveries: rows.map((r) => r.id) };
    }

    function outcome(
      endpointId: string,
      deliveryId: string,
      answer: { status: number | null; body?: string | null; error?: string | null },
      at: number,
    ): AttemptOutcome {
      const ok = answer.status !== null && answer.status < 300;
      return {
        attempt: {
          deliveryId,
          attemptedAt: at,
          statusCode: answer.status,
          latencyMs: 12,
          responseBody: answer.body ?? null,
          error: answer.error ?? null,
        },
        next: ok
          ? { status: 'succeeded', nextAttemptAt: at, attemptCount: 1 }
          : { status: 'pending', nextAttemptAt: at + 60_000, attemptCount: 1 },
        endpointId,
        ok,
      };
    }

    const endpointRow = (id: string) =>
      store.db
        .selectFrom('webhook_endpoints')
        .select(['failing_since', 'disabled_at'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();

    test('each attempt and its delivery are written, whatever the answer held', { skip }, async () => {
      const { endpointId, deliveries } = await deliveriesTo('Bodies', 4);
      const at = Date.now();
      // Texts that a list parameter must carry unchanged: quotes, commas, braces, a backslash, the word NULL.
      const bodies = ['{"ok":true, "list":[1,2]}', 'NULL', 'a\\b "c", {d}', 'ünïcødé ✓'];
      const disabled = await repos.webhooks.recordAttempts(
        [
          outcome(endpointId, deliveries[0]!, { status: 200, body: bodies[0]! }, at),
          outcome(endpointId, deliveries[1]!, { status: 500, body: bodies[1]! }, at),
          outcome(endpointId, deliveries[2]!, { status: 410, body: bodies[2]! }, at),
          outcome(endpointId, deliveries[3]!, { status: null, error: bodies[3]! }, at),
        ],
        at,
        HOUR,
      );
      assert.deepEqual(disabled, []);
      const attempts = await store.db
        .selectFrom('delivery_attempts')
        .selectAll()
        .where('delivery_id', 'in', deliveries)
        .orderBy('delivery_id')
        .execute();
      assert.deepEqual(
        attempts.map((a) => [a.delivery_id, a.status_code, a.response_body, a.error, Number(a.latency_ms)]),
        [
          [deliveries[0], 200, bodies[0], null, 12],
          [deliveries[1], 500, bodies[1], null, 12],
          [deliveries[2], 410, bodies[2], null, 12],
          [deliveries[3], null, null, bodies[3], 12],
        ],
      );
      const states = await store.db
        .selectFrom('deliveries')
        .select(['id', 'status', 'attempt_count', 'next_attempt_at', 'locked_until', 'last_status_code'])
        .where('id', 'in', deliveries)
        .orderBy('id')
        .execute();
      assert.deepEqual(
        states.map((s) => [
          s.status,
          s.attempt_count,
          Number(s.next_attempt_at),
          s.locked_until,
          s.last_status_code,
        ]),
        [
          ['succeeded', 1, at, null, 200],
          ['pending', 1, at + 60_000, null, 500],
          ['pending', 1, at + 60_000, null, 410],
          ['pending', 1, at + 60_000, null, null],
        ],
      );
      assert.equal((await endpointRow(endpointId)).failing_since !== null, true, 'its latest attempt failed');
    });

    test("an endpoint's latest attempt in the batch ends or starts its run of failures", {
      skip,
    }, async () => {
      const { endpointId, deliveries } = await deliveriesTo('Runs', 4);
      const at = Date.now();
      await repos.webhooks.recordAttempts(
        [
          outcome(endpointId, deliveries[0]!, { status: 200 }, at),
          outcome(endpointId, deliveries[1]!, { status: 503 }, at),
        ],
        at,
        HOUR,
      );
      assert.equal(Number((await endpointRow(endpointId)).failing_since), at, 'failing since this batch');
      await repos.webhooks.recordAttempts(
        [
          outcome(endpointId, deliveries[2]!, { status: 503 }, at + 5),
          outcome(endpointId, deliveries[3]!, { status: 204 }, at + 5),
        ],
        at + 5,
        HOUR,
      );
      assert.equal((await endpointRow(endpointId)).failing_since, null, 'a success ended the run');
    });

    test('a run of failures that lasted long enough disables the endpoint, once', { skip }, async () => {
      const { endpointId, deliveries } = await deliveriesTo('Down', 3);
      const other = await deliveriesTo('Up', 1);
      const start = Date.now();
      await repos.webhooks.recordAttempts(
        [outcome(endpointId, deliveries[0]!, { status: 500 }, start)],
        start,
        HOUR,
      );
      const later = start + HOUR + 1;
      const disabled = await repos.webhooks.recordAttempts(
        [
          outcome(endpointId, deliveries[1]!, { status: 500 }, later),
          outcome(other.endpointId, other.deliveries[0]!, { status: 200 }, later),
        ],
        later,
        HOUR,
      );
      assert.deepEqual(disabled, [endpointId]);
      const row = await endpointRow(endpointId);
      assert.equal(Number(row.disabled_at), later);
      assert.equal(Number(row.failing_since), start, 'the run is dated from its first failure');
      assert.equal((await endpointRow(other.endpointId)).disabled_at, null);
      const again = await repos.webhooks.recordAttempts(
        [outcome(endpointId, deliveries[2]!, { status: 500 }, later + 1)],
        later + 1,
        HOUR,
      );
      assert.deepEqual(again, [], 'an endpoint already disabled is not disabled again');
    });

    test('an empty batch writes nothing', { skip }, async () => {
      assert.deepEqual(await repos.webhooks.recordAttempts([], Date.now(), HOUR), []);
    });
  });
}
