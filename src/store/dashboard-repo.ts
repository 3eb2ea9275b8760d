/**
 * The dashboard's counts (src/domain/ports/dashboard.ts), grouped in the database: per UTC day (the
 * time in ms divided by a day's, a whole number in both databases) and status. Grouped by position:
 * PostgreSQL would not see a bucket bound again with new parameters as the same expression.
 */
import { type Kysely, sql } from 'kysely';
import type { DashboardRange, DashboardStore } from '../domain/ports/dashboard.ts';
import type { Database } from './schema.ts';

const DAY_MS = 86_400_000;

function sentInRange(db: Kysely<Database>, accountId: string, range: DashboardRange) {
  return db
    .selectFrom('messages')
    .where('account_id', '=', accountId)
    .where('created_at', '>=', range.from)
    .where('created_at', '<', range.until)
    .$if(range.number !== undefined, (q) => q.where('from_phone', '=', range.number!));
}

export function dashboardRepo(db: Kysely<Database>): DashboardStore {
  return {
    async sentByDay(accountId, range) {
      const rows = await sentInRange(db, accountId, range)
        .select((eb) => [
          sql<number>`cast(created_at / ${DAY_MS} as integer)`.as('day'),
          'status',
          eb.fn.countAll<number>().as('n'),
        ])
        .groupBy([sql`1`, sql`2`])
        .execute();
      return rows.map((r) => ({ day: Number(r.day), status: r.status, count: Number(r.n) }));
    },

    async receivedByDay(accountId, range) {
      const rows = await db
        .selectFrom('inbound_messages')
        .where('account_id', '=', accountId)
        .where('received_at', '>=', range.from)
        .where('received_at', '<', range.until)
        .$if(range.number !== undefined, (q) => q.where('business_phone', '=', range.number!))
        .select((eb) => [
          sql<number>`cast(received_at / ${DAY_MS} as integer)`.as('day'),
          eb.fn.countAll<number>().as('n'),
        ])
        .groupBy(sql`1`)
        .execute();
      return rows.map((r) => ({ day: Number(r.day), count: Number(r.n) }));
    },

    async failures(accountId, range, limit) {
      const rows = await sentInRange(db, accountId, range)
        .where('status', '=', 'FAILED')
        .select((eb) => ['error', eb.fn.countAll<number>().as('n')])
        .groupBy('error')
        .orderBy(sql`2`, 'desc')
        .limit(limit)
        .execute();
      return rows.map((r) => ({ error: r.error, count: Number(r.n) }));
    },

    async deliveriesByStatus(accountId, range) {
      const rows = await db
        .selectFrom('deliveries')
        .where('account_id', '=', accountId)
        .where('created_at', '>=', range.from)
        .where('created_at', '<', range.until)
        .select((eb) => ['status', eb.fn.countAll<number>().as('n')])
        .groupBy('status')
        .execute();
      return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
    },
  };
}
