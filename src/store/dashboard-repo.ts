/**
 * The dashboard's counts (src/domain/ports/dashboard.ts), grouped in the database: per UTC day (the
 * time in ms divided by a day's, a whole number in both databases) and status. Grouped by position:
 * PostgreSQL would not see a bucket bound again with new parameters as the same expression.
 */
import { type Kysely, sql } from 'kysely';
import type { DashboardRange, DashboardStore } from '../domain/ports/dashboard.ts';
import type { Dialect } from './connect.ts';
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

/** The template's network name and language code in a template message's content (the Cloud API body). */
function templateKeys(dialect: Dialect) {
  return dialect === 'postgres'
    ? {
        // PostgreSQL refuses to read JSON holding a "\u0000" escape (a customer's parameter may hold one),
        // so it is read as U+FFFD: only the template's name and language are taken from the text.
        name: sql<string>`(replace(content, '\\u0000', '\\ufffd')::jsonb #>> '{template,name}')`,
        language: sql<string>`(replace(content, '\\u0000', '\\ufffd')::jsonb #>> '{template,language,code}')`,
      }
    : {
        name: sql<string>`json_extract(content, '$.template.name')`,
        language: sql<string>`json_extract(content, '$.template.language.code')`,
      };
}

/** Template sends in the range, grouped by the template named in their content and by status. */
async function templateCounts(
  db: Kysely<Database>,
  dialect: Dialect,
  accountId: string,
  range: DashboardRange,
) {
  const keys = templateKeys(dialect);
  const rows = await sentInRange(db, accountId, range)
    .where('kind', '=', 'template')
    .select((eb) => [
      keys.name.as('name'),
      keys.language.as('language'),
      'status',
      eb.fn.countAll<number>().as('n'),
    ])
    .groupBy([sql`1`, sql`2`, sql`3`])
    .execute();
  return rows.map((r) => ({
    name: String(r.name ?? ''),
    language: String(r.language ?? ''),
    status: r.status,
    count: Number(r.n),
  }));
}

export function dashboardRepo(db: Kysely<Database>, dialect: Dialect): DashboardStore {
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

    templatesByStatus: (accountId, range) => templateCounts(db, dialect, accountId, range),
  };
}
