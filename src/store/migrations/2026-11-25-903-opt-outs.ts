/**
 * Users who opted out of a business number's marketing (docs/opt-outs.md): by a keyword they sent
 * (STOP, ...), or because the network said they do not accept marketing (131050). A row is an opt-out in
 * force; opting in again removes it.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('opt_outs')
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('business_phone', 'text', (c) => c.notNull())
    // The user's key (docs/adr/0023): their phone number, or their business-scoped user id.
    .addColumn('user_key', 'text', (c) => c.notNull())
    .addColumn('opted_out_at', 'bigint', (c) => c.notNull())
    // `keyword` or `network`, and the keyword itself when there was one.
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('keyword', 'text')
    .addPrimaryKeyConstraint('opt_outs_pk', ['business_phone', 'user_key'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('opt_outs').execute();
}
