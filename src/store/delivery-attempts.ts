/**
 * The outcomes of webhook attempts, recorded in batches (docs/adr/0033-webhook-attempt-batches.md): the
 * attempts that ended while the previous batch was being written are written together.
 *
 * - Each attempt's row and its delivery's new state always commit together. On PostgreSQL a whole batch
 *   is one statement (its parts are data-modifying CTEs, so it is atomic), with every list a single array
 *   parameter: the text never changes, so each connection prepares it once (docs/adr/0012). On SQLite the
 *   batch is one synchronous run of statements, all or none (recordOnSqlite below); statements there cost
 *   no round trip.
 * - An endpoint's run of failures: an endpoint whose latest attempt in the batch succeeded has it ended
 *   (in the same statement); one whose latest attempt failed has it started, and is disabled once the run
 *   has lasted `disableAfterMs` (rare, so kept as simple statements of their own).
 */
import { type Kysely, sql } from 'kysely';
import type { AttemptOutcome } from '../domain/ports/webhook-deliveries.ts';
import { newId } from '../lib/ids.ts';
import type { Dialect } from './connect.ts';
import { sqliteDriverOf } from './node-sqlite-dialect.ts';
import { compiledOnce } from './prepared.ts';
import type { Database } from './schema.ts';

/** Endpoint ids by the outcome of their latest attempt in the batch. */
function latestByEndpoint(outcomes: readonly AttemptOutcome[]): { ok: string[]; failed: string[] } {
  const latest = new Map<string, boolean>();
  for (const o of outcomes) latest.set(o.endpointId, o.ok);
  const ok: string[] = [];
  const failed: string[] = [];
  for (const [id, wasOk] of latest) (wasOk ? ok : failed).push(id);
  return { ok, failed };
}

async function recordOnPostgres(db: Kysely<Database>, outcomes: readonly AttemptOutcome[], ok: string[]) {
  const column = <T>(pick: (o: AttemptOutcome) => T) => outcomes.map(pick);
  await sql`
    with attempts as (
      insert into delivery_attempts
        (id, delivery_id, attempted_at, status_code, latency_ms, response_body, error)
      select a.id, a.delivery_id, a.attempted_at, a.status_code, a.latency_ms, a.response_body, a.error
      from unnest(
        ${column((o) => newId('att', o.attempt.attemptedAt))}::text[],
        ${column((o) => o.attempt.deliveryId)}::text[],
        ${column((o) => o.attempt.attemptedAt)}::bigint[],
        ${column((o) => o.attempt.statusCode)}::integer[],
        ${column((o) => o.attempt.latencyMs)}::integer[],
        ${column((o) => o.attempt.responseBody)}::text[],
        ${column((o) => o.attempt.error)}::text[])
        as a(id, delivery_id, attempted_at, status_code, latency_ms, response_body, error)
    ), states as (
      update deliveries set
        status = v.status, attempt_count = v.attempt_count, next_attempt_at = v.next_attempt_at,
        locked_until = null, last_status_code = v.status_code, updated_at = v.attempted_at
      from unnest(
        ${column((o) => o.attempt.deliveryId)}::text[],
        ${column((o) => o.next.status)}::text[],
        ${column((o) => o.next.attemptCount)}::integer[],
        ${column((o) => o.next.nextAttemptAt)}::bigint[],
        ${column((o) => o.attempt.statusCode)}::integer[],
        ${column((o) => o.attempt.attemptedAt)}::bigint[])
        as v(id, status, attempt_count, next_attempt_at, status_code, attempted_at)
      where deliveries.id = v.id
    ), recovered as (
      update webhook_endpoints set failing_since = null
      where id = any(${ok}::text[]) and failing_since is not null
    )
    select 1 as done`.execute(db);
}

