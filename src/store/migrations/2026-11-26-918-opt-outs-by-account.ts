/**
 * An account's opt-outs listed newest first (GET /api/v1/opt-outs, docs/opt-outs.md): read from this index
 * in its order, not by scanning every account's opt-outs and sorting them.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('opt_outs_by_account')
    .on('opt_outs')
    .columns(['account_id', 'opted_out_at desc', 'business_phone', 'user_key'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('opt_outs_by_account').execute();
}
