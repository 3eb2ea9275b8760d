/**
 * SQLite: a status applied with its event in one synchronous run of statements (GroupCommitDriver's
 * runTogether, ./node-sqlite-dialect.ts), a network's or a send's own outcome: the message moves forward,
 * the step joins its history and, when its account has webhook endpoints, the `message.status` event and
 * its deliveries are written (./event-writes.ts). What ./status-with-event.ts does on PostgreSQL in one
 * statement; here the statements are each a few microseconds in SQLite, and running them together spares
 * the promises of a Kysely transaction around each, which cost more than SQLite's own work.
 */
import type { Kysely } from 'kysely';
import { endpointsOfAccountQuery, eventWrites } from './event-writes.ts';
import { forwardMove, insertStatusEventQuery, type MoveArgs } from './message-statements.ts';
import type { GroupCommitDriver } from './node-sqlite-dialect.ts';
import { compiledOnce } from './prepared.ts';
import type { Database } from './schema.ts';
import { STATUS_EVENT_TYPE, type StatusWithEvent } from './status-with-event.ts';

/** The move (./message-statements.ts), returning only the account, whose endpoints the event needs. */
const moveOf = (recordWaId: boolean) =>
  compiledOnce(
    (db: Kysely<Database>, ...move: MoveArgs) =>
      forwardMove(db, { byId: true, recordWaId }, ...move).returning('account_id'),
    6,
  );
const moving = moveOf(false);
const recordingWaId = moveOf(true);

/** Applies the status; whether the message moved, and whether an event was written (to wake delivery). */
export function applyStatusWithEventSqlite(
  db: Kysely<Database>,
  driver: GroupCommitDriver,
  s: StatusWithEvent,
): Promise<{ moved: boolean; eventWritten: boolean }> {
  const move = s.recordWaId === undefined ? moving : recordingWaId;
  return driver.runTogether((statements) => {
    const [moved] = statements.rows(
      move(db, s.messageId, s.status, s.rank, s.error, s.at, s.recordWaId ?? null),
    );
    if (!moved) return { moved: false, eventWritten: false };
    statements.changes(insertStatusEventQuery(db, s.stepId, s.messageId, s.status, s.at, s.error));
    const accountId = moved.account_id;
    const endpoints = statements.rows(endpointsOfAccountQuery(db, accountId));
    const event = {
      id: s.eventId,
      accountId,
      type: STATUS_EVENT_TYPE,
      payload: () => s.payload,
      now: s.eventAt,
    };
    const writes = eventWrites(db, endpoints, event);
    for (const write of writes) statements.changes(write);
    return { moved: true, eventWritten: writes.length > 0 };
  });
}