const insertAttempt = compiledOnce(
  (
    db: Kysely<Database>,
    id: string,
    deliveryId: string,
    attemptedAt: number,
    statusCode: number | null,
    latencyMs: number,
    responseBody: string | null,
    error: string | null,
  ) =>
    db.insertInto('delivery_attempts').values({
      id,
      delivery_id: deliveryId,
      attempted_at: attemptedAt,
      status_code: statusCode,
      latency_ms: latencyMs,
      response_body: responseBody,
      error,
    }),
  7,
);

const updateDelivery = compiledOnce(
  (
    db: Kysely<Database>,
    deliveryId: string,
    status: string,
    attemptCount: number,
    nextAttemptAt: number,
    statusCode: number | null,
    updatedAt: number,
  ) =>
    db
      .updateTable('deliveries')
      .set({
        status,
        attempt_count: attemptCount,
        next_attempt_at: nextAttemptAt,
        locked_until: null,
        last_status_code: statusCode,
        updated_at: updatedAt,
      })
      .where('id', '=', deliveryId),
  6,
);

const endRunOfFailures = compiledOnce(
  (db: Kysely<Database>, endpointId: string) =>
    db
      .updateTable('webhook_endpoints')
      .set({ failing_since: null })
      .where('id', '=', endpointId)
      .where('failing_since', 'is not', null),
  1,
);

/**
 * On SQLite the batch's statements run together (GroupCommitDriver's runTogether): compiled once, with no
 * promise between them, in a savepoint of the open group commit. Built anew for each batch through a Kysely
 * transaction, they cost the gateway more than SQLite's own work (a twentieth of its CPU while it
 * delivered a backlog).
 */
async function recordOnSqlite(db: Kysely<Database>, outcomes: readonly AttemptOutcome[], ok: string[]) {
  const driver = sqliteDriverOf(db);
  if (!driver) throw new Error('a SQLite store runs on the group-commit driver (connect.ts)');
  await driver.runTogether((statements) => {
    for (const { attempt, next } of outcomes) {
      statements.changes(
        insertAttempt(
          db,
          newId('att', attempt.attemptedAt),
          attempt.deliveryId,
          attempt.attemptedAt,
          attempt.statusCode,
          attempt.latencyMs,
          attempt.responseBody,
          attempt.error,
        ),
      );
      statements.changes(
        updateDelivery(
          db,
          attempt.deliveryId,
          next.status,
          next.attemptCount,
          next.nextAttemptAt,
          attempt.statusCode,
          attempt.attemptedAt,
        ),
      );
    }
    for (const endpointId of ok) statements.changes(endRunOfFailures(db, endpointId));
  });
}

/** Starts an endpoint's run of failures if none is running; true when it disabled the endpoint. */
async function noteFailure(db: Kysely<Database>, endpointId: string, now: number, disableAfterMs: number) {
  await db
    .updateTable('webhook_endpoints')
    .set({ failing_since: now })
    .where('id', '=', endpointId)
    .where('failing_since', 'is', null)
    .execute();
  const r = await db
    .updateTable('webhook_endpoints')
    .set({ disabled_at: now, updated_at: now })
    .where('id', '=', endpointId)
    .where('disabled_at', 'is', null)
    .where('failing_since', '<=', now - disableAfterMs)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export function deliveryAttempts(db: Kysely<Database>, dialect: Dialect) {
  return {
    /** Records a batch of attempts; returns the endpoints that were disabled by it. */
    async recordAttempts(
      outcomes: readonly AttemptOutcome[],
      now: number,
      disableAfterMs: number,
    ): Promise<string[]> {
      if (outcomes.length === 0) return [];
      const { ok, failed } = latestByEndpoint(outcomes);
      if (dialect === 'postgres') await recordOnPostgres(db, outcomes, ok);
      else await recordOnSqlite(db, outcomes, ok);
      const disabled: string[] = [];
      for (const endpointId of failed) {
        if (await noteFailure(db, endpointId, now, disableAfterMs)) disabled.push(endpointId);
      }
      return disabled;
    },
  };
}
