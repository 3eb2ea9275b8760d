/**
 * Opt-outs of a business number's marketing (src/domain/ports/opt-outs.ts): a row per user opted out,
 * written with its `contact.opted_out` event in one transaction, removed with its `contact.opted_in` event.
 * Both changes are conditional, so a keyword the network delivers twice records one event.
 */
import type { Kysely } from 'kysely';
import type { OptOut, OptOutsStore } from '../domain/ports/opt-outs.ts';
import { prepare } from './prepared.ts';
import type { Database, OptOutsTable } from './schema.ts';
import { insertEvent } from './webhooks-repo.ts';

/**
 * Read before every marketing template send: compiled once, and its columns named so that PostgreSQL
 * prepares it once per connection (src/store/pg-named-statements.ts).
 */
const optOutRow = prepare(
  (db: Kysely<Database>, accountId: string, businessPhone: string, user: string) =>
    db
      .selectFrom('opt_outs')
      .select(['account_id', 'business_phone', 'user_key', 'opted_out_at', 'source', 'keyword'])
      .where('account_id', '=', accountId)
      .where('business_phone', '=', businessPhone)
      .where('user_key', '=', user),
  3,
);

/** A row's `source`; a value this gateway does not know reads as a keyword's (the first source there was). */
const sourceOf = (source: string): OptOut['source'] =>
  source === 'network' || source === 'preference' ? source : 'keyword';

const optOutOf = (row: OptOutsTable): OptOut => ({
  businessPhone: row.business_phone,
  user: row.user_key,
  at: Number(row.opted_out_at),
  source: sourceOf(row.source),
  keyword: row.keyword,
});

export function optOutsRepo(db: Kysely<Database>): OptOutsStore {
  return {
    async optOut(accountId, optOut, event) {
      return db.transaction().execute(async (trx) => {
        const inserted = await trx
          .insertInto('opt_outs')
          .values({
            account_id: accountId,
            business_phone: optOut.businessPhone,
            user_key: optOut.user,
            opted_out_at: optOut.at,
            source: optOut.source,
            keyword: optOut.keyword,
          })
          .onConflict((c) => c.columns(['business_phone', 'user_key']).doNothing())
          .executeTakeFirst();
        if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return false;
        await insertEvent(trx, accountId, 'contact.opted_out', () => event(optOut), optOut.at);
        return true;
      });
    },

    async optIn(accountId, optIn, event) {
      return db.transaction().execute(async (trx) => {
        const deleted = await trx
          .deleteFrom('opt_outs')
          .where('account_id', '=', accountId)
          .where('business_phone', '=', optIn.businessPhone)
          .where('user_key', '=', optIn.user)
          .executeTakeFirst();
        if (Number(deleted.numDeletedRows) === 0) return false;
        await insertEvent(trx, accountId, 'contact.opted_in', () => event(optIn), optIn.at);
        return true;
      });
    },

    async find(accountId, businessPhone, user) {
      const [row] = (await optOutRow(db, accountId, businessPhone, user)).rows;
      return row ? optOutOf(row) : undefined;
    },

    async list(accountId, filter, page) {
      let query = db.selectFrom('opt_outs').where('account_id', '=', accountId);
      if (filter.businessPhone) query = query.where('business_phone', '=', filter.businessPhone);
      if (filter.user) query = query.where('user_key', '=', filter.user);
      const [rows, counted] = await Promise.all([
        query
          .selectAll()
          .orderBy('opted_out_at', 'desc')
          .orderBy('business_phone')
          .orderBy('user_key')
          .offset(page.offset)
          .limit(page.limit)
          .execute(),
        query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return { optOuts: rows.map(optOutOf), total: Number(counted.n) };
    },
  };
}
