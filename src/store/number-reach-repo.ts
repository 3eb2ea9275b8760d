/**
 * The users each business number reached in the last 24 hours (src/domain/ports/number-reach.ts): one row
 * per (number, user) with when, so that counting a number's users is one index range, and rows past the
 * window are dropped as the number's next reservation passes.
 *
 * A reservation decides and records in one transaction. On PostgreSQL it first takes a transaction lock
 * on the number, so two nodes reserving for one number at once take turns: together they never grant
 * past the limit. SQLite has one writer, which gives the same.
 */
import { type Kysely, sql, type Transaction } from 'kysely';
import type { NumberReachStore, ReachGrant, ReachRequest } from '../domain/ports/number-reach.ts';
import type { Dialect } from './connect.ts';
import type { Database } from './schema.ts';

/** Users looked up per statement: well within both databases' limits on bound parameters. */
const CHUNK = 500;

/** Of `users`, those reached within the window or who wrote to the number within it. */
async function knownUsers(trx: Transaction<Database>, business: string, users: string[], since: number) {
  const known = new Set<string>();
  for (let i = 0; i < users.length; i += CHUNK) {
    const chunk = users.slice(i, i + CHUNK);
    const reached = await trx
      .selectFrom('number_reach')
      .select('user_key as user')
      .where('business_phone', '=', business)
      .where('user_key', 'in', chunk)
      .execute();
    const talking = await trx
      .selectFrom('conversation_windows')
      .select('user_phone as user')
      .where('business_phone', '=', business)
      .where('user_phone', 'in', chunk)
      .where('last_inbound_at', '>', since)
      .execute();
    for (const row of [...reached, ...talking]) known.add(row.user);
  }
  return known;
}

async function reserve(db: Kysely<Database>, dialect: Dialect, request: ReachRequest): Promise<ReachGrant> {
  const { business, limit, now } = request;
  const since = now - request.windowMs;
  return db.transaction().execute(async (trx) => {
    if (dialect === 'postgres')
      await sql`select pg_advisory_xact_lock(hashtext(${`number_reach:${business}`}))`.execute(trx);
    await trx
      .deleteFrom('number_reach')
      .where('business_phone', '=', business)
      .where('reached_at', '<=', since)
      .execute();
    const users = [...new Set(request.users)];
    const known = await knownUsers(trx, business, users, since);
    const held = await trx
      .selectFrom('number_reach')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min<number>('reached_at').as('oldest')])
      .where('business_phone', '=', business)
      .executeTakeFirstOrThrow();
    const room = Math.max(0, limit - Number(held.n));
    const fresh = users.filter((u) => !known.has(u)).slice(0, room);
    for (let i = 0; i < fresh.length; i += CHUNK) {
      const rows = fresh
        .slice(i, i + CHUNK)
        .map((user) => ({ business_phone: business, user_key: user, reached_at: now }));
      await trx.insertInto('number_reach').values(rows).execute();
    }
    const oldest = held.oldest === null ? (fresh.length ? now : null) : Number(held.oldest);
    return {
      allowed: new Set([...known, ...fresh]),
      reached: Number(held.n) + fresh.length,
      roomAt: oldest === null ? null : oldest + request.windowMs,
    };
  });
}

export function numberReachRepo(db: Kysely<Database>, dialect: Dialect): NumberReachStore {
  return { reserve: (request) => reserve(db, dialect, request) };
}
